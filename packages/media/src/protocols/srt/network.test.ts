/**
 * The SRT listener over a bad network and through libsrt's own relay: a UDP relay between ffmpeg
 * and the listener drops and delays (reorders) the publisher's packets at random; at 1 % and 5 % loss with
 * 50 ms jitter and 200 ms latency every published frame arrives; at 10 % loss with 20 ms latency
 * holes outlive the latency and are given up (too-late drop) without harm to the listener.
 * srt-live-transmit (libsrt, srt-tools) relays ffmpeg's MPEG-TS from its stdin to the listener.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { Hub } from '../../hub/hub.js';
import { silentLogger } from '../../ports.js';
import { LossyRelay } from '../../testing/lossy-relay.js';
import { testSourceArgs } from '../../testing/test-source.js';
import { until } from '../../testing/until.js';
import { SrtServer } from './server.js';

const ffmpegMissing = spawnSync('ffmpeg', ['-hide_banner', '-protocols'], { encoding: 'utf8' }).stdout?.includes('srt')
  ? false
  : 'ffmpeg with libsrt is not installed';
const transmitMissing = spawnSync('srt-live-transmit', ['-version'], { encoding: 'utf8' }).error
  ? 'srt-live-transmit (srt-tools) is not installed'
  : false;

/** Runs a shell pipeline or program; resolves with its exit code and stderr. */
function run(command: string, args: readonly string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4096);
    });
    child.on('close', (code) => resolve({ code: code ?? -1, stderr }));
  });
}

const SECONDS = 4;
const FRAMES = SECONDS * 30;

describe('SRT over a lossy network and through srt-live-transmit', { skip: ffmpegMissing }, () => {
  const hub = new Hub({ log: silentLogger, reconnectWindowMs: 0 });
  /** Video units per stream id. */
  const frames = new Map<string, number>();
  hub.addOutput((stream) => {
    frames.set(stream.streamId, 0);
    const detach = stream.attach({
      onDescription: () => {},
      onUnit: (unit) => {
        if (unit.trackId === 1) {
          frames.set(stream.streamId, (frames.get(stream.streamId) ?? 0) + 1);
        }
      },
    });
    return { close: detach };
  });
  const authorizer = { authorize: async (key: string) => ({ streamId: key, playbackId: key }) };
  const server = new SrtServer({ hub, authorizer, log: silentLogger, latencyMs: 200 });
  const fast = new SrtServer({ hub, authorizer, log: silentLogger, latencyMs: 20 });
  let port = 0;
  let fastPort = 0;
  before(async () => {
    port = await server.listen(0, '127.0.0.1');
    fastPort = await fast.listen(0, '127.0.0.1');
  });
  after(async () => {
    await server.close();
    await fast.close();
    hub.close();
  });

  /** Publishes the test source through a relay with `loss`; answers the listener's statistics of it. */
  async function publishThrough(target: number, loss: number, key: string, latency: string, jitterMs = 50) {
    const relay = new LossyRelay(target, loss, jitterMs);
    const relayPort = await relay.listen();
    let stats: ReturnType<SrtServer['connections']>[number]['receiver']['stats'] | undefined;
    const watch = setInterval(() => {
      const connection = [...server.connections(), ...fast.connections()].find(
        (c) => c.options.publisher.stream.streamId === key,
      );
      stats = connection ? { ...connection.receiver.stats } : stats;
    }, 20);
    try {
      const result = await run('ffmpeg', [
        ...['-hide_banner', '-loglevel', 'error', '-re', ...testSourceArgs({ seconds: SECONDS, gop: 30 })],
        ...['-f', 'mpegts', `srt://127.0.0.1:${relayPort}?streamid=${key}&linger=5&latency=${latency}`],
      ]);
      assert.equal(result.code, 0, result.stderr);
      await until(() => hub.getByStreamId(key) === undefined, `the end of ${key}`);
      return { stats, relay };
    } finally {
      clearInterval(watch);
      relay.close();
    }
  }

  for (const loss of [0.01, 0.05]) {
    it(`delivers every frame at ${loss * 100} % loss and 50 ms jitter with 200 ms latency`, async () => {
      const key = `loss-${loss * 100}`;
      const { stats, relay } = await publishThrough(port, loss, key, '200000');
      assert.ok(relay.dropped > 0, 'the relay dropped packets');
      assert.equal(frames.get(key), FRAMES, JSON.stringify(stats));
      assert.ok((stats?.packetsLost ?? 0) > 0 && (stats?.packetsRetransmitted ?? 0) > 0, JSON.stringify(stats));
    });
  }

  it('gives up holes beyond what 20 ms latency can recover at 10 % loss, and goes on serving', async () => {
    const { stats } = await publishThrough(fastPort, 0.1, 'too-late', '20000', 10);
    assert.ok((stats?.packetsDropped ?? 0) > 0, `too-late drops: ${JSON.stringify(stats)}`);
    assert.ok((frames.get('too-late') ?? 0) > 0, 'frames still arrive');
    const again = await publishThrough(fastPort, 0, 'after-drops', '20000', 0);
    assert.equal(frames.get('after-drops'), FRAMES, JSON.stringify(again.stats));
  });

  it('takes MPEG-TS relayed by srt-live-transmit (libsrt) from its stdin', { skip: transmitMissing }, async () => {
    const transmit = spawn(
      'srt-live-transmit',
      ['-q', 'file://con', `srt://127.0.0.1:${port}?streamid=relayed&linger=5`],
      {
        stdio: ['pipe', 'ignore', 'pipe'],
      },
    );
    const encoder = spawn(
      'ffmpeg',
      ['-hide_banner', '-loglevel', 'error', '-re', ...testSourceArgs({ seconds: SECONDS }), '-f', 'mpegts', '-'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    encoder.stdout.pipe(transmit.stdin);
    const encoded = await new Promise<number | null>((resolve) => encoder.on('close', resolve));
    assert.equal(encoded, 0);
    // srt-live-transmit keeps running after its input ends: let the pipe drain, then stop it (it lingers to send the rest).
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const exited = new Promise((resolve) => transmit.on('close', resolve));
    transmit.kill('SIGINT');
    await exited;
    await until(() => hub.getByStreamId('relayed') === undefined, 'the relayed stream to end');
    assert.equal(frames.get('relayed'), FRAMES);
  });
});
