import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { get as httpGet, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { Hub, type Publisher, silentLogger } from '@airwave/media';
import { DashService } from '@airwave/media/protocols/dash/dash-service';
import { LlHlsService } from '@airwave/media/protocols/hls/llhls/llhls-service';
import { TsHlsService } from '@airwave/media/protocols/hls/ts/ts-hls-service';
import { ProgressiveMp4Service } from '@airwave/media/protocols/mp4/progressive-mp4-service';
import { type EncodedMedia, encodeTestMedia, ffmpegSkip } from '@airwave/media/testing/ffmpeg-media';
import { unitsOfPass, writePasses } from '@airwave/media/testing/live-feed';
import { suiteTempDir } from '@airwave/media/testing/temp-dir';
import { testSourceArgs } from '@airwave/media/testing/test-source';
import Fastify, { type FastifyInstance } from 'fastify';
import type { PlayInfo } from './play-info.js';
import { registerPlayRoutes } from './play-routes.js';
import type { PlaybackGate } from './playback-gate.js';
import { viewerSessionId } from './viewer-session.js';

const skip = ffmpegSkip();
const execFileAsync = promisify(execFile);
const PUBLIC_BASE = 'https://play.example.test';
const READER_MAX_UNITS = 256;
const BODY_HIGH_WATER = 64 * 1024;

interface ProbeStream {
  codec_name: string;
  codec_type: string;
  width?: number;
  height?: number;
  nb_read_frames?: string;
}

/** ffprobe as a child process (the server under test runs in this process, so never spawnSync). */
async function probe(target: string): Promise<ProbeStream[]> {
  const { stdout } = await execFileAsync(
    'ffprobe',
    ['-v', 'error', '-of', 'json', '-count_frames', '-show_streams', target],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  return (JSON.parse(stdout) as { streams?: ProbeStream[] }).streams ?? [];
}

/**
 * A gate for tests: ids starting with `secret-` need the token `letmein`, carried on as `jwt=`;
 * ids starting with `broken-` make it fail.
 */
const gate: PlaybackGate = {
  async authorize({ playbackId, token }) {
    if (playbackId.startsWith('broken-')) {
      throw new Error('policy store unreachable');
    }
    if (!playbackId.startsWith('secret-')) {
      return { allowed: true };
    }
    if (!token) {
      return { allowed: false, status: 401, reason: 'token_missing', message: 'this playback id needs a token' };
    }
    if (token !== 'letmein') {
      return { allowed: false, status: 403, reason: 'token_invalid', message: 'the token is not valid' };
    }
    return { allowed: true, uriQuery: `jwt=${token}` };
  },
};

const yieldToIo = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('/play routes with real media, Fastify and ffprobe', { skip }, () => {
  const tmp = suiteTempDir('play-routes-');
  let media: EncodedMedia;
  let hub: Hub;
  let tsHls: TsHlsService;
  let mp4: ProgressiveMp4Service;
  let llhls: LlHlsService;
  let dash: DashService;
  let app: FastifyInstance;
  let base = '';

  before(async () => {
    media = encodeTestMedia(tmp.path, testSourceArgs({ size: '640x360', seconds: 4 }));
    hub = new Hub({ log: silentLogger, reconnectWindowMs: 0 });
    tsHls = new TsHlsService(hub, { targetDurationSeconds: 2, windowSegments: 6 });
    mp4 = new ProgressiveMp4Service(hub, {
      readerLimits: { maxUnits: READER_MAX_UNITS, maxBytes: 2 * 1024 * 1024 },
      highWaterMark: BODY_HIGH_WATER,
    });
    llhls = new LlHlsService(hub);
    dash = new DashService(hub);
    app = Fastify({ logger: false });
    registerPlayRoutes(app, { hub, tsHls, cmaf: llhls, dash, mp4, publicBaseUrl: `${PUBLIC_BASE}/`, gate });
    await app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });

  after(async () => {
    hub?.close();
    tsHls?.close();
    llhls?.registry.close();
    await app?.close();
  });

  function publish(id: string, passes: number): Publisher {
    const publisher = hub.publish({ streamId: id, playbackId: id }, 'rtmp');
    publisher.setDescription({ tracks: media.tracks });
    writePasses(publisher, media, 0, passes);
    return publisher;
  }

  it('serves classic HLS that ffprobe decodes: H.264 640x360 + AAC, every frame', async () => {
    publish('hls-1', 1);
    const multivariant = await fetch(`${base}/play/hls-1/hls/index.m3u8`);
    assert.equal(multivariant.status, 200);
    assert.equal(multivariant.headers.get('content-type'), 'application/vnd.apple.mpegurl');
    assert.equal(multivariant.headers.get('cache-control'), 'no-store');
    assert.equal(multivariant.headers.get('access-control-allow-origin'), '*');
    const text = await multivariant.text();
    const video = media.tracks.find((track) => track.kind === 'video');
    assert.match(text, new RegExp(`CODECS="${video?.codecString},mp4a\\.40\\.2"`));
    assert.match(text, /RESOLUTION=640x360/);
    assert.match(text, /FRAME-RATE=30\.000/);
    assert.match(text, /BANDWIDTH=\d{4,}/);
    assert.match(text, /^stream\.m3u8$/m);
    const live = await (await fetch(`${base}/play/hls-1/hls/stream.m3u8`)).text();
    assert.match(live, /^#EXT-X-TARGETDURATION:2$/m);
    assert.match(live, /^#EXT-X-PROGRAM-DATE-TIME:/m);
    assert.match(live, /^#EXTINF:2\.000,\nseg-0\.ts$/m);
    assert.doesNotMatch(live, /ENDLIST/);
    assert.equal(hub.getByPlaybackId('hls-1')?.viewers.count, 1, 'the HLS viewer is counted');
    const egressBefore = hub.getByPlaybackId('hls-1')?.stats.bytesOut ?? 0;
    const segment = await fetch(`${base}/play/hls-1/hls/seg-0.ts`);
    assert.equal(segment.headers.get('content-type'), 'video/mp2t');
    assert.equal(segment.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    const segmentBytes = (await segment.arrayBuffer()).byteLength;
    assert.equal(segmentBytes % 188, 0);
    assert.equal(
      hub.getByPlaybackId('hls-1')?.stats.bytesOut,
      egressBefore + segmentBytes,
      'delivered bytes are counted as the stream egress',
    );

    hub.stop('hls-1', 'encoder finished');
    const ended = await (await fetch(`${base}/play/hls-1/hls/stream.m3u8`)).text();
    assert.match(ended, /#EXT-X-ENDLIST\n$/);
    const streams = await probe(`${base}/play/hls-1/hls/index.m3u8`);
    const h264 = streams.find((stream) => stream.codec_type === 'video');
    assert.equal(h264?.codec_name, 'h264');
    assert.equal(h264?.width, 640);
    assert.equal(h264?.height, 360);
    assert.equal(h264?.nb_read_frames, '120');
    assert.equal(streams.find((stream) => stream.codec_type === 'audio')?.codec_name, 'aac');
    assert.equal((await fetch(`${base}/play/hls-1/hls/seg-99.ts`)).status, 404);
  });

  it('answers /play/<id> with status, tracks, keyframe interval and absolute URLs', async () => {
    publish('info-1', 1);
    const response = await fetch(`${base}/play/info-1`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    const info = (await response.json()) as PlayInfo;
    assert.equal(info.playbackId, 'info-1');
    assert.equal(info.status, 'live');
    assert.equal(info.keyframeIntervalSeconds, 1);
    assert.deepEqual(info.urls, {
      hls: `${PUBLIC_BASE}/play/info-1/hls/index.m3u8`,
      llhls: `${PUBLIC_BASE}/play/info-1/cmaf/index.m3u8`,
      dash: `${PUBLIC_BASE}/play/info-1/cmaf/index.mpd`,
      mp4: `${PUBLIC_BASE}/play/info-1.mp4`,
    });
    const videoTrack = info.tracks.find((track) => track.kind === 'video');
    assert.equal(videoTrack?.codec, 'h264');
    assert.equal(videoTrack?.width, 640);
    assert.equal(videoTrack?.height, 360);
    assert.equal(videoTrack?.fps, 30);
    assert.ok((videoTrack?.bitrate ?? 0) > 0);
    assert.equal(videoTrack?.bFrames, true, 'the source was encoded with -bf 2');
    const audioTrack = info.tracks.find((track) => track.kind === 'audio');
    assert.equal(audioTrack?.codec, 'aac');
    assert.equal(audioTrack?.sampleRate, 44_100);
    assert.equal(audioTrack?.channels, 1);
    hub.stop('info-1', 'done');
    const offline = (await (await fetch(`${base}/play/info-1`)).json()) as PlayInfo;
    assert.equal(offline.status, 'offline', 'an ended stream is offline while its final playlist is kept');
  });

  it('sends the MPD to DASH and every other CMAF path to LL-HLS', async () => {
    publish('cmaf-1', 2);
    const mpd = await fetch(`${base}/play/cmaf-1/cmaf/index.mpd`);
    assert.equal(mpd.status, 200);
    assert.equal(mpd.headers.get('content-type'), 'application/dash+xml');
    assert.equal(mpd.headers.get('access-control-allow-origin'), '*');
    assert.match(await mpd.text(), /<MPD /);
    const playlist = await fetch(`${base}/play/cmaf-1/cmaf/index.m3u8`);
    assert.equal(playlist.status, 200);
    assert.match(await playlist.text(), /#EXT-X-STREAM-INF/);
    hub.stop('cmaf-1', 'done');
  });

  it('answers requests Fastify receives itself (app.inject) the same way', async () => {
    publish('inject-1', 1);
    const playlist = await app.inject({ method: 'GET', url: '/play/inject-1/cmaf/index.m3u8' });
    assert.equal(playlist.statusCode, 200);
    assert.equal(playlist.headers['access-control-allow-origin'], '*');
    assert.match(playlist.body, /#EXT-X-STREAM-INF/);
    const head = await app.inject({ method: 'HEAD', url: '/play/inject-1/cmaf/index.m3u8' });
    assert.equal(head.statusCode, 200);
    assert.equal(head.headers['content-length'], String(Buffer.byteLength(playlist.body)));
    assert.equal(head.body, '');
    const missing = await app.inject({ method: 'GET', url: '/play/nope/hls/index.m3u8' });
    assert.equal(missing.statusCode, 404);
    assert.equal((missing.json() as { error: { reason: string } }).error.reason, 'playback_id_not_found');
    assert.equal((await app.inject({ method: 'OPTIONS', url: '/play/any/cmaf/index.m3u8' })).statusCode, 204);
    hub.stop('inject-1', 'done');
  });

  it('answers 404 with a JSON reason for unknown playback ids on every route', async () => {
    for (const path of [
      '/play/nope',
      '/play/nope.mp4',
      '/play/nope/hls/index.m3u8',
      '/play/nope/cmaf/index.mpd',
      '/play/bad%20id',
    ]) {
      const response = await fetch(`${base}${path}`);
      assert.equal(response.status, 404, path);
      assert.equal(response.headers.get('access-control-allow-origin'), '*');
      const body = (await response.json()) as { error: { reason: string; message: string } };
      assert.equal(body.error.reason, 'playback_id_not_found', path);
      assert.ok(body.error.message.length > 0);
    }
  });

  it('answers 404 with a JSON reason for unknown outputs', async () => {
    const response = await fetch(`${base}/play/nope/flv/stream.flv`);
    assert.equal(response.status, 404);
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    assert.equal(((await response.json()) as { error: { reason: string } }).error.reason, 'output_not_found');
  });

  it('answers CORS preflight for browser players', async () => {
    const response = await fetch(`${base}/play/any/cmaf/index.m3u8`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://player.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    assert.equal(response.status, 204);
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    assert.match(response.headers.get('access-control-allow-headers') ?? '', /Authorization/);
    assert.match(response.headers.get('access-control-allow-methods') ?? '', /GET/);
  });

  it('asks the gate with the token from ?jwt= or Authorization and carries its query into URIs', async () => {
    publish('secret-1', 1);
    const denied = await fetch(`${base}/play/secret-1/hls/index.m3u8`);
    assert.equal(denied.status, 401);
    assert.equal(denied.headers.get('www-authenticate'), 'Bearer');
    assert.equal(((await denied.json()) as { error: { reason: string } }).error.reason, 'token_missing');
    assert.equal((await fetch(`${base}/play/secret-1.mp4?jwt=wrong`)).status, 403);
    const viaQuery = await (await fetch(`${base}/play/secret-1/hls/index.m3u8?jwt=letmein`)).text();
    assert.match(viaQuery, /^stream\.m3u8\?jwt=letmein$/m);
    const viaHeader = await fetch(`${base}/play/secret-1/hls/stream.m3u8`, {
      headers: { authorization: 'Bearer letmein' },
    });
    assert.equal(viaHeader.status, 200);
    assert.match(await viaHeader.text(), /^seg-0\.ts\?jwt=letmein$/m);
    const info = (await (await fetch(`${base}/play/secret-1?jwt=letmein`)).json()) as PlayInfo;
    assert.equal(info.urls.mp4, `${PUBLIC_BASE}/play/secret-1.mp4?jwt=letmein`);
    hub.stop('secret-1', 'done');
    const failing = await fetch(`${base}/play/broken-1/hls/index.m3u8`);
    assert.equal(failing.status, 503, 'a failing gate denies');
    assert.equal(((await failing.json()) as { error: { reason: string } }).error.reason, 'gate_unavailable');
  });

  it('streams live fragmented MP4 from the last keyframe until the stream ends; ffprobe decodes it', async () => {
    const publisher = publish('mp4-1', 1);
    const response = await fetch(`${base}/play/mp4-1.mp4`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'video/mp4');
    assert.equal(response.headers.get('content-length'), null);
    assert.equal(response.headers.get('transfer-encoding'), 'chunked');
    assert.equal(hub.getByPlaybackId('mp4-1')?.viewers.count, 1, 'the MP4 viewer is counted');
    const reading = collect(response);
    await writePassInSteps(publisher, 1);
    await writePassInSteps(publisher, 2);
    while ((mp4.active()[0]?.queuedUnits ?? 0) > 0) {
      await yieldToIo();
    }
    assert.equal(mp4.active()[0]?.reader.dropped, 0, 'a viewer that keeps up loses nothing');
    hub.stop('mp4-1', 'encoder finished');
    const file = join(tmp.path, 'live.mp4');
    writeFileSync(file, await reading);
    const streams = await probe(file);
    const video = streams.find((stream) => stream.codec_type === 'video');
    assert.equal(video?.codec_name, 'h264');
    assert.equal(video?.width, 640);
    assert.equal(video?.height, 360);
    assert.equal(video?.nb_read_frames, String(30 + 240), 'the cached GOP, then two whole passes');
    assert.equal(streams.find((stream) => stream.codec_type === 'audio')?.codec_name, 'aac');
    assert.equal(mp4.active().length, 0);
  });

  it('stops a progressive MP4 session when the client goes away', async () => {
    publish('mp4-abort', 1);
    const controller = new AbortController();
    const response = await fetch(`${base}/play/mp4-abort.mp4`, { signal: controller.signal });
    const reader = response.body?.getReader();
    const first = await reader?.read();
    assert.ok((first?.value?.byteLength ?? 0) > 0);
    assert.equal(mp4.active().length, 1);
    controller.abort();
    while (mp4.active().length > 0) {
      await yieldToIo();
    }
    assert.equal(hub.getByPlaybackId('mp4-abort')?.viewers.count, 0, 'the viewer session closed');
    assert.equal(hub.getByPlaybackId('mp4-abort')?.readerCount, 0, 'the hub reader closed');
    hub.stop('mp4-abort', 'done');
  });

  it('drops a reader that never reads to the next keyframe while another viewer keeps receiving', async () => {
    const publisher = publish('mp4-slow', 1);
    const slowSession = viewerSessionId('127.0.0.1', 'slow-client', undefined);
    const slow = await new Promise<IncomingMessage>((resolve, reject) => {
      httpGet(`${base}/play/mp4-slow.mp4`, { headers: { 'user-agent': 'slow-client' } }, resolve).on('error', reject);
    });
    slow.pause();
    const fast = await fetch(`${base}/play/mp4-slow.mp4`, { headers: { 'user-agent': 'fast-client' } });
    let fastBytes = 0;
    const fastDone = (async () => {
      const chunks: Uint8Array[] = [];
      for await (const chunk of fast.body ?? []) {
        chunks.push(chunk);
        fastBytes += chunk.byteLength;
      }
      return Buffer.concat(chunks);
    })();
    const slowInfo = () => mp4.active().find((session) => session.sessionId === slowSession);
    let pass = 1;
    while ((slowInfo()?.reader.dropped ?? 0) === 0) {
      assert.ok(pass < 2000, 'the slow reader never dropped');
      await writePassInSteps(publisher, pass++);
    }
    const stalled = slowInfo();
    assert.ok(stalled && stalled.reader.dropEvents >= 1);
    assert.ok(stalled.queuedUnits <= READER_MAX_UNITS, 'the slow reader queue stays bounded');
    assert.ok(stalled.buffered <= BODY_HIGH_WATER + 2 * 1024 * 1024, 'the response buffer stays bounded');
    const droppedBefore = stalled.reader.dropped;
    const fastBefore = fastBytes;
    for (let more = 0; more < 3; more++) {
      await writePassInSteps(publisher, pass++);
    }
    while (fastBytes === fastBefore) {
      await yieldToIo();
    }
    assert.ok((slowInfo()?.reader.dropped ?? 0) > droppedBefore, 'the slow reader keeps dropping');
    hub.stop('mp4-slow', 'done');
    slow.destroy();
    const file = join(tmp.path, 'fast.mp4');
    writeFileSync(file, await fastDone);
    const video = (await probe(file)).find((stream) => stream.codec_type === 'video');
    assert.equal(video?.codec_name, 'h264');
    assert.equal(video?.width, 640);
  });

  /** Writes one pass in small steps, yielding to I/O so readers that keep up are not overrun. */
  async function writePassInSteps(publisher: Publisher, pass: number): Promise<void> {
    const units = unitsOfPass(media.tracks, media.units, pass);
    for (let at = 0; at < units.length; at += 16) {
      for (const unit of units.slice(at, at + 16)) {
        publisher.write(unit);
      }
      await yieldToIo();
    }
  }
});

async function collect(response: Response): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of response.body ?? []) {
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
