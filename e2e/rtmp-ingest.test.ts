/**
 * RTMP/RTMPS/E-RTMP ingest, media level: a Hub and RtmpServer on 127.0.0.1, real ffmpeg and our
 * own E-RTMP publisher (scripts/publish-flv.ts) push; the hub's streams are checked for tracks,
 * keyframes, composition offsets, monotonic timestamps, refusals, reconnects and robustness.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Hub } from '@airwave/media/hub/hub';
import type { LiveStream } from '@airwave/media/hub/live-stream';
import type { LiveStatus, PublishAuthorizer } from '@airwave/media/ports';
import { silentLogger } from '@airwave/media/ports';
import { ChunkReader } from '@airwave/media/protocols/rtmp/chunk-reader';
import { ChunkWriter } from '@airwave/media/protocols/rtmp/chunk-writer';
import { RtmpPublisher } from '@airwave/media/protocols/rtmp/client';
import { ClientHandshake } from '@airwave/media/protocols/rtmp/handshake';
import {
  MessageType,
  type RtmpMessage,
  readU32,
  UserControlEvent,
  userControlMessage,
  windowAckSizeMessage,
} from '@airwave/media/protocols/rtmp/messages';
import { RtmpServer } from '@airwave/media/protocols/rtmp/server';
import type { MediaUnit } from '@airwave/media/stream/media-unit';
import type { StreamDescription } from '@airwave/media/stream/track';
import { CapturingLogger, type LogRecord } from '@airwave/media/testing/capturing-logger';
import { eflvFixturesMissing, EFLV_FIXTURES as FIXTURES } from '@airwave/media/testing/eflv-fixtures';
import { publishFlv } from './support/airwave-cli.js';
import { makeAv1Sample } from './support/av1-sample.js';
import { ffmpegMissing, patternArgs } from './support/ffmpeg.js';
import { type FlvSample, makeFlvSample } from './support/flv-sample.js';
import { hasCommand, sleep, spawnTracked, waitFor } from './support/processes.js';

const RECONNECT_WINDOW_MS = 1000;

interface Recorded {
  descriptions: StreamDescription[];
  units: MediaUnit[];
  statuses: LiveStatus[];
  streams: LiveStream[];
}

const recorded = new Map<string, Recorded>();
function record(streamId: string): Recorded {
  let entry = recorded.get(streamId);
  if (!entry) {
    entry = { descriptions: [], units: [], statuses: [], streams: [] };
    recorded.set(streamId, entry);
  }
  return entry;
}

/** Keys starting with `good-` are accepted; the stream id is the key itself. */
const authorizer: PublishAuthorizer = {
  async authorize(key) {
    return key.startsWith('good-') ? { streamId: key, playbackId: `p-${key}` } : null;
  },
};

const hub = new Hub({
  log: silentLogger,
  reconnectWindowMs: RECONNECT_WINDOW_MS,
  lifecycle: { onStatus: (streamId, status) => record(streamId).statuses.push(status) },
});
hub.addOutput((stream) => {
  const entry = record(stream.streamId);
  entry.streams.push(stream);
  const detach = stream.attach({
    onDescription: (description) => entry.descriptions.push(description),
    onUnit: (unit) => entry.units.push(unit),
  });
  return { close: detach };
});

const rtmpLog = new CapturingLogger();
let made: FlvSample | undefined;
/** 10 s of H.264 + AAC made by ffmpeg (once, on first use), replayed tag by tag by our publisher. */
function flvSample(): FlvSample {
  made ??= makeFlvSample(10);
  return made;
}
let server: RtmpServer;
let port = 0;
const url = (key: string) => `rtmp://127.0.0.1:${port}/live/${key}`;
const video = (id: string) => record(id).units.filter((unit) => unit.trackId === 1);
const audio = (id: string) => record(id).units.filter((unit) => unit.trackId === 2);
const lastDescription = (id: string) => record(id).descriptions.at(-1);

function assertMonotonic(units: readonly MediaUnit[], what: string): void {
  for (let i = 1; i < units.length; i++) {
    const previous = units[i - 1];
    const unit = units[i];
    assert.ok(previous && unit && unit.dts > previous.dts, `${what}: dts ${unit?.dts} after ${previous?.dts} at ${i}`);
  }
}

