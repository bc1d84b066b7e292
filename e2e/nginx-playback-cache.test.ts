/**
 * deploy/nginx-playback-cache.conf in front of Airwave: hls.js in Chromium plays LL-HLS through
 * it, and once Airwave answered a blocking-reload playlist or a part, nginx answers every other
 * viewer of that URL from its cache (ADR 0044: why waiting requests are not held on the lock);
 * with AIRWAVE_PLAYBACK_CACHE_URL, a part is cached before the playlist listing it is answered
 * (ADR 0083), and a request that carries a token is never answered from the cache. nginx reaches
 * Airwave on its Unix socket (AIRWAVE_HTTP_SOCKET, `server unix:…`, ADR 0088), as on one host.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '@airwave/server/testing/test-server';
import type { Browser } from 'playwright-core';
import { freePort } from '../bench/lib/child-process.js';
import { type NginxCache, nginxMissing, startNginxCache } from '../bench/lib/nginx-cache.js';
import { createStream, registerAccount } from './support/accounts.js';
import { chromiumMissing, launchChromium, playFor, startPlayerPages } from './support/browser.js';
import { ffmpegMissing, publishPattern } from './support/ffmpeg.js';
import { type Tracked, waitFor } from './support/processes.js';

describe('the shipped nginx playback cache', { skip: nginxMissing || ffmpegMissing || chromiumMissing }, () => {
  let server: TestServer;
  let nginx: NginxCache;
  let publisher: Tracked;
  let browser: Browser;
  let playbackId = '';
  const socketDir = mkdtempSync(join(tmpdir(), 'airwave-e2e-socket-'));
  const socket = join(socketDir, 'http.sock');

  before(async () => {
    const cachePort = await freePort();
    server = await startTestServer(undefined, {
      AIRWAVE_PLAYBACK_CACHE_URL: `http://127.0.0.1:${cachePort}`,
      AIRWAVE_HTTP_SOCKET: socket,
    });
    const owner = (await registerAccount(server, 'cache')).token;
    const stream = await createStream(server, owner, 'cached');
    playbackId = stream.playbackId;
    publisher = publishPattern(`rtmp://127.0.0.1:${server.running.ports.rtmp}/live/${stream.streamKey}`, {
      seconds: 90,
      bframes: false,
    });
    nginx = await startNginxCache(server.running.ports.http, { port: cachePort, socket });
    await waitFor('the stream live', () => server.running.hub.getByPlaybackId(playbackId)?.description, 30_000);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await publisher?.stop();
    await nginx?.stop();
    await server?.close();
    rmSync(socketDir, { recursive: true, force: true });
  });

  it('plays LL-HLS with hls.js through nginx', async () => {
    const pages = await startPlayerPages();
    try {
      const url = `${nginx.baseUrl}/play/${playbackId}/cmaf/index.m3u8`;
      const report = await playFor(browser, pages.url('hls', url, { lowLatency: true }), 4);
      assert.deepEqual(report.errors, []);
      assert.ok(report.played >= 4, `played ${report.played} s`);
    } finally {
      await pages.close();
    }
  });

  it('answers blocking reloads and parts from its cache once Airwave answered them', async () => {
    const base = `${nginx.baseUrl}/play/${playbackId}/cmaf/`;
    const playlist = await (await fetch(`${base}video.m3u8`)).text();
    assert.equal(
      (await fetch(`${base}video.m3u8`)).headers.get('x-cache-status'),
      'BYPASS',
      'plain playlists pass through',
    );
    const sequence = Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(playlist)?.[1]);
    const segments = playlist.split('\n').filter((line) => line.startsWith('#EXTINF')).length;
    const nextMsn = sequence + segments + 1;
    const blocking = `${base}video.m3u8?_HLS_msn=${nextMsn}&_HLS_part=0`;
    const waiting = await Promise.all(Array.from({ length: 20 }, () => fetch(blocking)));
    assert.ok(waiting.every((response) => response.status === 200));
    const bodies = new Set(await Promise.all(waiting.map((response) => response.text())));
    assert.equal(bodies.size, 1, 'every viewer got the same playlist version');
    const later = await Promise.all(Array.from({ length: 20 }, () => fetch(blocking)));
    assert.deepEqual(
      later.map((response) => response.headers.get('x-cache-status')),
      Array(20).fill('HIT'),
      'the blocking-reload URL names one playlist version: nginx keeps answering it',
    );
    assert.deepEqual(new Set(await Promise.all(later.map((response) => response.text()))), bodies);
    const part = /URI="([^"]*-part-[^"]*)"/.exec([...bodies][0] ?? '')?.[1];
    assert.ok(part);
    const first = await fetch(`${base}${part}`);
    const bytes = (await first.arrayBuffer()).byteLength;
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('x-cache-status'), 'HIT', 'Airwave put the part in the cache before answering');
    for (const tokenRequest of [
      () => fetch(`${base}${part}`, { headers: { authorization: 'Bearer someone' } }),
      () => fetch(`${base}${part}?jwt=someone`),
      () => fetch(`${base}${part}?jwt=someone`),
    ]) {
      const answer = await tokenRequest();
      await answer.arrayBuffer();
      assert.equal(
        answer.headers.get('x-cache-status'),
        'BYPASS',
        'a request with a token goes to Airwave, never from the cache',
      );
    }
    const parts = await Promise.all(Array.from({ length: 20 }, () => fetch(`${base}${part}`)));
    assert.deepEqual(
      parts.map((response) => response.headers.get('x-cache-status')),
      Array(20).fill('HIT'),
    );
    assert.deepEqual(
      await Promise.all(parts.map(async (response) => (await response.arrayBuffer()).byteLength)),
      Array(20).fill(bytes),
    );
  });
});
