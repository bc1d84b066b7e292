/**
 * deploy/varnish-playback-cache.vcl in front of Airwave: hls.js in Chromium plays LL-HLS through
 * it; concurrent identical blocking reloads reach Airwave once (one backend fetch, the others
 * woken from Varnish's waiting list with its object), later viewers are HITs, and a request with
 * another Authorization header is never answered from an entry cached without it (ADR 0070).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '@airwave/server/testing/test-server';
import type { Browser } from 'playwright-core';
import { startVarnishCache, type VarnishCache, varnishMissing } from '../bench/lib/varnish-cache.js';
import { createStream, registerAccount } from './support/accounts.js';
import { chromiumMissing, launchChromium, playFor, startPlayerPages } from './support/browser.js';
import { ffmpegMissing, publishPattern } from './support/ffmpeg.js';
import { type Tracked, waitFor } from './support/processes.js';

/**
 * How Varnish answered `responses`: the X-Cache-Status of each (sorted) and the objects the hits
 * came from (the second number of X-Varnish: the backend fetch that stored the object).
 */
function answers(responses: readonly Response[]): { statuses: (string | null)[]; hitObjects: Set<string | undefined> } {
  const hits = responses.filter((response) => response.headers.get('x-cache-status') === 'HIT');
  return {
    statuses: responses.map((response) => response.headers.get('x-cache-status')).sort(),
    hitObjects: new Set(hits.map((response) => response.headers.get('x-varnish')?.split(' ')[1])),
  };
}

/** One MISS (the request that went to Airwave) and HITs for the rest, all from that one fetch. */
const ONE_FETCH = { statuses: [...Array(19).fill('HIT'), 'MISS'], hitObjects: 1 };

describe('the shipped Varnish playback cache', { skip: varnishMissing || ffmpegMissing || chromiumMissing }, () => {
  let server: TestServer;
  let varnish: VarnishCache;
  let publisher: Tracked;
  let browser: Browser;
  let playbackId = '';

  before(async () => {
    server = await startTestServer();
    const owner = (await registerAccount(server, 'varnish')).token;
    const stream = await createStream(server, owner, 'cached');
    playbackId = stream.playbackId;
    publisher = publishPattern(`rtmp://127.0.0.1:${server.running.ports.rtmp}/live/${stream.streamKey}`, {
      seconds: 90,
      bframes: false,
    });
    varnish = await startVarnishCache(server.running.ports.http);
    await waitFor('the stream live', () => server.running.hub.getByPlaybackId(playbackId)?.description, 30_000);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await publisher?.stop();
    await varnish?.stop();
    await server?.close();
  });

  it('plays LL-HLS with hls.js through Varnish', async () => {
    const pages = await startPlayerPages();
    try {
      const url = `${varnish.baseUrl}/play/${playbackId}/cmaf/index.m3u8`;
      const report = await playFor(browser, pages.url('hls', url, { lowLatency: true }), 4);
      assert.deepEqual(report.errors, []);
      assert.ok(report.played >= 4, `played ${report.played} s`);
    } finally {
      await pages.close();
    }
  });

  it('sends concurrent blocking reloads and part requests to Airwave once and answers later viewers from its cache', async () => {
    const base = `${varnish.baseUrl}/play/${playbackId}/cmaf/`;
    const plain = await fetch(`${base}video.m3u8`);
    const playlist = await plain.text();
    assert.equal(plain.headers.get('x-cache-status'), 'PASS', 'plain playlists pass through');
    const sequence = Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(playlist)?.[1]);
    const segments = playlist.split('\n').filter((line) => line.startsWith('#EXTINF')).length;
    const blocking = `${base}video.m3u8?_HLS_part=0&_HLS_msn=${sequence + segments + 1}`;
    const waiting = await Promise.all(Array.from({ length: 20 }, () => fetch(blocking)));
    assert.deepEqual(
      waiting.map((response) => response.status),
      Array(20).fill(200),
    );
    const reloads = answers(waiting);
    assert.deepEqual(
      { statuses: reloads.statuses, hitObjects: reloads.hitObjects.size },
      ONE_FETCH,
      'one request to Airwave answered all 20',
    );
    const bodies = new Set(await Promise.all(waiting.map((response) => response.text())));
    assert.equal(bodies.size, 1, 'every viewer got the same playlist version');
    const reordered = blocking.replace(/\?(.*)&(.*)$/, '?$2&$1');
    const later = await Promise.all(Array.from({ length: 20 }, (_, i) => fetch(i % 2 === 0 ? blocking : reordered)));
    assert.deepEqual(
      later.map((response) => response.headers.get('x-cache-status')),
      Array(20).fill('HIT'),
      'the blocking-reload URL (query in any order) names one playlist version: Varnish keeps answering it',
    );
    assert.deepEqual(new Set(await Promise.all(later.map((response) => response.text()))), bodies);

    const part = [...([...bodies][0] ?? '').matchAll(/URI="([^"]*-part-[^"]*)"/g)].at(-1)?.[1];
    assert.ok(part, 'the new playlist lists a part');
    const parts = await Promise.all(Array.from({ length: 20 }, () => fetch(`${base}${part}`)));
    assert.deepEqual(
      parts.map((response) => response.status),
      Array(20).fill(200),
    );
    const partAnswers = answers(parts);
    assert.deepEqual(
      { statuses: partAnswers.statuses, hitObjects: partAnswers.hitObjects.size },
      ONE_FETCH,
      'one request to Airwave for the part',
    );
    const sizes = new Set(await Promise.all(parts.map(async (response) => (await response.arrayBuffer()).byteLength)));
    assert.equal(sizes.size, 1);
    const again = await fetch(`${base}${part}`);
    assert.equal(again.headers.get('x-cache-status'), 'HIT');
    await again.arrayBuffer();

    const withToken = await fetch(`${base}${part}`, { headers: { authorization: 'Bearer another-viewer' } });
    assert.equal(withToken.status, 200);
    assert.equal(
      withToken.headers.get('x-cache-status'),
      'MISS',
      'a request with a token is not answered from what was cached without it',
    );
    await withToken.arrayBuffer();
  });
});
