import assert from 'node:assert/strict';
import { createSocket, type Socket } from 'node:dgram';
import { once } from 'node:events';
import { afterEach, describe, it } from 'node:test';
import { until } from '../testing/until.js';
import { DatagramDrain, DrainTimer } from './datagram-drain.js';

const sockets: Socket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) {
    socket.close();
  }
});

async function bound(): Promise<{ socket: Socket; port: number }> {
  const socket = createSocket('udp4');
  sockets.push(socket);
  socket.bind(0, '127.0.0.1');
  await once(socket, 'listening');
  return { socket, port: socket.address().port };
}

/** A socket connected to 127.0.0.1:`port` whose reads and sends go through a drain. */
async function connectedDrain(port: number): Promise<{ socket: Socket; drain: DatagramDrain }> {
  const socket = createSocket('udp4');
  sockets.push(socket);
  socket.on('error', () => undefined);
  socket.connect(port, '127.0.0.1');
  await once(socket, 'connect');
  const drain = DatagramDrain.take(socket);
  assert.ok(drain, 'this Node exposes the UDP handle');
  return { socket, drain };
}

async function sendAll(port: number, payloads: readonly Uint8Array[]): Promise<void> {
  const sender = createSocket('udp4');
  for (const payload of payloads) {
    await new Promise<void>((resolve, reject) =>
      sender.send(payload, port, '127.0.0.1', (error) => (error ? reject(error) : resolve())),
    );
  }
  sender.close();
}

describe('DatagramDrain', () => {
  it('reads every queued datagram in order with no message event, reports an empty socket, and gives the socket back', async () => {
    const { socket, port } = await bound();
    let events = 0;
    socket.on('message', () => events++);
    const drain = DatagramDrain.take(socket);
    assert.ok(drain, 'this Node exposes the UDP handle');
    const payloads = Array.from({ length: 50 }, (_, i) => new Uint8Array(1316).fill(i));
    await sendAll(port, payloads);
    const read: Uint8Array[] = [];
    await until(() => {
      assert.equal(
        drain.drain((bytes) => read.push(bytes.slice())),
        undefined,
      );
      return read.length === payloads.length;
    }, 'the 50 datagrams');
    assert.deepEqual(read, payloads);
    assert.equal(events, 0);
    assert.equal(
      drain.drain(() => assert.fail('nothing is left')),
      undefined,
    );
    drain.release();
    await sendAll(port, [new Uint8Array([7])]);
    await until(() => events === 1, 'a message event after release');
  });

  it('sends datagrams on a connected socket with write(2), and reports the refusal once the peer is gone', async () => {
    const { socket: peer, port } = await bound();
    const received: Uint8Array[] = [];
    peer.on('message', (message) => received.push(Uint8Array.from(message)));
    const { drain } = await connectedDrain(port);
    const payloads = [Uint8Array.of(1, 2, 3), new Uint8Array(1316).fill(4)];
    for (const payload of payloads) {
      assert.equal(drain.send(payload), undefined);
    }
    await until(() => received.length === payloads.length, 'both datagrams');
    assert.deepEqual(received, payloads);
    sockets.splice(sockets.indexOf(peer), 1);
    await new Promise<void>((resolve) => peer.close(() => resolve()));
    let failed: string | undefined;
    await until(() => {
      failed = drain.send(Uint8Array.of(5)) ?? drain.drain(() => undefined);
      return failed !== undefined;
    }, 'the refusal');
    assert.equal(failed, 'ECONNREFUSED');
  });

  it('reports the error of a connected socket whose peer is gone', async () => {
    const { port } = await bound();
    const gone = sockets.pop() as Socket;
    await new Promise<void>((resolve) => gone.close(() => resolve()));
    const { socket, drain } = await connectedDrain(port);
    socket.send(new Uint8Array([1]));
    let failed: string | undefined;
    await until(() => {
      failed = drain.drain(() => undefined);
      return failed !== undefined;
    }, 'the refusal');
    assert.equal(failed, 'ECONNREFUSED');
  });
});

describe('DrainTimer', () => {
  it('runs every registered drain each period until removed', async () => {
    const timer = new DrainTimer(5, true);
    let runs = 0;
    const drain = () => runs++;
    timer.add(drain);
    await until(() => runs >= 3, 'three periods');
    timer.remove(drain);
    const after = runs;
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.equal(runs, after);
  });
});
