/**
 * Real players in Debian's Chromium on the real server's public outputs of a live ffmpeg
 * publish: hls.js on classic HLS, hls.js in low-latency mode on LL-HLS, dash.js on the MPD. Each
 * must play at least 3 s at the published size without a fatal player error, and keep playing
 * when the publisher drops and comes back inside the reconnect window.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { chromiumMissing, launchChromium, type PlayerPages, playFor, startPlayerPages } from './support/browser.js';
import { ffmpegMissing, publishPattern } from './support/ffmpeg.js';
import { type MediaServer, startMediaServer } from './support/media-server.js';
import { sleep, type Tracked, waitFor } from './support/processes.js';

const WIDTH = 640;
const HEIGHT = 360;

describe('hls.js and dash.js in Chromium play the live stream', { skip: chromiumMissing || ffmpegMissing }, () => {
  let media: MediaServer;
  let ffmpeg: Tracked;
  let browser: Browser;
  let pages: PlayerPages;

  before(async () => {
    media = await startMediaServer();
    ffmpeg = publishPattern(media.rtmpUrl, { width: WIDTH, height: HEIGHT, fps: 30, gop: 30 });
    await waitFor(
      'HLS and LL-HLS segments',
      async () => {
        const hls = await fetch(media.playUrl('/hls/stream.m3u8'));
        const cmaf = await fetch(media.playUrl('/cmaf/video.m3u8'));
        return (
          hls.status === 200 &&
          cmaf.status === 200 &&
          ((await hls.text()).match(/#EXTINF/g) ?? []).length >= 2 &&
          (await cmaf.text()).includes('#EXTINF')
        );
      },
      30_000,
      250,
    ).catch((error: Error) => {
      throw new Error(`${error.message}; ffmpeg said: ${ffmpeg.stderr()}`);
    });
    browser = await launchChromium();
    pages = await startPlayerPages();
  });

  after(async () => {
    await browser?.close();
    await pages?.close();
    await ffmpeg?.stop();
    await media?.close();
  });

  const cases = [
    { name: 'hls.js plays classic HLS', player: 'hls', path: '/hls/index.m3u8', lowLatency: false },
    { name: 'hls.js in low-latency mode plays LL-HLS', player: 'hls', path: '/cmaf/index.m3u8', lowLatency: true },
    { name: 'dash.js plays the DASH MPD', player: 'dash', path: '/cmaf/index.mpd', lowLatency: false },
  ] as const;

  for (const { name, player, path, lowLatency } of cases) {
    it(name, async () => {
      const report = await playFor(browser, pages.url(player, media.playUrl(path), { lowLatency }), 3);
      assert.deepEqual(report.errors, [], `${player} reported fatal errors`);
      assert.ok(report.played >= 3, `${player} played only ${report.played} s of ${path} (at ${report.currentTime})`);
      assert.equal(`${report.videoWidth}x${report.videoHeight}`, `${WIDTH}x${HEIGHT}`);
    });
  }

  it('all three keep playing across a publisher reconnect (discontinuity, new Period)', async (t) => {
    const startedAt = ((await (await fetch(media.playUrl())).json()) as { startedAt?: string }).startedAt;
    const seconds = 12;
    const playing = cases.map(({ player, path, lowLatency }) =>
      playFor(browser, pages.url(player, media.playUrl(path), { lowLatency }), seconds, 30_000).then((report) => ({
        player,
        path,
        report,
      })),
    );
    await sleep(4000);
    await ffmpeg.stop();
    ffmpeg = publishPattern(media.rtmpUrl, { width: WIDTH, height: HEIGHT, fps: 30, gop: 30 });
    await waitFor('the publisher back', async () => {
      const info = (await (await fetch(media.playUrl())).json()) as { status?: string };
      return info.status === 'live';
    });
    const info = (await (await fetch(media.playUrl())).json()) as { startedAt?: string };
    assert.equal(info.startedAt, startedAt, 'the publisher resumed the same live session');
    for (const { player, path, report } of await Promise.all(playing)) {
      await t.test(`${player} on ${path}`, () => {
        assert.deepEqual(report.errors, [], `${player} reported fatal errors`);
        assert.ok(report.played >= seconds, `${player} played only ${report.played} s of ${path} across the reconnect`);
      });
    }
  });
});
