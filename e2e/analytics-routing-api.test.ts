/**
 * The analytics query and resolveViewerEndpoint through GraphQL on one in-process server:
 * required and bounded time ranges (VALIDATION_ERROR naming the field), the analytics:read
 * scope, and a viewer routed to the only node, with the clear error when a trusted proxy
 * forwards no viewer address.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '@airwave/server/testing/test-server';
import { type CreatedStream, createDeveloperToken, createStream, registerAccount } from './support/accounts.js';

const DAILY = `query ($id: ID!, $range: TimeRangeInput!) { analytics { usage { streaming {
  streamAnalyticsDailyConnection(streamId: $id, timeRange: $range) { totalCount nodes { day totalViews } } } } } }`;

describe('analytics and viewer routing over GraphQL', () => {
  let server: TestServer;
  let owner = '';
  let stream: CreatedStream;

  before(async () => {
    server = await startTestServer({ name: 'pglite' }, { AIRWAVE_TRUSTED_PROXIES: '127.0.0.1' });
    owner = (await registerAccount(server, 'analytics')).token;
    stream = await createStream(server, owner, 'Measured');
  });
  after(() => server.close());

  it('requires a time range of at most a year, in order, and analytics:read', async () => {
    const code = async (variables: Record<string, unknown>, token = owner) => {
      const response = await server.graphql(DAILY, { id: stream.id, ...variables }, token);
      return [response.errors?.[0]?.extensions?.code, response.errors?.[0]?.extensions?.field];
    };
    const missing = await server.graphql(
      `query ($id: ID!) { analytics { usage { streaming { streamAnalyticsDailyConnection(streamId: $id) { totalCount } } } } }`,
      { id: stream.id },
      owner,
    );
    assert.equal(missing.errors?.[0]?.extensions?.code, 'VALIDATION_ERROR', 'timeRange missing');
    assert.match(String(missing.errors?.[0]?.message), /timeRange/);
    assert.deepEqual(await code({ range: { start: '2026-02-01T00:00:00Z', end: '2026-01-01T00:00:00Z' } }), [
      'VALIDATION_ERROR',
      'timeRange.end',
    ]);
    assert.deepEqual(await code({ range: { start: '2025-01-01T00:00:00Z', end: '2026-06-01T00:00:00Z' } }), [
      'VALIDATION_ERROR',
      'timeRange',
    ]);
    const readOnly = await createDeveloperToken(server, owner, 'streams:read');
    assert.deepEqual(
      await code({ range: { start: '2026-01-01T00:00:00Z', end: '2026-01-02T00:00:00Z' } }, readOnly.value),
      ['FORBIDDEN', undefined],
    );
    const ok = await server.graphql(
      DAILY,
      { id: stream.id, range: { start: '2026-01-01T00:00:00Z', end: '2026-12-31T23:59:59Z' } },
      owner,
    );
    assert.deepEqual(ok.data, {
      analytics: { usage: { streaming: { streamAnalyticsDailyConnection: { totalCount: 0, nodes: [] } } } },
    });
  });

  it('routes a viewer to the only node without a token, and errors clearly when a proxy forwards no address', async () => {
    const query = `{ resolveViewerEndpoint(contentId: "${stream.playbackId}") {
      primary { nodeId url geoDistance loadScore } fallbacks { nodeId } metadata { status isLive contentType title } } }`;
    const fromProxy = await server.graphql(query);
    assert.equal(fromProxy.errors?.[0]?.extensions?.code, 'VALIDATION_ERROR');
    assert.equal(fromProxy.errors?.[0]?.extensions?.field, 'viewerIp');
    const response = await fetch(`${server.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.7' },
      body: JSON.stringify({ query }),
    });
    const body = (await response.json()) as { data: { resolveViewerEndpoint: Record<string, unknown> } };
    assert.deepEqual(body.data.resolveViewerEndpoint, {
      primary: {
        nodeId: server.running.node.nodeId,
        url: `${server.baseUrl}/play/${stream.playbackId}/cmaf/index.m3u8`,
        geoDistance: null,
        loadScore: (body.data.resolveViewerEndpoint.primary as { loadScore: number }).loadScore,
      },
      fallbacks: [],
      metadata: { status: 'OFFLINE', isLive: false, contentType: 'live', title: 'Measured' },
    });
    const unknown = await fetch(`${server.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.7' },
      body: JSON.stringify({ query: '{ resolveViewerEndpoint(contentId: "nope") { fallbacks { nodeId } } }' }),
    });
    assert.equal(
      ((await unknown.json()) as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions.code,
      'NOT_FOUND',
    );
  });
});
