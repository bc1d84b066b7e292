/**
 * The push session against a real RTMP receiver (our RtmpServer feeding a second hub) with real
 * H.264/AAC and H.265 units from ffmpeg: everything arrives starting at a keyframe; H.265 goes
 * over E-RTMP because the receiver announces hvc1; a destination that is not there makes the
 * session retry, then fail, then push once the receiver listens; a destination that reads slowly
 * makes the reader drop to the next keyframe and count it; a write not taken for writeStallMs
 * ends the connection and the session retries, also when the push had caught up and its stream's
 * fan-out made the write; stop ends the push at once (idle).
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Hub, type LiveStream, type MediaUnit, silentLogger, type Track } from '@airwave/media';
import { PushSession, type PushSessionState } from '@airwave/media/protocols/push/push-session';
import { connectRtmpPush } from '@airwave/media/protocols/rtmp/push-output';
import { RtmpServer } from '@airwave/media/protocols/rtmp/server';
import type { PushConnector, PushOutput } from '@airwave/media/protocols/shared/push-output';
import { encodeTestMedia, ffmpegSkip } from '@airwave/media/testing/ffmpeg-media';
import { suiteTempDir } from '@airwave/media/testing/temp-dir';
import { until } from '@airwave/media/testing/until';

const toAddress = async (host: string) => host;
const rtmp: PushConnector = (uri, description, resolve, shared) =>
  connectRtmpPush(uri, description, resolve, {}, shared);

/**
 * An RTMP connector whose outputs send media units through `write` (a slow or stalled
 * destination) and no runs; `onConnect` is told of every connection.
 */
function withWrite(
  write: (output: PushOutput, unit: MediaUnit) => Promise<void>,
  onConnect: () => void = () => undefined,
): PushConnector {
  return async (uri, description, resolve) => {
    const output = await connectRtmpPush(uri, description, resolve);
    onConnect();
    return relayed(output, (unit) => write(output, unit));
  };
}

