/**
 * Every playback output of the real server, fed by ffmpeg over RTMP and read by ffprobe: classic
 * HLS, LL-HLS, DASH and progressive MP4 decode as H.264 + AAC at the published size with the
 * published frame count (with and without B-frames); multivariant playlists advertise CODECS,
 * RESOLUTION, BANDWIDTH and FRAME-RATE; every segment and independent part starts on a keyframe;
 * a long GOP gives long segments and `/play/<id>` reports the real keyframe interval; caching
 * and CORS headers; 404 JSON for unknown ids; LL-HLS blocking reload and delta updates.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { byType, ffmpegMissing, probePackets, probeStreams, publishPattern } from './support/ffmpeg.js';
import { fetchBytes, fetchText, playlistUris, readFor, segmentDurations, tagAttributes } from './support/http.js';
import {
  type MediaServer,
  type MediaStream,
  startMediaServer,
  waitForSegments,
  withTempFile,
} from './support/media-server.js';
import { waitFor } from './support/processes.js';

const FPS = 30;
const WIDTH = 640;
const HEIGHT = 360;
const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';

/** Status and headers of a GET whose body is not read (progressive MP4 never ends). */
async function head(url: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers }> {
  const controller = new AbortController();
  const response = await fetch(url, { ...init, signal: controller.signal });
  controller.abort();
  return { status: response.status, headers: response.headers };
}

/** The first video packet of an input is a keyframe. */
async function assertStartsOnKeyframe(input: string, what: string): Promise<void> {
  const packets = await probePackets(input);
  const first = packets.find((packet) => packet.codec_type === 'video');
  assert.ok(first, `${what} holds no video packet`);
  assert.ok(first.flags.startsWith('K'), `${what} starts with a non-key video packet (${first.flags})`);
}

/** Waits until both playlists of the stream carry EXT-X-ENDLIST (the publish ended). */
async function waitForEnd(stream: MediaStream): Promise<void> {
  await waitFor(
    'EXT-X-ENDLIST on the HLS and LL-HLS playlists',
    async () =>
      (await fetchText(stream.playUrl('/hls/stream.m3u8'))).includes('#EXT-X-ENDLIST') &&
      (await fetchText(stream.playUrl('/cmaf/video.m3u8'))).includes('#EXT-X-ENDLIST'),
    20_000,
    250,
  );
}

/**
 * After a publish of `seconds` ended: HLS, LL-HLS and DASH decode every published frame as
 * H.264 + AAC at the published size, and every TS segment, CMAF segment and independent part
 * starts on a keyframe.
 */
