/**
 * The life of a live stream through the real server and GraphQL, with ffmpeg publishing over
 * RTMP: LIVE with measured tracks, refusals (wrong key, second publisher), viewers of three
 * protocols counted together, a reconnect inside the window (RECONNECTING then LIVE, the open
 * MP4 session goes on, discontinuities in HLS and LL-HLS, a new DASH Period, timestamps that
 * keep increasing), OFFLINE and ended playlists outside it, RTMPS with a certificate made by
 * openssl, and a restart on the same data directory while ffmpeg is live.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestServer } from '@airwave/server/testing/test-server';
import { byType, ffmpegMissing, probePackets, probeStreams, publishPattern } from './support/ffmpeg.js';
import { fetchBytes, fetchText, playlistUris, readFor } from './support/http.js';
import {
  lastHlsSequence,
  type MediaServer,
  startMediaServer,
  streamState,
  waitForSegments,
  withTempFile,
} from './support/media-server.js';
import { hasCommand, sleep, type Tracked, waitFor } from './support/processes.js';

/** A reconnect window short enough for the test and long enough for ffmpeg to come back on a busy machine. */
const ENV = { AIRWAVE_RECONNECT_WINDOW_SECONDS: '5', AIRWAVE_VIEWER_IDLE_SECONDS: '2' };

/** Waits until GraphQL reports `status` for the stream. */
async function waitForStatus(
  media: MediaServer,
  status: string,
  timeoutMs = 20_000,
  id = media.streamId,
): Promise<void> {
  await waitFor(
    `stream ${status}`,
    async () => (await streamState(media, id)).metrics.status === status,
    timeoutMs,
    100,
  );
}

/** Presentation times (seconds) of the video packets of an input, in file order. */
async function videoPts(input: string): Promise<number[]> {
  return (await probePackets(input))
    .filter((packet) => packet.codec_type === 'video')
    .map((packet) => Number(packet.pts_time));
}

/** Video pts of a CMAF segment appended to its init segment. */
async function cmafPts(init: string, segment: string): Promise<number[]> {
  const parts = [await fetchBytes(init), await fetchBytes(segment)];
  return withTempFile('segment.mp4', parts, videoPts);
}

