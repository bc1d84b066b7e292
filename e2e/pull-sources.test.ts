/**
 * Pulling every ffmpeg-read source kind through the service, against real sources on loopback
 * made by the test from one encoded H.264 + AAC file: the test's RTSP server (interleaved TCP,
 * H.264 with B-frames), an ffmpeg SRT listener, an ffmpeg RIST listener, a live HLS folder over
 * HTTP, live Matroska and WebM streams over HTTP, and MPEG-TS to a UDP port and to a multicast
 * group on loopback. Each pulled stream goes LIVE and its LL-HLS and MP4 outputs decode in ffprobe with H.264 and AAC (VP9
 * and Opus for WebM). A killed and restarted source is pulled again after the backoff.
 */
import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { createReadStream, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type EncodedMedia, encodeTestMedia, run } from '@airwave/media/testing/ffmpeg-media';
import { type RtspTestServer, startRtspTestServer } from '@airwave/media/testing/rtsp-server';
import { suiteTempDir } from '@airwave/media/testing/temp-dir';
import { lavfiInputs, testSourceArgs } from '@airwave/media/testing/test-source';
import type { TestServer } from '@airwave/server/testing/test-server';
import { ffmpegMissing } from './support/ffmpeg.js';
import { spawnTracked, type Tracked, waitFor } from './support/processes.js';
import {
  assertOutputsDecode,
  createPullStream,
  type PulledStream,
  readPulledStream,
  startPullServer,
  waitPulling,
} from './support/pull.js';

/** Why multicast on loopback cannot be tested here, or false when a datagram to a group on 127.0.0.1 comes back. */
async function multicastLoopbackMissing(group: string): Promise<string | false> {
  const receiver = createSocket({ type: 'udp4', reuseAddr: true });
  const sender = createSocket('udp4');
  try {
    await new Promise<void>((resolve) => receiver.bind(0, resolve));
    receiver.addMembership(group, '127.0.0.1');
    await new Promise<void>((resolve) => sender.bind(0, '127.0.0.1', resolve));
    sender.setMulticastInterface('127.0.0.1');
    const arrived = new Promise<boolean>((resolve) => {
      receiver.once('message', () => resolve(true));
      setTimeout(() => resolve(false), 1000);
    });
    sender.send('probe', receiver.address().port, group);
    return (await arrived) ? false : `multicast to ${group} on 127.0.0.1 does not loop back on this machine`;
  } catch (error) {
    return `multicast on 127.0.0.1 is unavailable here: ${String(error)}`;
  } finally {
    receiver.close();
    sender.close();
  }
}

/** A free UDP port on 127.0.0.1 (released for the source to take). */
async function freeUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

