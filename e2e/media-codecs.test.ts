/**
 * Codecs beyond H.264 through the real server: HEVC (libx265, no B-frames) published over
 * E-RTMP by our publisher decodes as hevc from classic HLS, LL-HLS, DASH and progressive MP4;
 * AV1 (libaom) + Opus (libopus) made by ffmpeg and published by our E-RTMP publisher are listed
 * by `/play/<id>` and decode as av1/opus with every frame from the fMP4 outputs, while classic HLS
 * says it cannot carry AV1; the third-party AV1 + Opus E-FLV samples cross-check the same path.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eflvFixturesMissing, EFLV_FIXTURES as FIXTURES } from '@airwave/media/testing/eflv-fixtures';
import { publishFlv } from './support/airwave-cli.js';
import { makeAv1Sample } from './support/av1-sample.js';
import { byType, ffmpegMissing, type ProbedStream, probeStreams } from './support/ffmpeg.js';
import { fetchText, readFor } from './support/http.js';
import { type MediaServer, type MediaStream, startMediaServer, withTempFile } from './support/media-server.js';
import { waitFor } from './support/processes.js';

interface PlayJson {
  status: string;
  tracks: { kind: string; codec: string; width?: number; height?: number; channels?: number; sampleRate?: number }[];
  urls: Record<string, string | undefined>;
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

/**
 * Video and audio of an ended presentation, each decoded on its own: ffmpeg's DASH demuxer stops
 * every stream when the first representation ends (mptestsrc's audio ends 1.4 s before its video).
 */
async function probeTracks(url: string): Promise<{ video: ProbedStream; audio: ProbedStream }> {
  return {
    video: byType(await probeStreams(url, ['-select_streams', 'v:0']), 'video'),
    audio: byType(await probeStreams(url, ['-select_streams', 'a:0']), 'audio'),
  };
}

/** Reads two seconds of the live progressive MP4 and returns what ffprobe decodes from it. */
async function probeLiveMp4(stream: MediaStream) {
  const bytes = await readFor(stream.playUrl('.mp4'), 2000);
  return withTempFile('live.mp4', [bytes], (path) => probeStreams(path));
}