async function checkEndedOutputs(stream: MediaStream, seconds: number): Promise<void> {
  const frames = seconds * FPS;
  const hlsPlaylist = await fetchText(stream.playUrl('/hls/stream.m3u8'));
  const listed = segmentDurations(hlsPlaylist).reduce((sum, duration) => sum + duration, 0);
  assert.ok(Math.abs(listed - seconds) < 0.1, `HLS lists ${listed} s of a ${seconds} s publish:\n${hlsPlaylist}`);
  for (const path of ['/hls/index.m3u8', '/cmaf/index.m3u8', '/cmaf/index.mpd']) {
    const streams = await probeStreams(stream.playUrl(path));
    const video = byType(streams, 'video');
    assert.equal(`${video.codec_name} ${video.width}x${video.height}`, `h264 ${WIDTH}x${HEIGHT}`, path);
    assert.equal(Number(video.nb_read_frames), frames, `${path} decodes every published frame`);
    assert.equal(byType(streams, 'audio').codec_name, 'aac', path);
  }
  for (const uri of playlistUris(hlsPlaylist, stream.playUrl('/hls/stream.m3u8'))) {
    await assertStartsOnKeyframe(uri, uri);
  }
  const cmafUrl = stream.playUrl('/cmaf/video.m3u8');
  const cmafPlaylist = await fetchText(cmafUrl);
  const init = /#EXT-X-MAP:URI="([^"]+)"/.exec(cmafPlaylist)?.[1];
  assert.ok(init, `no init segment in\n${cmafPlaylist}`);
  const initBytes = await fetchBytes(new URL(init, cmafUrl).toString());
  const segments = playlistUris(cmafPlaylist, cmafUrl);
  const parts = [...cmafPlaylist.matchAll(/#EXT-X-PART:[^\n]*URI="([^"]+)",INDEPENDENT=YES/g)].map((match) =>
    new URL(match[1] as string, cmafUrl).toString(),
  );
  assert.ok(segments.length >= seconds / 2 && parts.length > 0, `CMAF lists segments and parts:\n${cmafPlaylist}`);
  for (const uri of [...segments, ...parts]) {
    const media = await fetchBytes(uri);
    await withTempFile('fragment.mp4', [initBytes, media], (path) => assertStartsOnKeyframe(path, uri));
  }
}

/** `/play/<id>` as JSON. */
async function playInfo(stream: MediaStream): Promise<{
  status: string;
  keyframeIntervalSeconds: number | null;
  tracks: { kind: string; codec: string; width?: number; height?: number; bFrames?: boolean }[];
  urls: Record<string, string>;
}> {
  return JSON.parse(await fetchText(stream.playUrl())) as Awaited<ReturnType<typeof playInfo>>;
}

describe('playback outputs of the real server', { skip: ffmpegMissing }, () => {
  let media: MediaServer;

  before(async () => {
    media = await startMediaServer({ AIRWAVE_RECONNECT_WINDOW_SECONDS: '1' });
  });

  after(async () => {
    await media?.close();
  });

  it('H.264 with B-frames + AAC: headers, playlists, blocking reload and MP4 live; every output decodes once ended', async () => {
    const seconds = 10;
    const ffmpeg = publishPattern(media.rtmpUrl, { seconds, bframes: true });
    try {
      await waitForSegments(media, 2);

      const hlsMulti = await fetchText(media.playUrl('/hls/index.m3u8'));
      const cmafMulti = await fetchText(media.playUrl('/cmaf/index.m3u8'));
      for (const [name, text] of [
        ['HLS', hlsMulti],
        ['LL-HLS', cmafMulti],
      ] as const) {
        const variant = tagAttributes(text, '#EXT-X-STREAM-INF:');
        assert.match(variant.CODECS ?? '', /^avc1\.64[0-9A-Fa-f]{4},mp4a\.40\.2$/, `${name} CODECS`);
        assert.equal(variant.RESOLUTION, `${WIDTH}x${HEIGHT}`, `${name} RESOLUTION`);
        assert.equal(variant['FRAME-RATE'], '30.000', `${name} FRAME-RATE`);
        assert.ok(Number(variant.BANDWIDTH) > 96_000, `${name} BANDWIDTH ${variant.BANDWIDTH}`);
      }

      const mpd = await fetchText(media.playUrl('/cmaf/index.mpd'));
      assert.match(mpd, /type="dynamic"/);
      assert.match(
        mpd,
        /<Representation id="video" codecs="avc1\.64[0-9A-Fa-f]{4}" bandwidth="[1-9]\d*" width="640" height="360"[^>]* frameRate="30"/,
        mpd,
      );
      assert.match(
        mpd,
        /<Representation id="audio" codecs="mp4a\.40\.2" bandwidth="[1-9]\d*" audioSamplingRate="48000"/,
      );

      const info = await playInfo(media);
      assert.equal(info.status, 'live');
      assert.deepEqual(
        info.tracks.map((track) => `${track.kind} ${track.codec} ${track.width ?? ''} ${track.bFrames ?? ''}`),
        [`video h264 ${WIDTH} true`, 'audio aac  '],
      );

      const hlsMedia = await fetchText(media.playUrl('/hls/stream.m3u8'));
      const tsSegment = playlistUris(hlsMedia, media.playUrl('/hls/stream.m3u8'))[0];
      const cmafMedia = await fetchText(media.playUrl('/cmaf/video.m3u8'));
      const cmafUrl = media.playUrl('/cmaf/video.m3u8');
      const cmafSegment = playlistUris(cmafMedia, cmafUrl)[0];
      const cmafPart = /#EXT-X-PART:[^\n]*URI="([^"]+)"/.exec(cmafMedia)?.[1];
      const cmafInit = /#EXT-X-MAP:URI="([^"]+)"/.exec(cmafMedia)?.[1];
      assert.ok(tsSegment && cmafSegment && cmafPart && cmafInit, `playlists list media:\n${hlsMedia}\n${cmafMedia}`);
      const m3u8 = 'application/vnd.apple.mpegurl';
      const outputs: [name: string, url: string, cache: string, type: string][] = [
        ['play JSON', media.playUrl(), 'no-store', 'application/json'],
        ['HLS multivariant', media.playUrl('/hls/index.m3u8'), 'no-store', m3u8],
        ['HLS media playlist', media.playUrl('/hls/stream.m3u8'), 'no-store', m3u8],
        ['TS segment', tsSegment, CACHE_IMMUTABLE, 'video/mp2t'],
        ['LL-HLS multivariant', media.playUrl('/cmaf/index.m3u8'), 'no-store', m3u8],
        ['LL-HLS media playlist', cmafUrl, 'no-store', m3u8],
        ['LL-HLS audio playlist', media.playUrl('/cmaf/audio.m3u8'), 'no-store', m3u8],
        ['CMAF init', new URL(cmafInit, cmafUrl).toString(), CACHE_IMMUTABLE, 'video/mp4'],
        ['CMAF segment', cmafSegment, CACHE_IMMUTABLE, 'video/mp4'],
        ['CMAF part', new URL(cmafPart, cmafUrl).toString(), CACHE_IMMUTABLE, 'video/mp4'],
        ['DASH MPD', media.playUrl('/cmaf/index.mpd'), 'no-store', 'application/dash+xml'],
        ['progressive MP4', media.playUrl('.mp4'), 'no-store', 'video/mp4'],
      ];
      for (const [name, url, cache, type] of outputs) {
        const { status, headers } = await head(url, { headers: { origin: 'https://viewer.example' } });
        assert.equal(status, 200, `${name} ${url}`);
        assert.equal(headers.get('access-control-allow-origin'), '*', `${name} CORS`);
        assert.equal(headers.get('cache-control'), cache, `${name} Cache-Control`);
        assert.equal(headers.get('content-type')?.split(';')[0], type, `${name} Content-Type`);
      }
      const preflight = await fetch(media.playUrl('/hls/index.m3u8'), {
        method: 'OPTIONS',
        headers: { origin: 'https://viewer.example', 'access-control-request-method': 'GET' },
      });
      assert.equal(preflight.status, 204);
      assert.match(preflight.headers.get('access-control-allow-methods') ?? '', /GET/);

      // LL-HLS blocking reload: ask for the part after the newest; it answers once that part exists.
      const live = await fetchText(cmafUrl);
      const hinted = /#EXT-X-PRELOAD-HINT:TYPE=PART,URI="([^"]+)"/.exec(live)?.[1];
      const report = tagAttributes(await fetchText(media.playUrl('/cmaf/audio.m3u8')), '#EXT-X-RENDITION-REPORT:');
      assert.ok(hinted, `no preload hint in\n${live}`);
      const lastMsn = Number(report['LAST-MSN']);
      const lastPart = Number(report['LAST-PART']);
      const blocked = await fetchText(`${cmafUrl}?_HLS_msn=${lastMsn}&_HLS_part=${lastPart + 1}`);
      assert.match(
        blocked,
        new RegExp(`#EXT-X-PART:[^\\n]*URI="${hinted}"`),
        'the blocked reload lists the hinted part',
      );
      const farAhead = await fetch(`${cmafUrl}?_HLS_msn=${lastMsn + 10}`);
      assert.equal(farAhead.status, 400);
      assert.equal(((await farAhead.json()) as { error: { reason: string } }).error.reason, 'too_far_ahead');
      const badDirective = await fetch(`${cmafUrl}?_HLS_part=1`);
      assert.equal(badDirective.status, 400);

      // Progressive MP4: a few seconds of the live response decode from a keyframe, without gaps.
      const mp4 = await readFor(media.playUrl('.mp4'), 3000);
      await withTempFile('live.mp4', [mp4], async (path) => {
        const streams = await probeStreams(path);
        const video = byType(streams, 'video');
        assert.equal(`${video.codec_name} ${video.width}x${video.height}`, `h264 ${WIDTH}x${HEIGHT}`);
        assert.equal(byType(streams, 'audio').codec_name, 'aac');
        const packets = (await probePackets(path)).filter((packet) => packet.codec_type === 'video');
        assert.ok(packets[0]?.flags.startsWith('K'), 'the MP4 starts on a keyframe');
        assert.ok(packets.length >= FPS, `the MP4 carried ${packets.length} frames in 3 s`);
        assert.equal(packets.length, Number(video.nb_read_frames), 'every MP4 frame decodes');
        // Frames in presentation order step by 1/30 s; only the cut-off tail may miss B-frames.
        const pts = packets.map((packet) => Number(packet.pts_time)).sort((a, b) => a - b);
        const steps = pts.slice(1, -3).map((value, index) => Math.round((value - (pts[index] ?? 0)) * FPS));
        assert.deepEqual([...new Set(steps)], [1], 'the MP4 frames are contiguous at 30 fps');
      });

      assert.equal(await ffmpeg.exited, 0, ffmpeg.stderr());
      await waitForEnd(media);
      assert.match(await fetchText(media.playUrl('/cmaf/index.mpd')), /type="static"/);
      await checkEndedOutputs(media, seconds);
    } finally {
      await ffmpeg.stop();
    }
  });

  it('H.264 without B-frames: every output decodes every frame, segments start on keyframes', async () => {
    const stream = await media.addStream('no b-frames');
    const seconds = 6;
    const ffmpeg = publishPattern(stream.rtmpUrl, { seconds, bframes: false });
    try {
      await waitForSegments(stream, 1);
      const info = await playInfo(stream);
      assert.equal(info.tracks.find((track) => track.kind === 'video')?.bFrames, false);
      assert.equal(await ffmpeg.exited, 0, ffmpeg.stderr());
      await waitForEnd(stream);
      await checkEndedOutputs(stream, seconds);
    } finally {
      await ffmpeg.stop();
    }
  });

  it('a 5 s GOP gives ~5 s segments and /play/<id> reports the keyframe interval; _HLS_skip=YES skips', async () => {
    const stream = await media.addStream('long gop');
    const ffmpeg = publishPattern(stream.rtmpUrl, { gop: 150, bframes: false, realtime: false });
    try {
      await waitFor(
        'ten 5 s CMAF segments',
        async () => segmentDurations(await fetchText(stream.playUrl('/cmaf/video.m3u8'))).length >= 10,
        40_000,
        250,
      );
      const hls = await fetchText(stream.playUrl('/hls/stream.m3u8'));
      const durations = segmentDurations(hls);
      assert.ok(durations.length >= 3, hls);
      for (const duration of durations) {
        assert.ok(Math.abs(duration - 5) < 0.05, `segment of ${duration} s with a 5 s GOP:\n${hls}`);
      }
      assert.match(hls, /#EXT-X-TARGETDURATION:5\n/);
      const info = await playInfo(stream);
      assert.ok(
        info.keyframeIntervalSeconds !== null && Math.abs(info.keyframeIntervalSeconds - 5) < 0.05,
        `keyframeIntervalSeconds ${info.keyframeIntervalSeconds}`,
      );
      const cmaf = await fetchText(stream.playUrl('/cmaf/video.m3u8'));
      for (const duration of segmentDurations(cmaf)) {
        assert.ok(Math.abs(duration - 5) < 0.05, `CMAF segment of ${duration} s with a 5 s GOP:\n${cmaf}`);
      }
      const full = cmaf;
      const delta = await fetchText(`${stream.playUrl('/cmaf/video.m3u8')}?_HLS_skip=YES`);
      const skipped = Number(/#EXT-X-SKIP:SKIPPED-SEGMENTS=(\d+)/.exec(delta)?.[1]);
      assert.ok(skipped > 0, `no EXT-X-SKIP in the delta update:\n${delta}`);
      assert.ok(
        segmentDurations(delta).length < segmentDurations(full).length,
        'the delta update lists fewer segments than the full playlist',
      );
    } finally {
      await ffmpeg.stop();
    }
  });

  it('answers 404 JSON with CORS for unknown playback ids on every output', async () => {
    for (const path of ['', '/hls/index.m3u8', '/hls/stream.m3u8', '/cmaf/index.m3u8', '/cmaf/index.mpd', '.mp4']) {
      const url = `${media.server.baseUrl}/play/unknown-id${path}`;
      const response = await fetch(url);
      assert.equal(response.status, 404, url);
      assert.equal(response.headers.get('access-control-allow-origin'), '*', url);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/, url);
      const body = (await response.json()) as { error?: { reason?: string } };
      assert.equal(body.error?.reason, 'playback_id_not_found', url);
    }
  });
});
