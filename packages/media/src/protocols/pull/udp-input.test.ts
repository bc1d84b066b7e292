/**
 * MPEG-TS over UDP pulled in process: datagrams from the checked sender reach the demuxer, a
 * second sender on the same port is ignored, a guard refusal ends the attempt before any bind,
 * stopping releases the port, and an unwatched stream read once per merged period still gets every
 * datagram, as it does once watched.
 */
import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { describe, it } from 'node:test';
import { silentLogger } from '../../ports.js';
import type { MediaUnit } from '../../stream/media-unit.js';
import { adtsHeaderFor, transportStream } from '../../testing/ts-streams.js';
import { until } from '../../testing/until.js';
import { allowEveryAddress, type PullAddressGuard, PullRefusedError } from './address-guard.js';
import type { PullInputContext } from './pull-input.js';
import { classifyPullUri, isPullTarget } from './pull-target.js';
import { openUdpInput, udpInputs } from './udp-input.js';

/** A transport stream of `count` one-frame ADTS PES packets whose payload bytes are all `fill`. */
function adtsProgram(fill: number, count: number): Uint8Array {
  const header = adtsHeaderFor(100);
  const frame = Uint8Array.from([...header, ...new Uint8Array(100).fill(fill)]);
  return transportStream(
    [{ pid: 0x101, streamType: 0x0f }],
    Array.from({ length: count }, (_, i) => ({ pid: 0x101, streamId: 0xc0, pts: i * 1920, payload: frame })),
  );
}

/** A UDP socket bound on `host` that sends transport streams to 127.0.0.1:`port` in datagrams of seven packets. */
async function sender(host: string, port: number): Promise<{ send(ts: Uint8Array): Promise<void>; close(): void }> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, host, resolve));
  return {
    async send(ts) {
      for (let at = 0; at < ts.length; at += 1316) {
        await new Promise<void>((resolve, reject) =>
          socket.send(ts.subarray(at, at + 1316), port, '127.0.0.1', (error) => (error ? reject(error) : resolve())),
        );
      }
    },
    close: () => socket.close(),
  };
}

/** Sends `ts` from `host` to 127.0.0.1:`port` from a socket of its own. */
async function send(ts: Uint8Array, host: string, port: number): Promise<void> {
  const socket = await sender(host, port);
  await socket.send(ts);
  socket.close();
}

async function freePort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

function context(
  uri: string,
  units: MediaUnit[],
  guard: PullAddressGuard = allowEveryAddress,
  watched?: () => boolean,
): PullInputContext {
  const target = classifyPullUri(uri);
  assert.ok(isPullTarget(target));
  return {
    target,
    guard,
    log: silentLogger,
    sink: {
      resolved: () => undefined,
      describe: () => undefined,
      unit: (unit) => units.push(unit),
      ...(watched ? { watched } : {}),
    },
  };
}

describe('MPEG-TS over UDP, in process', () => {
  it("reads the checked sender's datagrams and ignores another sender's", async () => {
    const port = await freePort();
    const units: MediaUnit[] = [];
    const input = openUdpInput(context(`udp://127.0.0.1:${port}`, units));
    await new Promise((resolve) => setTimeout(resolve, 100));
    await send(adtsProgram(9, 20), '127.0.0.2', port);
    await send(adtsProgram(1, 20), '127.0.0.1', port);
    await until(() => units.length >= 19, 'the frames of 127.0.0.1');
    assert.deepEqual(new Set(units.map((unit) => unit.data[0])), new Set([1]));
    input.stop('test over');
    assert.equal((await input.ended).kind, 'stopped');
    const again = openUdpInput(context(`udp://127.0.0.1:${port}`, []));
    again.stop('the port was released');
    assert.equal((await again.ended).kind, 'stopped');
  });

  it('reads every datagram of an unwatched stream with merged reads, and again once it is watched', async () => {
    const port = await freePort();
    const units: MediaUnit[] = [];
    let watched = false;
    const input = udpInputs({ mergedReadMs: 100 })(
      context(`udp://127.0.0.1:${port}`, units, allowEveryAddress, () => watched),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const source = await sender('127.0.0.1', port);
    try {
      await source.send(adtsProgram(1, 20));
      await until(() => units.length >= 19, 'the frames sent while unwatched');
      watched = true;
      await source.send(adtsProgram(2, 20));
      await until(() => units.filter((unit) => unit.data[0] === 2).length >= 19, 'the frames sent once watched');
      assert.deepEqual(new Set(units.map((unit) => unit.data[0])), new Set([1, 2]));
    } finally {
      source.close();
      input.stop('test over');
    }
    assert.equal((await input.ended).kind, 'stopped');
  });

  it('ends with the refusal of the guard', async () => {
    const refuse: PullAddressGuard = {
      resolve: async () => {
        throw new PullRefusedError('private_not_allowed', 'multicast needs the node opt-in');
      },
    };
    const input = openUdpInput(context('udp://239.1.1.1:5000', [], refuse));
    const end = await input.ended;
    assert.equal(end.kind, 'private_not_allowed');
  });
});
