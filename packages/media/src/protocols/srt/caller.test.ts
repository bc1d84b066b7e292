/** Our SRT caller against libsrt listeners: ffmpeg's `srt://…?mode=listener` and srt-live-transmit. */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { after, describe, it } from 'node:test';
import { silentLogger } from '../../ports.js';
import type { StreamDescription } from '../../stream/track.js';
import { LossyRelay } from '../../testing/lossy-relay.js';
import { testSourceArgs } from '../../testing/test-source.js';
import { until } from '../../testing/until.js';
import { SrtCall, type SrtCallEnd, type SrtCallOptions } from './caller.js';

const ffmpegMissing = spawnSync('ffmpeg', ['-hide_banner', '-protocols'], { encoding: 'utf8' }).stdout?.includes('srt')
  ? false
  : 'ffmpeg with libsrt is not installed';
const transmitMissing = spawnSync('srt-live-transmit', ['-version']).error
  ? 'srt-live-transmit is not installed'
  : false;

/** A free UDP port on 127.0.0.1. */
async function freeUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const port = socket.address().port;
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

const children: ChildProcess[] = [];

/** Test media as live MPEG-TS to an SRT listener: ffmpeg alone, or ffmpeg piped into srt-live-transmit. */
function listener(port: number, tool: 'ffmpeg' | 'srt-live-transmit', query = ''): ChildProcess {
  const media = ['-hide_banner', '-loglevel', 'error', '-re', ...testSourceArgs({ seconds: 30 }), '-f', 'mpegts'];
  const url = `srt://127.0.0.1:${port}?mode=listener${query}`;
  const child =
    tool === 'ffmpeg'
      ? spawn('ffmpeg', [...media, url], { stdio: 'ignore' })
      : spawn('sh', ['-c', `exec ffmpeg ${media.join(' ')} - | exec srt-live-transmit -q file://con "${url}"`], {
          stdio: 'ignore',
          detached: true,
        });
  children.push(child);
  return child;
}