/** Asserts that `records` hold exactly one 'RTMP session closed' warning, whose reason matches `reason`. */
function assertClosedWithReason(records: readonly LogRecord[], reason: RegExp): void {
  const closes = records.filter((record) => record.msg === 'RTMP session closed');
  assert.equal(closes.length, 1, JSON.stringify(records));
  const close = closes[0];
  assert.equal(close?.level, 'warn', JSON.stringify(close));
  assert.equal(close?.fields.component, 'rtmp');
  assert.equal(close?.fields.remote, '127.0.0.1');
  assert.match(String(close?.fields.reason), reason);
}

function closedSocket(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    if (socket.destroyed) {
      resolve();
      return;
    }
    socket.once('close', () => resolve());
  });
}

describe('RTMP ingest', { skip: ffmpegMissing }, () => {
  before(async () => {
    server = new RtmpServer({ hub, authorizer, log: rtmpLog, handshakeTimeoutMs: 2000, idleTimeoutMs: 4000 });
    port = await server.listen(0, '127.0.0.1');
  });
  after(async () => {
    await server.close();
    hub.close();
  });

  it('takes H.264 with B-frames and AAC from ffmpeg', async () => {
    const ffmpeg = spawnTracked('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-re'],
      ...['-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=30', '-f', 'lavfi', '-i', 'sine'],
      ...['-c:v', 'libx264', '-bf', '2', '-g', '30', '-c:a', 'aac', '-t', '3', '-f', 'flv', url('good-bframes')],
    ]);
    assert.equal(await ffmpeg.exited, 0, ffmpeg.stderr());
    const description = lastDescription('good-bframes');
    const [v, a] = description?.tracks ?? [];
    assert.equal(v?.kind === 'video' && `${v.codec} ${v.width}x${v.height}`, 'h264 640x360');
    assert.equal(a?.kind === 'audio' && `${a.codec} ${a.sampleRate} ${a.channels}`, 'aac 44100 1');
    const frames = video('good-bframes');
    assert.equal(frames.length, 90);
    assert.equal(frames.filter((unit) => unit.key).length, 3);
    assert.ok(frames[0]?.key, 'first video unit is a keyframe');
    assert.ok(
      frames.some((unit) => unit.pts !== unit.dts),
      'B-frames give composition offsets',
    );
    assert.ok(frames.every((unit) => unit.pts >= unit.dts));
    assertMonotonic(frames, 'video');
    assertMonotonic(audio('good-bframes'), 'audio');
    assert.ok(audio('good-bframes').length > 100);
    assert.ok(
      frames.every((unit) => unit.data.byteLength > 4 && (unit.data[0] ?? 1) === 0),
      'AVCC 4-byte lengths',
    );
  });

  it('takes H.264 without B-frames and 48 kHz stereo AAC', async () => {
    const ffmpeg = spawnTracked(
      'ffmpeg',
      patternArgs(url('good-nob'), { seconds: 2, bframes: false, realtime: false }),
    );
    assert.equal(await ffmpeg.exited, 0, ffmpeg.stderr());
    const [v, a] = lastDescription('good-nob')?.tracks ?? [];
    assert.equal(v?.codec, 'h264');
    assert.equal(a?.kind === 'audio' && `${a.codec} ${a.sampleRate} ${a.channels}`, 'aac 48000 2');
    const frames = video('good-nob');
    assert.equal(frames.length, 60);
    assert.ok(frames.every((unit) => unit.pts === unit.dts));
    assertMonotonic(frames, 'video');
    const steps = new Set(
      audio('good-nob')
        .slice(1, 40)
        .map((unit, i) => unit.dts - (audio('good-nob')[i]?.dts ?? 0)),
    );
    assert.deepEqual([...steps], [1024], 'AAC units sit on exact 1024-sample steps');
  });

  for (const [name, width, height, channels, frames, packets] of [
    ['testsrc', 980, 540, 1, 300, 501],
    ['mptestsrc', 512, 512, 1, 342, 501],
    ['bbb', 960, 540, 2, 897, 1501],
  ] as const) {
    it(`takes the AV1 + Opus E-FLV ${name}.flv from our E-RTMP publisher`, {
      skip: eflvFixturesMissing,
    }, async () => {
      const key = `good-eflv-${name}`;
      const child = publishFlv(['--url', url(key), '--file', join(FIXTURES, `${name}.flv`)]);
      assert.equal(await child.exited, 0, child.stderr());
      await waitFor('all units', () => video(key).length === frames && audio(key).length === packets, 10_000);
      const [v, a] = lastDescription(key)?.tracks ?? [];
      assert.equal(v?.kind === 'video' && `${v.codec} ${v.width}x${v.height}`, `av1 ${width}x${height}`);
      assert.match(v?.codecString ?? '', /^av01\.[012]\.\d\d[MH]\./);
      assert.equal(a?.kind === 'audio' && `${a.codec} ${a.sampleRate} ${a.channels}`, `opus 48000 ${channels}`);
      assert.ok(video(key)[0]?.key);
      assertMonotonic(video(key), 'video');
      assertMonotonic(audio(key), 'audio');
    });
  }

  it('takes AV1 (libaom) + Opus (libopus) made by ffmpeg from our E-RTMP publisher (av01, Opus)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtmp-av1-'));
    try {
      const sample = makeAv1Sample(dir, 2);
      const key = 'good-av1-ffmpeg';
      const child = publishFlv(['--url', url(key), '--av1-ivf', sample.ivf, '--opus-ogg', sample.ogg]);
      assert.equal(await child.exited, 0, child.stderr());
      await waitFor('every AV1 unit', () => video(key).length === sample.frames, 10_000);
      await waitFor('every Opus unit', () => audio(key).length === sample.audioPackets, 10_000);
      const [v, a] = lastDescription(key)?.tracks ?? [];
      assert.equal(v?.kind === 'video' && `${v.codec} ${v.width}x${v.height}`, 'av1 320x180');
      assert.match(v?.codecString ?? '', /^av01\.0\.\d\d[MH]\.08$/);
      assert.equal(a?.kind === 'audio' && `${a.codec} ${a.sampleRate} ${a.channels}`, 'opus 48000 1');
      assert.equal(video(key).filter((unit) => unit.key).length, 2, 'a keyframe every second');
      assert.ok(video(key)[0]?.key);
      assertMonotonic(video(key), 'video');
      assertMonotonic(audio(key), 'audio');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('takes HEVC from ffmpeg -f hevc through our E-RTMP publisher (hvc1)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtmp-hevc-'));
    try {
      const file = join(dir, 'in.hevc');
      const encode = spawnSync('ffmpeg', [
        ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=30'],
        ...[
          '-t',
          '2',
          '-c:v',
          'libx265',
          '-preset',
          'ultrafast',
          '-x265-params',
          'bframes=0:keyint=30:log-level=error',
        ],
        ...['-f', 'hevc', file],
      ]);
      assert.equal(encode.status, 0, encode.stderr?.toString());
      const child = publishFlv(['--url', url('good-hevc'), '--hevc-annexb', file, '--fps', '30']);
      assert.equal(await child.exited, 0, child.stderr());
      await waitFor('60 HEVC units', () => video('good-hevc').length === 60, 10_000);
      const [v] = lastDescription('good-hevc')?.tracks ?? [];
      assert.equal(v?.kind === 'video' && `${v.codec} ${v.width}x${v.height}`, 'h265 640x360');
      assert.match(v?.codecString ?? '', /^hvc1\.1\./);
      assert.equal(video('good-hevc').filter((unit) => unit.key).length, 2);
      assertMonotonic(video('good-hevc'), 'video');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("passes ffmpeg's digest handshake check (as a player) and refuses playback with a clear status", async () => {
    const ffmpeg = spawnTracked('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'verbose',
      '-nostdin',
      '-i',
      url('good-play'),
      '-f',
      'null',
      '-',
    ]);
    assert.notEqual(await ffmpeg.exited, 0);
    assert.match(ffmpeg.stderr(), /This server accepts publishing only/);
    assert.doesNotMatch(ffmpeg.stderr(), /validating failed|Signature mismatch/);
  });

  it('refuses a wrong key: ffmpeg exits non-zero and nothing is published', async () => {
    const refusedBefore = server.stats.refusedPublishes;
    const ffmpeg = spawnTracked('ffmpeg', patternArgs(url('bad-key'), { seconds: 2, realtime: false }));
    assert.notEqual(await ffmpeg.exited, 0);
    assert.equal(hub.getByStreamId('bad-key'), undefined);
    assert.equal(recorded.has('bad-key'), false);
    assert.equal(server.stats.refusedPublishes, refusedBefore + 1);
    const publisher = new RtmpPublisher();
    await assert.rejects(publisher.connect(url('bad-key?token=1')), /NetStream\.Publish\.BadName/);
    assert.match(await publisher.closed, /./);
  });

  it('refuses a second publisher while the first is live, and the first goes on', async () => {
    const first = spawnTracked('ffmpeg', patternArgs(url('good-dup'), { seconds: 8 }));
    await waitFor('first publisher live', () => video('good-dup').length > 10);
    const second = spawnTracked('ffmpeg', patternArgs(url('good-dup'), { seconds: 2, realtime: false }));
    assert.notEqual(await second.exited, 0);
    const publisher = new RtmpPublisher();
    await assert.rejects(publisher.connect(url('good-dup')), /NetStream\.Publish\.BadName/);
    const count = video('good-dup').length;
    await waitFor('first publisher continues', () => video('good-dup').length > count + 15);
    assert.equal(record('good-dup').streams.length, 1);
    await first.stop();
  });

  it('resumes the same live stream on a reconnect inside the window and ends it outside', async () => {
    const tags = flvSample().tags.filter((tag) => tag.timestampMs < 2000);
    const send = async (key: string, offsetMs: number) => {
      const publisher = new RtmpPublisher();
      await publisher.connect(url(key));
      for (const tag of tags) {
        await publisher.writeTag({ ...tag, timestampMs: tag.timestampMs + offsetMs });
      }
      await publisher.close();
    };
    await send('good-reconnect', 0);
    await waitFor('first session units', () => video('good-reconnect').length > 30, 10_000);
    const firstStream = hub.getByStreamId('good-reconnect');
    const before = video('good-reconnect').length;
    await send('good-reconnect', 0);
    await waitFor('second session units', () => video('good-reconnect').length > before + 30, 10_000);
    assert.equal(hub.getByStreamId('good-reconnect'), firstStream, 'same LiveStream resumed');
    assert.equal(record('good-reconnect').streams.length, 1);
    const resumedUnit = video('good-reconnect')[before];
    assert.equal(resumedUnit?.discontinuity, true, 'first unit after the reconnect is marked');
    assertMonotonic(video('good-reconnect'), 'video across the reconnect');
    assert.deepEqual(record('good-reconnect').statuses, ['LIVE', 'RECONNECTING', 'LIVE', 'RECONNECTING']);

    await waitFor('stream ends after the window', () => hub.getByStreamId('good-reconnect') === undefined, 10_000);
    assert.equal(record('good-reconnect').statuses.at(-1), 'OFFLINE');
    assert.ok(firstStream?.endReason);
    await send('good-reconnect', 0);
    await waitFor('new stream', () => record('good-reconnect').streams.length === 2, 10_000);
    assert.notEqual(hub.getByStreamId('good-reconnect'), firstStream);
  });

  it('counts bad media packets inside a good session and goes on; a bad sequence header closes only its session', async () => {
    const sample = flvSample();
    const { tags } = sample;
    const badBefore = server.stats.badPackets;
    const publisher = new RtmpPublisher();
    await publisher.connect(url('good-badpackets'));
    let injected = 0;
    for (const [i, tag] of tags.entries()) {
      await publisher.writeTag(tag);
      if (i % 50 === 25) {
        await publisher.writeTag({ type: 9, timestampMs: tag.timestampMs, data: Uint8Array.of(0x12, 0) });
        await publisher.writeTag({ type: 8, timestampMs: tag.timestampMs, data: Uint8Array.of(0x9f, 0x4f) });
        await publisher.writeTag({ type: 9, timestampMs: tag.timestampMs, data: Uint8Array.of(0x97, 200) });
        injected += 3;
      }
    }
    await publisher.close();
    await waitFor(
      'every good unit',
      () =>
        video('good-badpackets').length === sample.videoFrames &&
        audio('good-badpackets').length === sample.audioFrames,
      10_000,
    );
    assert.equal(server.stats.badPackets, badBefore + injected);

    const other = spawnTracked('ffmpeg', patternArgs(url('good-beside-bad'), { seconds: 4 }));
    await waitFor('other publisher live', () => video('good-beside-bad').length > 10);
    const errorsBefore = server.stats.protocolErrors;
    const broken = new RtmpPublisher();
    await broken.connect(url('good-bad-config'));
    await broken.writeTag({ type: 9, timestampMs: 0, data: Uint8Array.of(0x17, 0, 0, 0, 0, 1, 0x64) });
    assert.match(await broken.closed, /closed/);
    assert.equal(record('good-bad-config').descriptions.length, 0);
    assert.equal(record('good-bad-config').statuses.includes('LIVE'), false);
    assert.equal(server.stats.protocolErrors, errorsBefore + 1);
    assert.equal(await other.exited, 0, other.stderr());
    assert.equal(video('good-beside-bad').length, 120);
  });

  it('answers a PingRequest and acknowledges received bytes per the announced window', async () => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    const handshake = new ClientHandshake(true);
    const reader = new ChunkReader();
    const writer = new ChunkWriter();
    const received: RtmpMessage[] = [];
    let handshakeDone = false;
    socket.write(handshake.hello());
    socket.on('data', (chunk: Buffer) => {
      let bytes: Uint8Array = chunk;
      if (!handshakeDone) {
        const step = handshake.push(bytes);
        if (!step.done) {
          return;
        }
        handshakeDone = true;
        socket.write(step.reply);
        socket.write(writer.write(windowAckSizeMessage(1000)));
        socket.write(writer.write(userControlMessage(UserControlEvent.pingRequest, 1234)));
        socket.write(
          writer.write({
            csid: 4,
            typeId: MessageType.audio,
            streamId: 1,
            timestamp: 0,
            payload: new Uint8Array(1500),
          }),
        );
        bytes = step.rest;
      }
      received.push(...reader.push(bytes));
    });
    const ping = await waitFor('PingResponse', () =>
      received.find((m) => m.typeId === MessageType.userControl && readU32(m.payload, 2) === 1234),
    );
    assert.equal(ping?.payload[1], UserControlEvent.pingResponse);
    const ack = await waitFor('Acknowledgement', () => received.find((m) => m.typeId === MessageType.acknowledgement));
    assert.ok((readU32(ack?.payload ?? new Uint8Array(0)) ?? 0) >= 1000 + 1 + 2 * 1536);
    socket.destroy();
  });

  it('refuses connections over the limit', async () => {
    const limited = new RtmpServer({ hub, authorizer, log: silentLogger, maxConnections: 1 });
    const limitedPort = await limited.listen(0, '127.0.0.1');
    try {
      const first = new RtmpPublisher();
      await first.connect(`rtmp://127.0.0.1:${limitedPort}/live/good-limit`);
      assert.equal(limited.connectionCount, 1);
      const second = new RtmpPublisher();
      await assert.rejects(second.connect(`rtmp://127.0.0.1:${limitedPort}/live/good-limit-2`));
      assert.equal(limited.stats.refusedOverLimit, 1);
      await first.close();
      await waitFor('connection gone', () => limited.connectionCount === 0);
    } finally {
      await limited.close();
    }
  });

  it('closes a garbage handshake, a malformed chunk stream and an idle connection, each with a logged reason, while ffmpeg keeps publishing', async () => {
    const stats = { ...server.stats };
    const ffmpeg = spawnTracked('ffmpeg', patternArgs(url('good-robust'), { seconds: 6 }));
    await waitFor('publisher live', () => video('good-robust').length > 10);

    let mark = rtmpLog.records.length;
    const http = connect(port, '127.0.0.1');
    http.on('error', () => {});
    http.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await closedSocket(http);
    assertClosedWithReason(rtmpLog.since(mark), /^bad handshake: \S/);

    mark = rtmpLog.records.length;
    const broken = connect(port, '127.0.0.1');
    broken.on('error', () => {});
    const handshake = new ClientHandshake();
    broken.write(handshake.hello());
    await new Promise<void>((resolve) => {
      broken.on('data', (chunk: Buffer) => {
        const step = handshake.push(chunk);
        if (step.done) {
          broken.write(step.reply);
          broken.write(Uint8Array.of(0x45, 0, 0, 0, 0, 0, 10, 20));
          resolve();
        }
      });
    });
    await closedSocket(broken);
    assertClosedWithReason(rtmpLog.since(mark), /^protocol error: \S/);

    mark = rtmpLog.records.length;
    const oversized = connect(port, '127.0.0.1');
    oversized.on('error', () => {});
    const handshake2 = new ClientHandshake();
    oversized.write(handshake2.hello());
    oversized.on('data', (chunk: Buffer) => {
      const step = handshake2.push(chunk);
      if (step.done && step.reply.byteLength > 0) {
        oversized.write(step.reply);
        oversized.write(Uint8Array.of(0x03, 0, 0, 0, 0xff, 0xff, 0xff, 20, 0, 0, 0, 0));
      }
    });
    await closedSocket(oversized);
    assertClosedWithReason(rtmpLog.since(mark), /^protocol error: \S/);

    mark = rtmpLog.records.length;
    const silent = connect(port, '127.0.0.1');
    silent.on('error', () => {});
    await closedSocket(silent);
    assertClosedWithReason(rtmpLog.since(mark), /^handshake not finished within 2000 ms$/);

    assert.ok(server.stats.handshakeFailures >= stats.handshakeFailures + 1, 'garbage handshake counted');
    assert.ok(server.stats.protocolErrors >= stats.protocolErrors + 2, 'malformed chunk streams counted');
    assert.ok(server.stats.timeouts >= stats.timeouts + 1, 'silent connection timed out');
    const count = video('good-robust').length;
    await waitFor('publisher continues', () => video('good-robust').length > count + 15);
    assert.equal(await ffmpeg.exited, 0, ffmpeg.stderr());
    assert.equal(video('good-robust').length, 180);
  });
});