describe('pulling ffmpeg-read sources through the service', { skip: ffmpegMissing }, () => {
  const dir = suiteTempDir('airwave-pull-sources-');
  let media: EncodedMedia;
  let source = '';
  let server: TestServer;
  let token: string;
  let rtsp: RtspTestServer;
  let http: Server;
  let httpPort = 0;
  const children: Tracked[] = [];

  /** ffmpeg sending the source file in a loop, in real time, as MPEG-TS to `url` (or another format). */
  function loop(url: string, format = 'mpegts', extra: readonly string[] = []): Tracked {
    const child = spawnTracked('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-re', '-stream_loop', '-1', '-i', source],
      ...['-c', 'copy', ...extra, '-f', format, url],
    ]);
    children.push(child);
    return child;
  }

  before(async () => {
    media = encodeTestMedia(dir.path, testSourceArgs({ seconds: 4, size: '320x180', gop: 30, fixedGop: true }));
    source = join(dir.path, 'source.ts');
    run('ffmpeg', [
      '-v',
      'error',
      '-i',
      media.file,
      '-c',
      'copy',
      '-bsf:v',
      'h264_mp4toannexb',
      '-f',
      'mpegts',
      source,
    ]);
    run('ffmpeg', [
      ...['-v', 'error', ...lavfiInputs('320x180', 48_000)],
      ...['-t', '4', '-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-g', '30', '-c:a', 'libopus'],
      join(dir.path, 'source.webm'),
    ]);
    // B-frames: RTP carries no DTS, the in-process RTSP client derives them (ADR 0072).
    const camera = encodeTestMedia(dir.path, testSourceArgs({ seconds: 4, size: '320x180', bFrames: 2 }), 'camera.mp4');
    rtsp = await startRtspTestServer({ tracks: camera.tracks, units: camera.units });
    http = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      if (path === '/live.mkv' || path === '/live.webm') {
        const webm = path.endsWith('.webm');
        const child = spawnTracked('ffmpeg', [
          ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-re', '-stream_loop', '-1'],
          ...['-i', webm ? join(dir.path, 'source.webm') : media.file],
          ...['-c', 'copy', '-f', webm ? 'webm' : 'matroska', '-live', '1', 'pipe:1'],
        ]);
        res.writeHead(200, { 'content-type': webm ? 'video/webm' : 'video/x-matroska' });
        child.child.stdout?.pipe(res);
        res.on('close', () => void child.stop(500));
        return;
      }
      const file = join(dir.path, 'hls', path.replace(/^\/+/, '').replace(/\.\./g, ''));
      if (!existsSync(file)) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': file.endsWith('.m3u8') ? 'application/vnd.apple.mpegurl' : 'video/mp2t' });
      createReadStream(file).pipe(res);
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const address = http.address();
    httpPort = typeof address === 'object' && address ? address.port : 0;
    ({ server, token } = await startPullServer('pull-sources', { AIRWAVE_RECONNECT_WINDOW_SECONDS: '30' }));
  });

  after(async () => {
    await server?.close();
    await Promise.all(children.map((child) => child.stop(500)));
    await rtsp?.close();
    http?.closeAllConnections();
    await new Promise((resolve) => http?.close(resolve));
  });

  async function pullAndPlay(uri: string, codecs = { video: 'h264', audio: 'aac' }): Promise<PulledStream> {
    const created = await createPullStream(server, token, uri);
    assert.ok('id' in created, JSON.stringify(created));
    const live = await waitPulling(server, token, created.id);
    assert.deepEqual(live.tracks.map((track) => track.codec).sort(), [codecs.audio, codecs.video].sort());
    await assertOutputsDecode(server, live.playbackId, dir.path, codecs);
    return live;
  }

  async function remove(stream: PulledStream): Promise<void> {
    await server.graphql('mutation ($id: ID!) { deleteStream(id: $id) { __typename } }', { id: stream.id }, token);
  }

  it('RTSP (interleaved TCP, the test server)', async () => {
    const stream = await pullAndPlay(`rtsp://127.0.0.1:${rtsp.port}/live`);
    assert.ok(rtsp.requests.some((line) => line.startsWith('PLAY')));
    await remove(stream);
  });

  it('SRT caller to an ffmpeg listener; killed and restarted, it is pulled again', async () => {
    const port = await freeUdpPort();
    const listen = `srt://127.0.0.1:${port}?mode=listener`;
    let sender = loop(listen);
    const stream = await pullAndPlay(`srt://127.0.0.1:${port}?latency=200000`);
    await sender.stop(500);
    await waitFor('RECONNECTING after the source died', async () => {
      const now = await readPulledStream(server, token, stream.id);
      return now.metrics.status === 'RECONNECTING';
    });
    sender = loop(listen);
    const back = await waitPulling(server, token, stream.id);
    const kinds = back.recentPullSourceEvents.map((event) => event.eventKind);
    assert.equal(kinds[0], 'connected', 'the newest event is the reconnection');
    assert.ok(
      kinds.slice(1).some((kind) => kind !== 'connected'),
      `a failed attempt in between: ${kinds.join(', ')}`,
    );
    assert.equal(back.metrics.pull?.failures, 0, 'the backoff starts over once connected');
    await remove(stream);
    await sender.stop(500);
  });

  it('SRT caller with a passphrase and Stream ID to an encrypting ffmpeg listener; no other process shows the passphrase', async () => {
    const port = await freeUdpPort();
    const passphrase = 'pulled-srt-passphrase';
    const sender = loop(`srt://127.0.0.1:${port}?mode=listener&passphrase=${passphrase}&pbkeylen=32`);
    const stream = await pullAndPlay(`srt://127.0.0.1:${port}?streamid=camera-1&passphrase=${passphrase}`);
    assert.ok(!(stream.pullSource?.sourceUriRedacted ?? '').includes(passphrase), 'the passphrase is redacted on read');
    const showing = readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry) && Number(entry) !== sender.child.pid)
      .filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(passphrase);
        } catch {
          return false;
        }
      });
    assert.deepEqual(showing, [], 'only the source has the passphrase on its command line');
    await remove(stream);
    await sender.stop(500);
  });

  it("SRT caller with a wrong passphrase: each attempt fails with the listener's rejection", async () => {
    const port = await freeUdpPort();
    const sender = loop(`srt://127.0.0.1:${port}?mode=listener&passphrase=the-right-passphrase`);
    const created = await createPullStream(server, token, `srt://127.0.0.1:${port}?passphrase=a-wrong-passphrase`);
    assert.ok('id' in created, JSON.stringify(created));
    await waitFor('a refused attempt', async () => {
      const now = await readPulledStream(server, token, created.id);
      return now.recentPullSourceEvents.some(
        (event) => event.eventKind === 'failed' && /wrong passphrase/.test(event.message),
      );
    });
    await server.graphql('mutation ($id: ID!) { deleteStream(id: $id) { __typename } }', { id: created.id }, token);
    await sender.stop(500);
  });

  it('RIST to an ffmpeg rist:// listener', async () => {
    const port = await freeUdpPort();
    const sender = loop(`rist://@127.0.0.1:${port}`);
    const stream = await pullAndPlay(`rist://127.0.0.1:${port}`);
    await remove(stream);
    await sender.stop(500);
  });

  it('HLS: a live folder over HTTP', async () => {
    const hls = join(dir.path, 'hls');
    mkdirSync(hls, { recursive: true });
    const writer = loop(join(hls, 'live.m3u8'), 'hls', [
      ...['-hls_time', '1', '-hls_list_size', '6', '-hls_flags', 'delete_segments+omit_endlist'],
    ]);
    await waitFor('the live playlist', () => existsSync(join(hls, 'live.m3u8')));
    const stream = await pullAndPlay(`http://127.0.0.1:${httpPort}/live.m3u8`);
    await remove(stream);
    await writer.stop(500);
  });

  it('Matroska: a live MKV stream over HTTP', async () => {
    const stream = await pullAndPlay(`http://127.0.0.1:${httpPort}/live.mkv`);
    await remove(stream);
  });

  it('WebM: a live VP9 + Opus WebM stream over HTTP (read out of ffmpeg as WebM)', async () => {
    const stream = await pullAndPlay(`http://127.0.0.1:${httpPort}/live.webm`, { video: 'vp9', audio: 'opus' });
    await remove(stream);
  });

  it('MPEG-TS over UDP unicast', async () => {
    const port = await freeUdpPort();
    const sender = loop(`udp://127.0.0.1:${port}?pkt_size=1316`);
    const stream = await pullAndPlay(`udp://127.0.0.1:${port}`);
    await remove(stream);
    await sender.stop(500);
  });

  it('MPEG-TS over UDP multicast on loopback', async (t) => {
    const group = '239.255.42.17';
    const missing = await multicastLoopbackMissing(group);
    if (missing) {
      t.skip(missing);
      return;
    }
    const port = await freeUdpPort();
    const sender = loop(`udp://${group}:${port}?localaddr=127.0.0.1&ttl=1&pkt_size=1316`);
    const stream = await pullAndPlay(`udp://${group}:${port}?localaddr=127.0.0.1`);
    assert.equal(stream.pullSource?.class, 'private', 'multicast is not public');
    await remove(stream);
    await sender.stop(500);
  });
});