/** `output` with its media writes replaced: `write` for units and, when given, `writeBatch` for runs. */
function relayed(output: PushOutput, write: PushOutput['write'], writeBatch?: PushOutput['writeBatch']): PushOutput {
  return {
    ready: output.ready,
    closed: output.closed,
    get bytesSent() {
      return output.bytesSent;
    },
    describe: (d) => output.describe(d),
    write,
    ...(writeBatch ? { writeBatch } : {}),
    close: () => output.close(),
  };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

describe('push session to a real RTMP receiver', { skip: ffmpegSkip() }, () => {
  const dir = suiteTempDir('airwave-push-session-');
  let h264: { tracks: readonly Track[]; units: readonly MediaUnit[] };
  let h265: { tracks: readonly Track[]; units: readonly MediaUnit[] };
  const source = new Hub({ log: silentLogger, reconnectWindowMs: 0 });
  const sink = new Hub({ log: silentLogger, reconnectWindowMs: 0 });
  const receiver = new RtmpServer({
    hub: sink,
    authorizer: { authorize: async (key) => ({ streamId: `sink-${key}`, playbackId: `play-${key}` }) },
    log: silentLogger,
  });
  let port = 0;
  let n = 0;
  /** A push to the receiver's `key` through `connect` that gives up a write not taken in 200 ms and retries fast. */
  const sessionWithStallTimer = (stream: LiveStream, connect: PushConnector, key: string) =>
    new PushSession({
      stream,
      uri: `rtmp://127.0.0.1:${port}/live/${key}`,
      connect,
      resolve: toAddress,
      log: silentLogger,
      writeStallMs: 200,
      retry: { baseMs: 50, maxMs: 100 },
    });
  /** Every unit each receiving stream got, from its first. */
  const arrivals = new Map<string, MediaUnit[]>();
  sink.addOutput((stream) => {
    const units: MediaUnit[] = [];
    arrivals.set(stream.streamId, units);
    stream.attach({ onUnit: (unit) => units.push(unit) });
    return { close: () => undefined };
  });

  before(async () => {
    const lavfi = ['-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=30', '-f', 'lavfi', '-i', 'sine=sample_rate=48000'];
    h264 = encodeTestMedia(
      dir.path,
      [...lavfi, '-t', '4', '-c:v', 'libx264', '-g', '30', '-bf', '2', '-c:a', 'aac'],
      'a.mp4',
    );
    h265 = encodeTestMedia(dir.path, [...lavfi, '-t', '2', '-c:v', 'libx265', '-g', '30', '-c:a', 'aac'], 'b.mp4');
    port = await receiver.listen(0, '127.0.0.1');
  });
  after(async () => {
    await receiver.close();
    source.close();
    sink.close();
  });

  /** A live source stream with `media`'s tracks declared and nothing written yet. */
  function live(media: { tracks: readonly Track[] }): { stream: LiveStream; write(units: readonly MediaUnit[]): void } {
    const publisher = source.publish({ streamId: `source-${++n}`, playbackId: `p-${n}` }, 'rtmp');
    publisher.setDescription({ tracks: media.tracks });
    const write = (units: readonly MediaUnit[]): void => {
      for (const unit of units) {
        publisher.write(unit);
      }
    };
    return { stream: publisher.stream, write };
  }

  it('pushes H.264/AAC starting at a keyframe; the receiver gets every frame', async () => {
    const { stream, write } = live(h264);
    const states: PushSessionState[] = [];
    const session = new PushSession({
      stream,
      uri: `rtmp://127.0.0.1:${port}/live/k264`,
      connect: rtmp,
      resolve: toAddress,
      log: silentLogger,
      onChange: (state) => states.push(state),
    });
    const frames = h264.units.filter((unit) => unit.trackId === 1);
    write(h264.units.slice(5));
    await until(() => session.state.status === 'pushing', 'pushing');
    const received = sink.getByStreamId('sink-k264');
    assert.ok(received);
    const seen = arrivals.get('sink-k264') ?? [];
    const videoIn = () => seen.filter((unit) => unit.trackId === 1).length;
    await until(() => videoIn() >= frames.length - 30, 'frames at the receiver');
    const first = seen.find((unit) => unit.trackId === 1);
    assert.equal(first?.key, true);
    assert.deepEqual(
      received.description?.tracks.map((track) => track.codec),
      ['h264', 'aac'],
    );
    assert.ok(session.state.bytesSent > 10_000);
    await session.stop();
    assert.equal(session.state.status, 'idle');
    assert.deepEqual(
      states.map((state) => state.status),
      ['connecting', 'pushing', 'idle'],
    );
  });

  it('two pushes of one stream share its timeline: a push that starts later sends the same timestamps', async () => {
    const { stream, write } = live(h264);
    const push = (key: string) =>
      new PushSession({
        stream,
        uri: `rtmp://127.0.0.1:${port}/live/${key}`,
        connect: rtmp,
        resolve: toAddress,
        log: silentLogger,
      });
    const early = push('kearly');
    const half = Math.floor(h264.units.length / 2);
    write(h264.units.slice(0, half));
    await until(() => (arrivals.get('sink-kearly')?.length ?? 0) > 0, 'the early push arriving');
    const late = push('klate');
    await until(() => late.state.status === 'pushing', 'the late push');
    write(h264.units.slice(half));
    const video = (key: string) => (arrivals.get(`sink-${key}`) ?? []).filter((unit) => unit.trackId === 1);
    const frames = h264.units.filter((unit) => unit.trackId === 1).length;
    await until(() => video('kearly').length >= frames - 30, 'the early push complete');
    await until(
      () => video('klate').length > 0 && video('klate').at(-1)?.dts === video('kearly').at(-1)?.dts,
      'both at the last frame',
    );
    const lateTimes = video('klate').map((unit) => unit.dts);
    assert.ok((lateTimes[0] ?? 0) > 0, 'the late push starts where the stream is, not at 0');
    assert.deepEqual(
      lateTimes,
      video('kearly')
        .slice(-lateTimes.length)
        .map((unit) => unit.dts),
    );
    await Promise.all([early.stop(), late.stop()]);
  });

  it('pushes H.265 over E-RTMP to a receiver that announces hvc1', async () => {
    const { stream, write } = live(h265);
    const session = new PushSession({
      stream,
      uri: `rtmp://127.0.0.1:${port}/live/k265`,
      connect: rtmp,
      resolve: toAddress,
      log: silentLogger,
    });
    write(h265.units);
    await until(() => sink.getByStreamId('sink-k265')?.description !== undefined, 'the H.265 stream at the receiver');
    assert.equal(sink.getByStreamId('sink-k265')?.description?.tracks[0]?.codec, 'h265');
    await session.stop();
  });

  it('retries, fails after three attempts with the reason and no key, and pushes once the receiver listens', async () => {
    const { stream, write } = live(h264);
    const deadPort = await freePort();
    const session = new PushSession({
      stream,
      uri: `rtmp://127.0.0.1:${deadPort}/live/secret_key_123`,
      connect: rtmp,
      resolve: toAddress,
      log: silentLogger,
      retry: { baseMs: 50, maxMs: 200 },
    });
    write(h264.units.slice(0, 30));
    await until(() => session.state.status === 'retrying', 'retrying');
    await until(() => session.state.status === 'failed', 'failed');
    assert.match(session.state.lastError ?? '', /ECONNREFUSED/);
    assert.ok(!(session.state.lastError ?? '').includes('secret_key_123'));
    const late = new RtmpServer({
      hub: sink,
      authorizer: { authorize: async (key) => ({ streamId: `late-${key}`, playbackId: `late-${key}` }) },
      log: silentLogger,
    });
    await late.listen(deadPort, '127.0.0.1');
    try {
      write(h264.units.slice(30, 60));
      await until(() => session.state.status === 'pushing', 'pushing after the receiver came');
      assert.equal(session.state.failures, 0);
    } finally {
      await session.stop();
      await late.close();
    }
  });

  it('drops to the next keyframe and counts it when the destination reads slowly', async () => {
    const { stream, write } = live(h264);
    const slow = withWrite(async (output, unit) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      await output.write(unit);
    });
    const session = new PushSession({
      stream,
      uri: `rtmp://127.0.0.1:${port}/live/kslow`,
      connect: slow,
      resolve: toAddress,
      log: silentLogger,
      reader: { maxUnits: 40 },
    });
    write(h264.units.slice(0, 1));
    await until(() => session.state.status === 'pushing', 'pushing');
    write(h264.units.slice(1));
    await until(() => session.state.droppedUnits > 0, 'drops counted');
    await session.stop();
    assert.equal(session.state.status, 'idle');
  });

  it('ends a connection whose write the destination has not taken for writeStallMs, and retries', async () => {
    const { stream, write } = live(h264);
    let connects = 0;
    // A socket that never drains: every media write waits.
    const stalled = withWrite(
      () => new Promise<void>(() => undefined),
      () => connects++,
    );
    const session = sessionWithStallTimer(stream, stalled, 'kstall');
    write(h264.units.slice(0, 30));
    await until(() => session.state.lastError?.includes('took no data') === true, 'the stall ends the connection');
    assert.notEqual(session.state.status, 'pushing');
    await until(() => connects >= 2, 'a new connection after the stall');
    await session.stop();
    assert.equal(session.state.status, 'idle');
  });

  it('ends a connection whose runs the destination stops taking once the push caught up (written by the stream fan-out)', async () => {
    const { stream, write } = live(h264);
    let stall = false;
    // Runs go out until `stall`; then every run waits for a drain that never comes.
    const stalling: PushConnector = async (uri, description, resolve, shared) => {
      const output = await connectRtmpPush(uri, description, resolve, {}, shared);
      return relayed(
        output,
        (unit) => output.write(unit),
        (units) => (stall ? new Promise<void>(() => undefined) : output.writeBatch?.(units)),
      );
    };
    const session = sessionWithStallTimer(stream, stalling, 'kcaught');
    write(h264.units.slice(0, 30));
    await until(() => (arrivals.get('sink-kcaught')?.length ?? 0) > 0, 'the first run at the receiver');
    stall = true;
    write(h264.units.slice(30));
    await until(() => session.state.lastError?.includes('took no data') === true, 'the stall ends the connection');
    await session.stop();
    assert.equal(session.state.status, 'idle');
  });
});