describe('RTMPS ingest', { skip: ffmpegMissing || (hasCommand('openssl') ? false : 'openssl not installed') }, () => {
  let tlsServer: RtmpServer;
  let tlsPort = 0;
  let dir = '';
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rtmps-'));
    const made = spawnSync('openssl', [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'],
      ...['-subj', '/CN=localhost', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')],
    ]);
    assert.equal(made.status, 0, made.stderr?.toString());
    tlsServer = new RtmpServer({
      hub,
      authorizer,
      log: silentLogger,
      tls: { cert: readFileSync(join(dir, 'cert.pem')), key: readFileSync(join(dir, 'key.pem')) },
    });
    tlsPort = await tlsServer.listen(0, '127.0.0.1');
  });
  after(async () => {
    await tlsServer.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('takes ffmpeg publishing over rtmps:// with a self-signed certificate', async () => {
    const target = `rtmps://127.0.0.1:${tlsPort}/live/good-tls`;
    const ffmpeg = spawnTracked(
      'ffmpeg',
      patternArgs(target, { seconds: 2, realtime: false, outputArgs: ['-tls_verify', '0'] }),
    );
    assert.equal(await ffmpeg.exited, 0, ffmpeg.stderr());
    const [v, a] = lastDescription('good-tls')?.tracks ?? [];
    assert.equal(v?.kind === 'video' && `${v.codec} ${v.width}x${v.height}`, 'h264 640x360');
    assert.equal(a?.codec, 'aac');
    assert.equal(video('good-tls').length, 60);
  });

  it('takes our publisher over rtmps:// and refuses plain RTMP on the TLS port', async () => {
    const publisher = new RtmpPublisher();
    await publisher.connect(`rtmps://127.0.0.1:${tlsPort}/live/good-tls-client`, {
      tls: { rejectUnauthorized: false },
    });
    for (const tag of flvSample().tags.filter((tag) => tag.timestampMs < 1000)) {
      await publisher.writeTag(tag);
    }
    await publisher.close();
    await waitFor('units over TLS', () => video('good-tls-client').length > 10, 10_000);
    const plain = new RtmpPublisher();
    await assert.rejects(plain.connect(`rtmp://127.0.0.1:${tlsPort}/live/good-x`, { timeoutMs: 3000 }));
    await sleep(50);
  });
});