describe('stream lifecycle through the real server', { skip: ffmpegMissing }, () => {
  let media: MediaServer;
  let ffmpeg: Tracked | undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'airwave-lifecycle-'));

  before(async () => {
    const tls: Record<string, string> = {};
    if (hasCommand('openssl')) {
      const cert = join(dataDir, 'cert.pem');
      const key = join(dataDir, 'key.pem');
      const made = spawnSync('openssl', [
        ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'],
        ...['-subj', '/CN=localhost', '-keyout', key, '-out', cert],
      ]);
      assert.equal(made.status, 0, made.stderr.toString());
      Object.assign(tls, { AIRWAVE_TLS_CERT: cert, AIRWAVE_TLS_KEY: key });
    }
    media = await startMediaServer({ ...ENV, ...tls }, { dataDir });
  });

  after(async () => {
    await ffmpeg?.stop();
    await media?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('goes LIVE with its tracks; a wrong key and a second publisher are refused', async () => {
    const idle = await streamState(media);
    assert.deepEqual(idle.metrics, { status: 'OFFLINE', isLive: false, startedAt: null, currentViewers: 0 });
    ffmpeg = publishPattern(media.rtmpUrl, { fps: 30 });
    await waitForStatus(media, 'LIVE');
    const live = await streamState(media);
    assert.equal(live.metrics.isLive, true);
    assert.ok(live.metrics.startedAt && Date.now() - Date.parse(live.metrics.startedAt) < 60_000);
    const [video, audio] = live.tracks;
    assert.deepEqual(
      { ...video, bitrateKbps: null },
      {
        trackType: 'video',
        codec: 'h264',
        width: 640,
        height: 360,
        fps: 30,
        bitrateKbps: null,
        channels: null,
        sampleRate: null,
      },
    );
    assert.deepEqual(
      { ...audio, bitrateKbps: null },
      {
        trackType: 'audio',
        codec: 'aac',
        width: null,
        height: null,
        fps: null,
        bitrateKbps: null,
        channels: 2,
        sampleRate: 48000,
      },
    );
    // ffmpeg's FLV muxer declares audiodatarate in units of 1024 bit/s: 96 kbit/s reads as 93.75.
    assert.ok(Math.abs((audio?.bitrateKbps ?? 0) - 94) <= 2, `audio bitrateKbps ${audio?.bitrateKbps}`);

    const streams = media.server.running.hub.streams().length;
    const wrongKey = publishPattern(media.rtmpUrl.replace(/[^/]+$/, 'sk_not-a-key'), { seconds: 2, realtime: false });
    assert.notEqual(await wrongKey.exited, 0, 'ffmpeg fails on a wrong key');
    const second = publishPattern(media.rtmpUrl, { seconds: 2, realtime: false });
    assert.notEqual(await second.exited, 0, 'ffmpeg fails as a second publisher');
    assert.equal(media.server.running.hub.streams().length, streams, 'nothing else went live');
    await waitForSegments(media, 2);
    const sequence = await lastHlsSequence(media);
    await waitFor('the first publisher goes on', async () => (await lastHlsSequence(media)) > sequence);
    assert.equal((await streamState(media)).metrics.status, 'LIVE');
  });

  it('counts an HLS, an LL-HLS and an MP4 viewer together and drops them when they leave', async () => {
    const mp4 = readFor(media.playUrl('.mp4?session=mp4-viewer'), 6000);
    let watching = true;
    const poll = (async () => {
      while (watching) {
        await fetchText(media.playUrl('/hls/stream.m3u8?session=hls-viewer'));
        await fetchText(media.playUrl('/cmaf/video.m3u8?session=llhls-viewer'));
        await sleep(500);
      }
    })();
    try {
      await waitFor('3 viewers', async () => (await streamState(media)).metrics.currentViewers === 3, 10_000, 100);
    } finally {
      watching = false;
      await poll;
    }
    await mp4;
    await waitFor('no viewers', async () => (await streamState(media)).metrics.currentViewers === 0, 10_000, 200);
  });

  it('a reconnect inside the window resumes the session: discontinuities, a new Period, increasing timestamps', async () => {
    assert.ok(ffmpeg);
    const startedAt = (await streamState(media)).metrics.startedAt;
    const mp4 = readFor(media.playUrl('.mp4?session=across'), 9000);
    await sleep(1500);
    await ffmpeg.stop();
    await waitForStatus(media, 'RECONNECTING', 10_000);
    const reconnecting = JSON.parse(await fetchText(media.playUrl())) as { status: string };
    assert.equal(reconnecting.status, 'reconnecting');
    ffmpeg = publishPattern(media.rtmpUrl, { fps: 30 });
    await waitForStatus(media, 'LIVE', 10_000);
    assert.equal((await streamState(media)).metrics.startedAt, startedAt, 'the same live session goes on');

    await waitFor(
      'an HLS segment after the discontinuity',
      async () => {
        const playlist = await fetchText(media.playUrl('/hls/stream.m3u8'));
        return (playlist.split('#EXT-X-DISCONTINUITY\n')[1]?.match(/#EXTINF/g) ?? []).length >= 1;
      },
      20_000,
      250,
    );
    const hlsUrl = media.playUrl('/hls/stream.m3u8');
    const [before, resumed] = (await fetchText(hlsUrl)).split('#EXT-X-DISCONTINUITY\n') as [string, string];
    const lastBefore = playlistUris(before, hlsUrl).at(-1);
    const firstAfter = playlistUris(resumed, hlsUrl)[0];
    assert.ok(lastBefore && firstAfter);
    const ptsBefore = await videoPts(lastBefore);
    const ptsAfter = await videoPts(firstAfter);
    assert.ok(
      Math.min(...ptsAfter) > Math.max(...ptsBefore),
      `TS timestamps continue: ${Math.max(...ptsBefore)} then ${Math.min(...ptsAfter)}`,
    );

    const cmafUrl = media.playUrl('/cmaf/video.m3u8');
    const cmaf = await fetchText(cmafUrl);
    assert.match(cmaf, /#EXT-X-DISCONTINUITY\n/, cmaf);
    const [cmafBefore, cmafAfter] = cmaf.split('#EXT-X-DISCONTINUITY\n') as [string, string];
    const initBefore = [...cmafBefore.matchAll(/#EXT-X-MAP:URI="([^"]+)"/g)].at(-1)?.[1];
    const initAfter = /#EXT-X-MAP:URI="([^"]+)"/.exec(cmafAfter)?.[1] ?? initBefore;
    const segmentBefore = playlistUris(cmafBefore, cmafUrl).at(-1);
    const segmentAfter = playlistUris(cmafAfter, cmafUrl)[0];
    assert.ok(initBefore && initAfter && segmentBefore && segmentAfter, cmaf);
    const cmafPtsBefore = await cmafPts(new URL(initBefore, cmafUrl).toString(), segmentBefore);
    const cmafPtsAfter = await cmafPts(new URL(initAfter, cmafUrl).toString(), segmentAfter);
    assert.ok(
      Math.min(...cmafPtsAfter) > Math.max(...cmafPtsBefore),
      `CMAF timestamps continue: ${Math.max(...cmafPtsBefore)} then ${Math.min(...cmafPtsAfter)}`,
    );

    const mpd = await fetchText(media.playUrl('/cmaf/index.mpd'));
    assert.equal((mpd.match(/<Period /g) ?? []).length, 2, `a new Period after the reconnect:\n${mpd}`);

    const across = await mp4;
    await withTempFile('across.mp4', [across], async (path) => {
      const pts = await videoPts(path);
      const streamsOf = await probeStreams(path);
      assert.equal(byType(streamsOf, 'video').codec_name, 'h264');
      const sorted = [...pts].sort((a, b) => a - b);
      const gaps = sorted.slice(1).filter((value, index) => value - (sorted[index] ?? 0) > 0.5);
      assert.ok(pts.length > 90, `the MP4 session went on across the reconnect (${pts.length} frames)`);
      assert.ok(gaps.length <= 1, `one gap at most (the reconnect) in the MP4 timeline: ${gaps}`);
      assert.equal(new Set(pts).size, pts.length, 'no presentation time repeats in the MP4');
    });
  });

  it('outside the window the stream goes OFFLINE and every playlist ends', async () => {
    assert.ok(ffmpeg);
    await ffmpeg.stop();
    ffmpeg = undefined;
    await waitForStatus(media, 'RECONNECTING', 5000);
    await waitForStatus(media, 'OFFLINE', 15_000);
    const state = await streamState(media);
    assert.equal(state.metrics.isLive, false);
    assert.match(await fetchText(media.playUrl('/hls/stream.m3u8')), /#EXT-X-ENDLIST\n$/);
    assert.match(await fetchText(media.playUrl('/cmaf/video.m3u8')), /#EXT-X-ENDLIST\n/);
    assert.match(await fetchText(media.playUrl('/cmaf/index.mpd')), /type="static"/);
    const info = JSON.parse(await fetchText(media.playUrl())) as { status: string };
    assert.equal(info.status, 'offline');
    const mp4 = await fetch(media.playUrl('.mp4'));
    assert.equal(mp4.status, 404);
  });

  it('takes ffmpeg over RTMPS with a certificate made by openssl, and plays', {
    skip: hasCommand('openssl') ? false : 'openssl not installed',
  }, async () => {
    const tls = await media.addStream('rtmps');
    assert.ok(tls.rtmpsUrl, 'the server listens for RTMPS');
    const publisher = publishPattern(tls.rtmpsUrl, { fps: 30 });
    try {
      await waitForStatus(media, 'LIVE', 20_000, tls.streamId);
      await waitForSegments(tls, 1);
      const hlsUrl = tls.playUrl('/hls/stream.m3u8');
      const segment = playlistUris(await fetchText(hlsUrl), hlsUrl)[0];
      assert.ok(segment);
      const video = byType(await probeStreams(segment), 'video');
      assert.equal(`${video.codec_name} ${video.width}x${video.height}`, 'h264 640x360');
    } finally {
      await publisher.stop();
    }
  });

  it('a server restart while ffmpeg is live never leaves the stream LIVE', async () => {
    const publisher = publishPattern(media.rtmpUrl, { fps: 30 });
    try {
      await waitForStatus(media, 'LIVE');
      await media.close();
      assert.notEqual(await publisher.exited, 0, 'ffmpeg loses its server');
    } finally {
      await publisher.stop();
    }
    const server = await startTestServer({ name: 'pglite' }, ENV, { dataDir });
    media = { ...media, server, close: () => server.close() };
    const state = await streamState(media);
    assert.equal(state.metrics.status, 'OFFLINE');
    assert.equal(state.metrics.isLive, false);
  });
});