describe('codecs beyond H.264 through the real server', { skip: ffmpegMissing }, () => {
  let media: MediaServer;

  before(async () => {
    media = await startMediaServer({ AIRWAVE_RECONNECT_WINDOW_SECONDS: '1' });
  });

  after(async () => {
    await media?.close();
  });

  it('HEVC (E-RTMP hvc1) decodes as hevc from classic HLS, LL-HLS, DASH and progressive MP4', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'airwave-hevc-'));
    try {
      const file = join(dir, 'in.hevc');
      const seconds = 6;
      const encode = spawnSync('ffmpeg', [
        ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=30'],
        ...['-t', String(seconds), '-c:v', 'libx265', '-preset', 'ultrafast', '-bf', '0'],
        ...['-x265-params', 'keyint=30:log-level=error', '-f', 'hevc', file],
      ]);
      assert.equal(encode.status, 0, encode.stderr?.toString());
      const publisher = publishFlv(['--url', media.rtmpUrl, '--hevc-annexb', file, '--fps', '30', '--realtime']);
      try {
        await waitFor('a live HEVC stream', async () => (await fetch(media.playUrl('.mp4'), { method: 'HEAD' })).ok);
        const info = JSON.parse(await fetchText(media.playUrl())) as PlayJson;
        assert.deepEqual(
          info.tracks.map((track) => `${track.kind} ${track.codec} ${track.width}x${track.height}`),
          ['video h265 640x360'],
        );
        for (const path of ['/hls/index.m3u8', '/cmaf/index.m3u8']) {
          assert.match(await fetchText(media.playUrl(path)), /CODECS="hvc1\.1\.[^"]+",RESOLUTION=640x360/, path);
        }
        assert.match(await fetchText(media.playUrl('/cmaf/index.mpd')), /codecs="hvc1\.1\.[^"]+"[^>]* width="640"/);
        const mp4 = byType(await probeLiveMp4(media), 'video');
        assert.equal(`${mp4.codec_name} ${mp4.width}x${mp4.height}`, 'hevc 640x360', 'progressive MP4');
        assert.ok(Number(mp4.nb_read_frames) >= 30, `the live MP4 decodes ${mp4.nb_read_frames} frames`);
        assert.equal(await publisher.exited, 0, publisher.stderr());
      } finally {
        await publisher.stop();
      }
      await waitForCmafEnd(media);
      for (const path of ['/hls/index.m3u8', '/cmaf/index.m3u8', '/cmaf/index.mpd']) {
        const video = byType(await probeStreams(media.playUrl(path)), 'video');
        assert.equal(`${video.codec_name} ${video.width}x${video.height}`, 'hevc 640x360', path);
        assert.equal(Number(video.nb_read_frames), seconds * 30, `${path} decodes every frame`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('AV1 + Opus made by ffmpeg: /play lists the tracks, fMP4 outputs decode every frame, classic HLS is unavailable', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'airwave-av1-'));
    try {
      const sample = makeAv1Sample(dir, 4);
      const stream = await media.addStream('av1-ffmpeg');
      const publisher = publishFlv([
        ...['--url', stream.rtmpUrl, '--av1-ivf', sample.ivf, '--opus-ogg', sample.ogg, '--realtime'],
      ]);
      try {
        await waitFor('a live AV1 stream', async () => (await fetch(stream.playUrl('.mp4'), { method: 'HEAD' })).ok);
        const info = JSON.parse(await fetchText(stream.playUrl())) as PlayJson;
        assert.deepEqual(
          info.tracks.map((track) =>
            track.kind === 'video'
              ? `video ${track.codec} ${track.width}x${track.height}`
              : `audio ${track.codec} ${track.sampleRate} ${track.channels}`,
          ),
          ['video av1 320x180', 'audio opus 48000 1'],
        );
        assert.equal(info.urls.hls, undefined, 'no classic HLS URL for AV1');
        const hls = await fetch(stream.playUrl('/hls/index.m3u8'));
        assert.equal(hls.status, 404);
        assert.equal(((await hls.json()) as { error: { reason: string } }).error.reason, 'hls_unavailable');
        const mp4 = await probeLiveMp4(stream);
        assert.equal(byType(mp4, 'video').codec_name, 'av1', 'progressive MP4');
        assert.equal(byType(mp4, 'audio').codec_name, 'opus', 'progressive MP4');
        assert.equal(await publisher.exited, 0, publisher.stderr());
      } finally {
        await publisher.stop();
      }
      await waitForCmafEnd(stream);
      for (const path of ['/cmaf/index.m3u8', '/cmaf/index.mpd']) {
        const { video, audio } = await probeTracks(stream.playUrl(path));
        assert.equal(`${video.codec_name} ${video.width}x${video.height}`, 'av1 320x180', path);
        assert.equal(Number(video.nb_read_frames), sample.frames, `${path} decodes every frame`);
        assert.equal(`${audio.codec_name} ${audio.sample_rate} ${audio.channels}`, 'opus 48000 1', path);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('AV1 + Opus E-FLV: /play lists the tracks, fMP4 outputs decode as av1/opus, classic HLS is unavailable', {
    skip: eflvFixturesMissing,
  }, async () => {
    const stream = await media.addStream('av1');
    const publisher = publishFlv(['--url', stream.rtmpUrl, '--file', join(FIXTURES, 'testsrc.flv'), '--realtime']);
    try {
      await waitFor('a live AV1 stream', async () => (await fetch(stream.playUrl('.mp4'), { method: 'HEAD' })).ok);
      const info = JSON.parse(await fetchText(stream.playUrl())) as PlayJson;
      assert.equal(info.status, 'live');
      assert.deepEqual(
        info.tracks.map((track) =>
          track.kind === 'video'
            ? `video ${track.codec} ${track.width}x${track.height}`
            : `audio ${track.codec} ${track.sampleRate} ${track.channels}`,
        ),
        ['video av1 980x540', 'audio opus 48000 1'],
      );
      assert.equal(info.urls.hls, undefined, 'no classic HLS URL for AV1');
      assert.ok(info.urls.llhls && info.urls.dash && info.urls.mp4);
      const hls = await fetch(stream.playUrl('/hls/index.m3u8'));
      assert.equal(hls.status, 404);
      assert.equal(((await hls.json()) as { error: { reason: string } }).error.reason, 'hls_unavailable');
      const mp4 = await probeLiveMp4(stream);
      const mp4Video = byType(mp4, 'video');
      assert.equal(`${mp4Video.codec_name} ${mp4Video.width}x${mp4Video.height}`, 'av1 980x540', 'progressive MP4');
      assert.equal(byType(mp4, 'audio').codec_name, 'opus', 'progressive MP4');
      assert.equal(await publisher.exited, 0, publisher.stderr());
    } finally {
      await publisher.stop();
    }
    await waitForCmafEnd(stream);
    for (const path of ['/cmaf/index.m3u8', '/cmaf/index.mpd']) {
      const { video, audio } = await probeTracks(stream.playUrl(path));
      assert.equal(`${video.codec_name} ${video.width}x${video.height}`, 'av1 980x540', path);
      assert.equal(Number(video.nb_read_frames), 300, `${path} decodes every frame`);
      assert.equal(`${audio.codec_name} ${audio.sample_rate} ${audio.channels}`, 'opus 48000 1', path);
    }
  });

  for (const [name, width, height, channels, frames] of [
    ['mptestsrc', 512, 512, 1, 342],
    ['bbb', 960, 540, 2, 897],
  ] as const) {
    it(`AV1 + Opus E-FLV ${name}.flv published at full speed: DASH and LL-HLS decode every frame`, {
      skip: existsSync(join(FIXTURES, `${name}.flv`)) ? false : `${FIXTURES}/${name}.flv absent`,
    }, async () => {
      const stream = await media.addStream(name);
      const publisher = publishFlv(['--url', stream.rtmpUrl, '--file', join(FIXTURES, `${name}.flv`)]);
      assert.equal(await publisher.exited, 0, publisher.stderr());
      await waitForCmafEnd(stream);
      for (const path of ['/cmaf/index.mpd', '/cmaf/index.m3u8']) {
        const { video, audio } = await probeTracks(stream.playUrl(path));
        assert.equal(`${video.codec_name} ${video.width}x${video.height}`, `av1 ${width}x${height}`, path);
        assert.equal(Number(video.nb_read_frames), frames, `${path} decodes every frame`);
        assert.equal(`${audio.codec_name} ${audio.channels}`, `opus ${channels}`, path);
      }
    });
  }
});
