/**
 * CMAF delivery with real media and a real client: ffmpeg encodes H.264 (with B-frames) + AAC,
 * the units go through a Hub into the LL-HLS and DASH services served by a bare node:http server
 * on 127.0.0.1, and ffprobe decodes the LL-HLS playlist, the MPD and the parts concatenated after
 * their init segment, checking codec, size and frame count. Every URI must carry the `jwt` query.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Hub, type Publisher } from '@airwave/media/hub/hub';
import { silentLogger } from '@airwave/media/ports';
import { DashService } from '@airwave/media/protocols/dash/dash-service';
import { LlHlsService } from '@airwave/media/protocols/hls/llhls/llhls-service';
import type { PlayRequest, PlayResponse } from '@airwave/media/protocols/shared/http-types';
import type { MediaUnit } from '@airwave/media/stream/media-unit';
import { type EncodedMedia, encodeTestMedia } from '@airwave/media/testing/ffmpeg-media';
import { ffmpegMissing, type ProbedStream } from './support/ffmpeg.js';

const TOKEN = 'jwt=e2e-token';
const FRAMES = 120;

interface Served {
  readonly server: Server;
  readonly base: string;
  /** Paths requested without the token (must stay empty). */
  readonly untokened: string[];
}

/** Serves `/play/<id>/cmaf/<path>` from the two services, like the server's routes do. */
async function serve(llhls: LlHlsService, dash: DashService): Promise<Served> {
  const untokened: string[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const match = /^\/play\/([^/]+)\/cmaf\/(.+)$/.exec(url.pathname);
    if (!match?.[1] || !match[2]) {
      res.writeHead(404).end();
      return;
    }
    if (url.searchParams.get('jwt') !== 'e2e-token') {
      untokened.push(url.pathname);
    }
    const controller = new AbortController();
    res.on('close', () => controller.abort());
    const request: PlayRequest = {
      playbackId: match[1],
      path: match[2],
      query: Object.fromEntries(url.searchParams),
      sessionId: req.socket.remoteAddress ?? 'probe',
      signal: controller.signal,
      uriQuery: TOKEN,
    };
    const service = DashService.owns(request.path) ? dash : llhls;
    service.handle(request).then(
      (response: PlayResponse) => {
        res.writeHead(response.status, response.headers);
        res.end(typeof response.body === 'string' || response.body instanceof Uint8Array ? response.body : '');
      },
      (error: unknown) => {
        res.writeHead(500).end(String(error));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, base: `http://127.0.0.1:${port}/play`, untokened };
}

/** ffprobe with frame counting, run asynchronously: the server answering it lives in this process. */
function probeAsync(input: string, extraArgs: readonly string[] = []): Promise<ProbedStream[]> {
  return new Promise((resolve, reject) => {
    execFile(
      'ffprobe',
      ['-v', 'error', '-count_frames', '-show_streams', '-of', 'json', ...extraArgs, input],
      { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) {
          reject(new Error(`ffprobe ${input} failed: ${error.message} ${stderr}`));
          return;
        }
        resolve((JSON.parse(stdout) as { streams?: ProbedStream[] }).streams ?? []);
      },
    );
  });
}

function byType(streams: readonly ProbedStream[], type: string): ProbedStream {
  const found = streams.find((stream) => stream.codec_type === type);
  assert.ok(found, `no ${type} stream in ${JSON.stringify(streams)}`);
  return found;
}

async function fetchText(url: string): Promise<string> {
  const response = await fetch(url);
  assert.equal(response.status, 200, url);
  return response.text();
}

async function fetchBytes(url: string): Promise<Uint8Array> {
  const response = await fetch(url);
  assert.equal(response.status, 200, url);
  return new Uint8Array(await response.arrayBuffer());
}

describe('CMAF delivery decoded by ffprobe', { skip: ffmpegMissing }, () => {
  let dir = '';
  let media: EncodedMedia;
  let hub: Hub;
  let served: Served;
  let audioFrames = 0;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'airwave-cmaf-'));
    media = encodeTestMedia(dir, [
      ...['-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=30'],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'],
      ...['-c:v', 'libx264', '-bf', '2', '-g', '30', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-t', '4'],
    ]);
    audioFrames = media.units.filter((unit) => unit.trackId === 2).length;
    hub = new Hub({ log: silentLogger, reconnectWindowMs: 0 });
    const llhls = new LlHlsService(hub, { firstSegmentWaitMs: 2000 });
    const dash = new DashService(hub);
    served = await serve(llhls, dash);
  });

  after(async () => {
    hub?.close();
    await new Promise((resolve) => served?.server.close(resolve));
    served?.server.closeAllConnections();
    rmSync(dir, { recursive: true, force: true });
  });

  function publish(id: string, units: readonly MediaUnit[]): Publisher {
    const publisher = hub.publish({ streamId: `s-${id}`, playbackId: id }, 'rtmp');
    publisher.setDescription({ tracks: media.tracks });
    for (const unit of units) {
      publisher.write(unit);
    }
    return publisher;
  }

  it('the source has the frames the checks expect', () => {
    assert.equal(media.units.filter((unit) => unit.trackId === 1).length, FRAMES);
    assert.ok(
      media.units.some((unit) => unit.pts !== unit.dts),
      'the source has B-frames (composition offsets)',
    );
  });

  it('LL-HLS: the live playlist probes, and the ended playlist decodes every frame', async () => {
    publish('hls', media.units);
    const live = await probeAsync(`${served.base}/hls/cmaf/video.m3u8?${TOKEN}`, ['-read_intervals', '%+#1']);
    const liveVideo = byType(live, 'video');
    assert.equal(liveVideo.codec_name, 'h264');
    hub.stop('s-hls', 'test over');
    const streams = await probeAsync(`${served.base}/hls/cmaf/index.m3u8?${TOKEN}`);
    const video = byType(streams, 'video');
    assert.equal(video.codec_name, 'h264');
    assert.equal(video.width, 640);
    assert.equal(video.height, 360);
    assert.equal(Number(video.nb_read_frames), FRAMES);
    const audio = byType(streams, 'audio');
    assert.equal(audio.codec_name, 'aac');
    assert.equal(audio.sample_rate, '48000');
    assert.ok(Math.abs(Number(audio.nb_read_frames) - audioFrames) <= 2, `${audio.nb_read_frames} of ${audioFrames}`);
    assert.deepEqual(served.untokened, [], 'every listed URI carried the token');
  });

  it('LL-HLS: the parts listed in the playlist, appended to the init segment, decode', async () => {
    publish('parts', media.units);
    hub.stop('s-parts', 'test over');
    for (const [track, codec] of [
      ['video', 'h264'],
      ['audio', 'aac'],
    ] as const) {
      const playlist = await fetchText(`${served.base}/parts/cmaf/${track}.m3u8?${TOKEN}`);
      const map = /#EXT-X-MAP:URI="([^"]+)"/.exec(playlist)?.[1];
      const parts = [...playlist.matchAll(/#EXT-X-PART:[^\n]*URI="([^"]+)"/g)].map((match) => match[1] ?? '');
      assert.ok(map && parts.length >= 8, `${track}: init and parts listed`);
      const chunks = [await fetchBytes(`${served.base}/parts/cmaf/${map}`)];
      for (const part of parts) {
        chunks.push(await fetchBytes(`${served.base}/parts/cmaf/${part}`));
      }
      const file = join(dir, `${track}-parts.mp4`);
      writeFileSync(file, Buffer.concat(chunks));
      const stream = byType(await probeAsync(file), track);
      assert.equal(stream.codec_name, codec);
      if (track === 'video') {
        assert.equal(Number(stream.nb_read_frames), FRAMES);
        assert.equal(stream.width, 640);
      } else {
        assert.ok(Math.abs(Number(stream.nb_read_frames) - audioFrames) <= 2);
      }
    }
  });

  it('DASH: the MPD decodes every frame with the right codecs and size', async () => {
    publish('dash', media.units);
    const live = await fetchText(`${served.base}/dash/cmaf/index.mpd?${TOKEN}`);
    assert.match(live, /type="dynamic"/);
    hub.stop('s-dash', 'test over');
    const streams = await probeAsync(`${served.base}/dash/cmaf/index.mpd?${TOKEN}`);
    const video = byType(streams, 'video');
    assert.equal(video.codec_name, 'h264');
    assert.equal(video.width, 640);
    assert.equal(video.height, 360);
    assert.equal(Number(video.nb_read_frames), FRAMES);
    const audio = byType(streams, 'audio');
    assert.equal(audio.codec_name, 'aac');
    assert.ok(Math.abs(Number(audio.nb_read_frames) - audioFrames) <= 2, `${audio.nb_read_frames} of ${audioFrames}`);
    assert.deepEqual(served.untokened, []);
  });
});
