/**
 * deploy/nginx-playback-cache.conf in front of Airwave: hls.js in Chromium plays LL-HLS through
 * it, and viewers asking for the same blocking-reload playlist and the same part at once cost
 * Airwave one request each (proxy_cache_lock), the others answered from nginx's cache.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '@airwave/server/testing/test-server';
import type { Browser } from 'playwright-core';
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

  before(async () => {
    server = await startTestServer();
    const owner = (await registerAccount(server, 'cache')).token;
    const stream = await createStream(server, owner, 'cached');
    playbackId = stream.playbackId;
    publisher = publishPattern(`rtmp://127.0.0.1:${server.running.ports.rtmp}/live/${stream.streamKey}`, {
      seconds: 90,
      bframes: false,
    });
    nginx = await startNginxCache(server.running.ports.http);
    await waitFor('the stream live', () => server.running.hub.getByPlaybackId(playbackId)?.description, 30_000);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await publisher?.stop();
    await nginx?.stop();
    await server?.close();
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

  it('collapses simultaneous blocking reloads and part requests into one request to Airwave', async () => {
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
    const answers = await Promise.all(Array.from({ length: 20 }, () => fetch(blocking)));
    const statuses = answers.map((response) => response.headers.get('x-cache-status'));
    assert.ok(answers.every((response) => response.status === 200));
    assert.equal(statuses.filter((status) => status === 'MISS').length, 1, statuses.join(' '));
    const bodies = new Set(await Promise.all(answers.map((response) => response.text())));
    assert.equal(bodies.size, 1, 'every viewer got the same playlist version');
    const part = /URI="([^"]*-part-[^"]*)"/.exec([...bodies][0] ?? '')?.[1];
    assert.ok(part);
    const parts = await Promise.all(Array.from({ length: 20 }, () => fetch(`${base}${part}`)));
    const partStatuses = parts.map((response) => response.headers.get('x-cache-status'));
    assert.ok(partStatuses.filter((status) => status === 'MISS').length <= 1, partStatuses.join(' '));
    assert.equal(
      new Set(await Promise.all(parts.map(async (response) => (await response.arrayBuffer()).byteLength))).size,
      1,
    );
  });
});
