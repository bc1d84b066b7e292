/**
 * Enhanced RTMP v2 ingest through the real server for the FourCCs the other e2e tests do not
 * send: H.264 as `avc1` (ExVideoTagHeader, not legacy CodecID 7) with AAC as `mp4a`
 * (ExAudioTagHeader), and VP9 as `vp09`. ffmpeg encodes testsrc2, our publisher wraps the encoder
 * output as E-RTMP tags, and every output that can carry the codecs decodes with ffprobe.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { publishFlv } from './support/airwave-cli.js';
import { byType, ffmpegMissing, type ProbedStream, probeStreams } from './support/ffmpeg.js';
import { fetchText, readFor } from './support/http.js';
import { type MediaServer, type MediaStream, startMediaServer, withTempFile } from './support/media-server.js';
import { waitFor } from './support/processes.js';

interface PlayJson {
  status: string;
  tracks: { kind: string; codec: string; width?: number; height?: number; channels?: number; sampleRate?: number }[];
  urls: Record<string, string | undefined>;
}

const SECONDS = 4;
const FPS = 30;
const TESTSRC = ['-f', 'lavfi', '-i', `testsrc2=size=640x360:rate=${FPS}`];

/** Runs ffmpeg to completion; fails the test with its stderr when it does not succeed. */
function encode(args: readonly string[]): void {
  const result = spawnSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', ...args]);
  assert.equal(result.status, 0, result.stderr?.toString());
}

/** The tracks `/play/<id>` lists, one line each. */
async function playTracks(stream: MediaStream): Promise<{ info: PlayJson; lines: string[] }> {
  const info = JSON.parse(await fetchText(stream.playUrl())) as PlayJson;
  const lines = info.tracks.map((track) =>
    track.kind === 'video'
      ? `video ${track.codec} ${track.width}x${track.height}`
      : `audio ${track.codec} ${track.sampleRate} ${track.channels}`,
  );
  return { info, lines };
}

/** Waits until the LL-HLS video playlist of `stream` carries EXT-X-ENDLIST. */
async function waitForCmafEnd(stream: MediaStream): Promise<void> {
  await waitFor(
    'EXT-X-ENDLIST on the LL-HLS playlist',
    async () => (await fetchText(stream.playUrl('/cmaf/video.m3u8'))).includes('#EXT-X-ENDLIST'),
    20_000,
    250,
  );
}

/** Reads two seconds of the live progressive MP4 and returns what ffprobe decodes from it. */
async function probeLiveMp4(stream: MediaStream): Promise<ProbedStream[]> {
  const bytes = await readFor(stream.playUrl('.mp4'), 2000);
  return withTempFile('live.mp4', [bytes], (path) => probeStreams(path));
}

