/**
 * hls.js and dash.js in Debian's Chromium on recordings: while a `record: true` stream is live,
 * each seeks back inside the live DVR window (`/play/<id>/dvr/index.m3u8`, `/dvr/index.mpd`) and
 * playback goes on from there; once the stream ended, each plays the recording's chapter from the
 * chapter's own playback ID and seeks inside it. "Goes on" means the video's currentTime
 * advances past the seek target.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '@airwave/server/testing/test-server';
import type { Browser } from 'playwright-core';
import { registerAccount } from './support/accounts.js';
import { chromiumMissing, launchChromium, type PlayerPages, startPlayerPages } from './support/browser.js';
import { seekAndPlay } from './support/browser-seek.js';
import { ffmpegMissing, publishPattern } from './support/ffmpeg.js';
import { segmentDurations } from './support/http.js';
import type { Tracked } from './support/processes.js';
import { waitFor } from './support/processes.js';

const PATTERN = { width: 320, height: 180, fps: 15, gop: 30 } as const;
/** Seconds published: long enough for both live players and a window to seek back in. */
const PUBLISHED_SECONDS = 70;

describe('players seek in the live DVR window and play chapters', { skip: chromiumMissing || ffmpegMissing }, () => {
  let server: TestServer;
  let token: string;
  let browser: Browser;
  let pages: PlayerPages;
  let ffmpeg: Tracked | undefined;
  let stream: { id: string; streamKey: string; playbackId: string };

  before(async () => {
    server = await startTestServer(undefined, {
      AIRWAVE_RECONNECT_WINDOW_SECONDS: '1',
      AIRWAVE_DVR_WINDOW_SECONDS: '120',
    });
    token = (await registerAccount(server, 'dvr-browser')).token;
    const created = await server.graphql<{ createStream: typeof stream }>(
      'mutation { createStream(input: { name: "seekable", record: true }) { ... on Stream { id streamKey playbackId } } }',
      {},
      token,
    );
    stream = created.data?.createStream as typeof stream;
    assert.ok(stream?.streamKey, JSON.stringify(created));
    ffmpeg = publishPattern(`rtmp://127.0.0.1:${server.running.ports.rtmp}/live/${stream.streamKey}`, {
      ...PATTERN,
      seconds: PUBLISHED_SECONDS,
    });
    await waitFor(
      '16 s in the live DVR window',
      async () => {
        const response = await fetch(`${server.baseUrl}/play/${stream.playbackId}/dvr/video.m3u8`);
        const text = response.status === 200 ? await response.text() : '';
        return segmentDurations(text).reduce((sum, seconds) => sum + seconds, 0) >= 16;
      },
      60_000,
      500,
    );
    browser = await launchChromium();
    pages = await startPlayerPages();
  });

  after(async () => {
    await browser?.close();
    await pages?.close();
    await ffmpeg?.stop();
    await server?.close();
  });

  const live = [
    { player: 'hls', path: 'dvr/index.m3u8' },
    { player: 'dash', path: 'dvr/index.mpd' },
  ] as const;

  for (const { player, path } of live) {
    it(`${player === 'hls' ? 'hls.js' : 'dash.js'} seeks back inside the live DVR window and plays on`, async () => {
      const url = `${server.baseUrl}/play/${stream.playbackId}/${path}`;
      const report = await seekAndPlay(browser, pages.url(player, url), ({ currentTime, seekable }) =>
        Math.max(seekable[0] + 1, currentTime - 10),
      );
      assert.deepEqual(report.errors, [], `${player} reported fatal errors`);
      assert.ok(report.seekable[1] - report.seekable[0] >= 12, `seekable ${report.seekable.join('–')}`);
      assert.ok(report.target <= report.before - 5, `went back from ${report.before} to ${report.target}`);
      assert.ok(report.after >= report.target + 2, `played on after the seek: ${JSON.stringify(report)}`);
      assert.ok(report.after < report.before, 'still behind where it was before the seek');
    });
  }

  it('hls.js and dash.js play the chapter from its own playback ID and seek inside it', async (t) => {
    assert.equal(await ffmpeg?.exited, 0, ffmpeg?.stderr());
    const chapter = await waitFor(
      'the chapter of the finished recording',
      async () => {
        const response = await server.graphql<{
          storageArtifactsConnection: { nodes: { playbackId: string; status: string; durationSeconds: number }[] };
        }>(
          'query ($id: ID) { storageArtifactsConnection(input: { kinds: [CHAPTER], streamId: $id }) { nodes { playbackId status durationSeconds } } }',
          { id: stream.id },
          token,
        );
        return response.data?.storageArtifactsConnection.nodes.find((node) => node.status === 'ready');
      },
      60_000,
      500,
    );
    assert.ok(chapter.durationSeconds >= PUBLISHED_SECONDS - 4, `chapter of ${chapter.durationSeconds} s`);
    const vod = [
      { player: 'hls', path: 'cmaf/index.m3u8' },
      { player: 'dash', path: 'cmaf/index.mpd' },
    ] as const;
    for (const { player, path } of vod) {
      await t.test(`${player} on the chapter's ${path}`, async () => {
        const url = `${server.baseUrl}/play/${chapter.playbackId}/${path}`;
        const report = await seekAndPlay(browser, pages.url(player, url), () => chapter.durationSeconds / 2);
        assert.deepEqual(report.errors, [], `${player} reported fatal errors`);
        assert.ok(report.seekable[1] >= chapter.durationSeconds - 4, `seekable ${report.seekable.join('–')}`);
        assert.ok(report.after >= report.target + 2, `played on after the seek: ${JSON.stringify(report)}`);
      });
    }
  });
});
