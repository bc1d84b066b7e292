import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCidrList } from '../../net/cidr.js';
import { ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from '../errors.js';
import { NO_LOAD } from '../node-status/media-nodes.store.js';
import type { NodeView } from '../node-status/node-status.service.js';
import { distanceKm, type GeoPoint } from './geo.js';
import { rankNodes } from './node-scoring.js';
import { type ResolvedContent, ViewerRoutingService } from './viewer-routing.service.js';

const FRANKFURT = { latitude: 50.11, longitude: 8.68 };
const LONDON = { latitude: 51.51, longitude: -0.13 };
const NEW_YORK = { latitude: 40.71, longitude: -74.01 };

function node(id: string, at: GeoPoint | undefined, extra: Partial<NodeView> = {}): NodeView {
  return {
    id,
    baseUrl: `http://${id}.example:8080`,
    version: '1',
    startedAt: new Date(),
    heartbeatAt: new Date(),
    heartbeatMs: 5000,
    stoppedAt: null,
    role: 'media',
    region: null,
    latitude: at?.latitude ?? null,
    longitude: at?.longitude ?? null,
    capacityMbps: 1000,
    mode: 'NORMAL',
    services: [],
    outputs: ['hls', 'llhls', 'dash', 'mp4'],
    ...NO_LOAD,
    health: 'HEALTHY',
    self: false,
    ...extra,
  };
}

const content: ResolvedContent = {
  contentId: 'abc',
  contentType: 'live',
  title: 'Show',
  description: null,
  status: 'LIVE',
  isLive: true,
  viewers: 3,
  tracks: [
    { type: 'video', codec: 'h264', bitrateKbps: 3000, width: 1280, height: 720, channels: null, sampleRate: null },
  ],
  holders: ['nyc'],
  outputs: ['HLS', 'HLS_CMAF', 'DASH', 'MP4', 'WHEP'],
};

describe('node scoring', () => {
  it('measures great-circle distances', () => {
    const km = distanceKm(FRANKFURT, NEW_YORK);
    assert.ok(km > 6150 && km < 6250, `${km}`);
    assert.equal(distanceKm(LONDON, LONDON), 0);
  });

  it('prefers the nearest node, then the less loaded, and never a drained, unhealthy or full one', () => {
    const nodes = [
      node('fra', FRANKFURT),
      node('lon', LONDON),
      node('nyc', NEW_YORK),
      node('drained', LONDON, { mode: 'DRAINING' }),
      node('down', LONDON, { health: 'UNHEALTHY' }),
      node('full', LONDON, { egressMbps: 1000 }),
    ];
    const ranked = rankNodes(nodes, { latitude: 51.75, longitude: -0.33 }, new Set());
    assert.deepEqual(
      ranked.map((scored) => scored.node.id),
      ['lon', 'fra', 'nyc'],
    );
    assert.ok((ranked[0]?.geoDistance ?? 0) < 40);
    const busy = rankNodes(
      [node('lon', LONDON, { cpuPercent: 100, egressMbps: 900 }), node('fra', FRANKFURT)],
      LONDON,
      new Set(),
    );
    assert.equal(busy[0]?.node.id, 'fra', 'a saturated node loses to one 640 km further');
    assert.equal(busy[1]?.loadScore, 0.933);
    const holding = rankNodes([node('lon', LONDON), node('fra', FRANKFURT)], LONDON, new Set(['fra']));
    assert.equal(holding[0]?.node.id, 'fra', 'within ~1,000 km the node already holding the stream wins');
    const unlocated = rankNodes(
      [node('b', undefined, { cpuPercent: 50 }), node('a', undefined)],
      undefined,
      new Set(['b']),
    );
    assert.deepEqual(
      unlocated.map((scored) => [scored.node.id, scored.geoDistance]),
      [
        ['a', null],
        ['b', null],
      ],
    );
  });
});

describe('viewer routing', () => {
  const trusted = parseCidrList('127.0.0.0/8');
  const service = (options: { access?: 'allow' | 401 | 403; nodes?: NodeView[] } = {}) =>
    new ViewerRoutingService({
      resolvers: [{ resolve: async (id) => (id === 'abc' ? content : undefined) }],
      nodes: async () => options.nodes ?? [node('fra', FRANKFURT), node('lon', LONDON), node('nyc', NEW_YORK)],
      locator: { locate: (ip) => (ip === '81.2.69.142' ? { latitude: 51.75, longitude: -0.33 } : undefined) },
      trustedProxies: trusted,
      ...(options.access
        ? {
            access: async ({ token }) =>
              options.access === 'allow'
                ? { allowed: true, status: 200, reason: 'jwt-valid', detail: '', token: token ?? null }
                : {
                    allowed: false,
                    status: options.access as number,
                    reason: 'missing-token',
                    detail: 'no token',
                    token: null,
                  },
          }
        : {}),
    });

  it('routes a forwarded viewer to the nearest healthy node with every output, and lists the others as fallbacks', async () => {
    const result = await service().resolve('abc', { peer: '127.0.0.1', xForwardedFor: '81.2.69.142' });
    assert.equal(result.primary?.nodeId, 'lon');
    assert.equal(result.primary?.url, 'http://lon.example:8080/play/abc/cmaf/index.m3u8');
    assert.deepEqual(Object.keys(result.primary?.outputs ?? {}), ['HLS', 'HLS_CMAF', 'DASH', 'MP4']);
    assert.equal(result.primary?.outputs.MP4?.url, 'http://lon.example:8080/play/abc.mp4');
    assert.deepEqual(result.primary?.outputs.DASH?.capabilities, {
      supportsSeek: false,
      supportsQualitySwitch: false,
      hasAudio: false,
      hasVideo: true,
    });
    assert.deepEqual(
      result.fallbacks.map((endpoint) => endpoint.nodeId),
      ['fra', 'nyc'],
    );
    assert.deepEqual(result.metadata, {
      contentId: 'abc',
      contentType: 'live',
      title: 'Show',
      description: null,
      status: 'LIVE',
      isLive: true,
      viewers: 3,
      tracks: content.tracks,
    });
  });

  it('offers content only some nodes can serve from those nodes alone', async () => {
    const only = new ViewerRoutingService({
      resolvers: [{ resolve: async () => ({ ...content, servedOnlyBy: ['nyc'] }) }],
      nodes: async () => [node('fra', FRANKFURT), node('lon', LONDON), node('nyc', NEW_YORK)],
      locator: { locate: () => LONDON },
      trustedProxies: trusted,
    });
    const result = await only.resolve('abc', { peer: '81.2.69.142' });
    assert.equal(result.primary?.nodeId, 'nyc');
    assert.deepEqual(result.fallbacks, []);
    assert.equal('servedOnlyBy' in result.metadata, false);
  });

  it('returns at most four fallbacks and no primary when no node is healthy', async () => {
    const many = Array.from({ length: 8 }, (_, i) => node(`n${i}`, LONDON));
    assert.equal((await service({ nodes: many }).resolve('abc', { peer: '203.0.113.1' })).fallbacks.length, 4);
    const none = await service({ nodes: [node('x', LONDON, { health: 'UNHEALTHY' })] }).resolve('abc', {
      peer: '203.0.113.1',
    });
    assert.equal(none.primary, null);
    assert.deepEqual(none.fallbacks, []);
  });

  it('errors clearly without a viewer IP, for bad or unknown ids, and as the gate would', async () => {
    await assert.rejects(
      service().resolve('abc', { peer: '127.0.0.1' }),
      (error) => error instanceof ValidationError && error.field === 'viewerIp',
    );
    await assert.rejects(
      service().resolve('../x', { peer: '203.0.113.1' }),
      (error) => error instanceof ValidationError && error.field === 'contentId',
    );
    await assert.rejects(service().resolve('nope', { peer: '203.0.113.1' }), NotFoundError);
    await assert.rejects(service({ access: 401 }).resolve('abc', { peer: '203.0.113.1' }), UnauthorizedError);
    await assert.rejects(service({ access: 403 }).resolve('abc', { peer: '203.0.113.1' }), ForbiddenError);
    const gated = await service({ access: 'allow' }).resolve('abc', { peer: '203.0.113.1' }, 'a.b.c');
    assert.equal(gated.primary?.outputs.HLS?.url, 'http://nyc.example:8080/play/abc/hls/index.m3u8?jwt=a.b.c');
  });
});