describe('Enhanced RTMP v2 avc1 + mp4a and vp09 ingest through the real server', { skip: ffmpegMissing }, () => {
  let media: MediaServer;
  let dir: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'airwave-ertmp-'));
    media = await startMediaServer({ AIRWAVE_RECONNECT_WINDOW_SECONDS: '1' });
  });

  after(async () => {
    await media?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('avc1 + mp4a: /play lists h264 + aac; HLS TS, LL-HLS, DASH and MP4 decode them with every frame', async () => {
    const h264 = join(dir, 'in.h264');
    const aac = join(dir, 'in.aac');
    encode([
      ...TESTSRC,
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'],
      ...[
        '-t',
        String(SECONDS),
        '-map',
        '0:v',
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-bf',
        '0',
        '-g',
        String(FPS),
      ],
      ...['-f', 'h264', h264],
      ...['-t', String(SECONDS), '-map', '1:a', '-c:a', 'aac', '-ac', '2', '-f', 'adts', aac],
    ]);
    const stream = await media.addStream('avc1');
    const publisher = publishFlv([
      ...['--url', stream.rtmpUrl, '--h264-annexb', h264, '--fps', String(FPS), '--aac-adts', aac, '--realtime'],
    ]);
    try {
      await waitFor('a live avc1 stream', async () => (await fetch(stream.playUrl('.mp4'), { method: 'HEAD' })).ok);
      const { info, lines } = await playTracks(stream);
      assert.equal(info.status, 'live');
      assert.deepEqual(lines, ['video h264 640x360', 'audio aac 48000 2']);
      assert.ok(info.urls.hls && info.urls.llhls && info.urls.dash && info.urls.mp4);
      const mp4 = await probeLiveMp4(stream);
      const mp4Video = byType(mp4, 'video');
      assert.equal(`${mp4Video.codec_name} ${mp4Video.width}x${mp4Video.height}`, 'h264 640x360', 'progressive MP4');
      assert.ok(Number(mp4Video.nb_read_frames) >= FPS, `the live MP4 decodes ${mp4Video.nb_read_frames} frames`);
      assert.equal(`${byType(mp4, 'audio').codec_name}`, 'aac', 'progressive MP4');
      assert.equal(await publisher.exited, 0, publisher.stderr());
    } finally {
      await publisher.stop();
    }
    await waitForCmafEnd(stream);
    for (const path of ['/hls/index.m3u8', '/cmaf/index.m3u8', '/cmaf/index.mpd']) {
      const video = byType(await probeStreams(stream.playUrl(path), ['-select_streams', 'v:0']), 'video');
      assert.equal(`${video.codec_name} ${video.width}x${video.height}`, 'h264 640x360', path);
      assert.equal(Number(video.nb_read_frames), SECONDS * FPS, `${path} decodes every frame`);
      const audio = byType(await probeStreams(stream.playUrl(path), ['-select_streams', 'a:0']), 'audio');
      assert.equal(`${audio.codec_name} ${audio.sample_rate} ${audio.channels}`, 'aac 48000 2', path);
      assert.ok(Number(audio.nb_read_frames) > 0, `${path} decodes audio`);
    }
  });

  it('vp09: /play lists vp9; LL-HLS, DASH and MP4 decode it with every frame; classic HLS is unavailable', async () => {
    const ivf = join(dir, 'in.ivf');
    encode([
      ...TESTSRC,
      ...['-t', String(SECONDS), '-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-g', String(FPS)],
      ...['-f', 'ivf', ivf],
    ]);
    const stream = await media.addStream('vp09');
    const publisher = publishFlv(['--url', stream.rtmpUrl, '--vp9-ivf', ivf, '--realtime']);
    try {
      await waitFor('a live vp09 stream', async () => (await fetch(stream.playUrl('.mp4'), { method: 'HEAD' })).ok);
      const { info, lines } = await playTracks(stream);
      assert.equal(info.status, 'live');
      assert.deepEqual(lines, ['video vp9 640x360']);
      assert.equal(info.urls.hls, undefined, 'no classic HLS URL for VP9');
      assert.ok(info.urls.llhls && info.urls.dash && info.urls.mp4);
      const hls = await fetch(stream.playUrl('/hls/index.m3u8'));
      assert.equal(hls.status, 404);
      assert.equal(((await hls.json()) as { error: { reason: string } }).error.reason, 'hls_unavailable');
      const mp4 = byType(await probeLiveMp4(stream), 'video');
      assert.equal(`${mp4.codec_name} ${mp4.width}x${mp4.height}`, 'vp9 640x360', 'progressive MP4');
      assert.ok(Number(mp4.nb_read_frames) >= FPS, `the live MP4 decodes ${mp4.nb_read_frames} frames`);
      assert.equal(await publisher.exited, 0, publisher.stderr());
    } finally {
      await publisher.stop();
    }
    await waitForCmafEnd(stream);
    for (const path of ['/cmaf/index.m3u8', '/cmaf/index.mpd']) {
      const video = byType(await probeStreams(stream.playUrl(path)), 'video');
      assert.equal(`${video.codec_name} ${video.width}x${video.height}`, 'vp9 640x360', path);
      assert.equal(Number(video.nb_read_frames), SECONDS * FPS, `${path} decodes every frame`);
    }
  });
});