function stopChild(child: ChildProcess): void {
  if (child.exitCode === null && child.pid !== undefined) {
    try {
      process.kill(child.spawnargs[0] === 'sh' ? -child.pid : child.pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
}

/** Calls 127.0.0.1:`port` until it ends or `enough` says so; answers what arrived and how it ended. */
async function call(
  port: number,
  extra: Partial<SrtCallOptions> = {},
  enough = (units: number) => units >= 60,
): Promise<{ end: SrtCallEnd; units: number; description: StreamDescription | undefined; call: SrtCall }> {
  let units = 0;
  let description: StreamDescription | undefined;
  let end: SrtCallEnd | undefined;
  const srt = new SrtCall({
    address: '127.0.0.1',
    port,
    latencyMs: 200,
    sink: {
      describe: (described) => {
        description = described;
      },
      unit: () => {
        units++;
      },
    },
    log: silentLogger,
    onEnd: (ended) => {
      end = ended;
    },
    ...extra,
  });
  await until(() => end !== undefined || enough(units), 'the call to end or deliver', 20_000);
  srt.close('enough');
  return { end: end as SrtCallEnd, units, description, call: srt };
}

describe('SrtCall against libsrt listeners', { skip: ffmpegMissing }, () => {
  after(() => {
    for (const child of children) {
      stopChild(child);
    }
  });

  it('receives H.264 + AAC from an ffmpeg listener, Stream ID sent, until closed', async () => {
    const port = await freeUdpPort();
    const source = listener(port, 'ffmpeg');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const result = await call(port, { streamId: 'live/camera' });
    assert.deepEqual(result.end, { kind: 'stopped', message: 'enough' });
    assert.deepEqual(result.description?.tracks.map((track) => track.codec).sort(), ['aac', 'h264']);
    assert.ok(result.units >= 60);
    stopChild(source);
  });

  it('decrypts an AES-256 listener with its passphrase (the key we make, wrapped with its KEK)', async () => {
    const port = await freeUdpPort();
    const source = listener(port, 'ffmpeg', '&passphrase=correct-horse-battery&pbkeylen=32');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const result = await call(port, { passphrase: 'correct-horse-battery' });
    assert.equal(result.end.kind, 'stopped');
    assert.deepEqual(result.description?.tracks.map((track) => track.codec).sort(), ['aac', 'h264']);
    stopChild(source);
  });

  it('reports the rejection of a wrong passphrase and of a missing one', async () => {
    const port = await freeUdpPort();
    const source = listener(port, 'ffmpeg', '&passphrase=correct-horse-battery');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const wrong = await call(port, { passphrase: 'not-the-passphrase' });
    assert.equal(wrong.end.kind, 'refused');
    assert.match(wrong.end.message, /code 1010 \(wrong passphrase\)/);
    const none = await call(port);
    assert.equal(none.end.kind, 'refused');
    assert.match(none.end.message, /code 1011/);
    assert.equal(none.units, 0);
    stopChild(source);
  });

  it('ends when nothing listens (ICMP port unreachable or the handshake timeout)', async () => {
    const port = await freeUdpPort();
    const result = await call(port, { connectTimeoutMs: 1500 });
    assert.ok(['failed', 'timeout'].includes(result.end.kind), JSON.stringify(result.end));
    assert.equal(result.call.isEstablished, false);
  });

  it('receives from srt-live-transmit, in clear and encrypted', { skip: transmitMissing }, async () => {
    for (const passphrase of [undefined, 'srt-live-transmit-secret']) {
      const port = await freeUdpPort();
      const source = listener(port, 'srt-live-transmit', passphrase ? `&passphrase=${passphrase}` : '');
      await new Promise((resolve) => setTimeout(resolve, 800));
      const result = await call(port, passphrase ? { passphrase } : {});
      assert.equal(result.end.kind, 'stopped', JSON.stringify(result.end));
      assert.deepEqual(result.description?.tracks.map((track) => track.codec).sort(), ['aac', 'h264']);
      stopChild(source);
    }
  });

  it('ends as `ended` when the listener sends SHUTDOWN', async () => {
    const port = await freeUdpPort();
    const source = listener(port, 'ffmpeg');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const result = await call(port, {}, (units) => {
      if (units >= 30 && source.exitCode === null) {
        source.kill('SIGINT');
      }
      return false;
    });
    assert.equal(result.end.kind, 'ended', JSON.stringify(result.end));
  });

  it('sends through 5 % loss and 50 ms jitter to srt-live-transmit: retransmissions deliver every byte', {
    skip: transmitMissing,
  }, async () => {
    const port = await freeUdpPort();
    const receiver = spawn(
      'srt-live-transmit',
      [
        '-q',
        '-a:no',
        `srt://127.0.0.1:${port}?mode=listener&latency=400&passphrase=lossy-network-secret`,
        'file://con',
      ],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    children.push(receiver);
    let received = 0;
    receiver.stdout?.on('data', (chunk: Buffer) => {
      received += chunk.length;
    });
    const exited = new Promise((resolve) => receiver.on('close', resolve));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const relay = new LossyRelay(port, 0.05, 50);
    const relayPort = await relay.listen();
    let ended: SrtCallEnd | undefined;
    const srt = new SrtCall({
      address: '127.0.0.1',
      port: relayPort,
      role: 'send',
      latencyMs: 400,
      passphrase: 'lossy-network-secret',
      log: silentLogger,
      onEnd: (end) => {
        ended = end;
      },
    });
    try {
      await until(() => srt.isEstablished || ended !== undefined, 'the handshake', 10_000);
      assert.equal(ended, undefined, JSON.stringify(ended));
      const payload = new Uint8Array(1316).fill(0x47);
      const count = 600;
      for (let i = 0; i < count; i++) {
        srt.send(payload);
        if (i % 20 === 19) {
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      }
      await until(() => srt.unacknowledged === 0, 'every packet acknowledged', 15_000);
      // The receiver holds the last packets for its latency; a SHUTDOWN now would discard them.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const stats = srt.senderStats;
      srt.close('done');
      await exited;
      assert.equal(received, count * 1316);
      assert.ok(relay.dropped > 0 && (stats?.packetsRetransmitted ?? 0) > 0, JSON.stringify(stats));
      assert.equal(stats?.packetsDropped, 0);
    } finally {
      srt.close('test over');
      relay.close();
      stopChild(receiver);
    }
  });
});
