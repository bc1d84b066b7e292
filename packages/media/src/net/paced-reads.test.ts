import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, it } from 'node:test';
import { until } from '../testing/until.js';
import { adoptWithReusedReads, newReadBuffer, READ_BUFFER_BYTES, type ReadHandler, ReadPacer } from './paced-reads.js';

/** A pauseOnConnect server on 127.0.0.1 whose accepted sockets are adopted with `onRead`, all reading into one buffer. */
async function listen(onRead: ReadHandler): Promise<{ server: Server; port: number; adopted: Socket[] }> {
  const adopted: Socket[] = [];
  const readBuffer = newReadBuffer();
  const server = createServer({ pauseOnConnect: true }, (accepted) => {
    const socket = adoptWithReusedReads(accepted, readBuffer, onRead);
    if (socket) {
      adopted.push(socket);
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  return { server, port: typeof address === 'object' && address ? address.port : 0, adopted };
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) {
    cleanup();
  }
});

describe('adoptWithReusedReads', () => {
  it('hands every byte over in order, from two connections, as views of the one buffer, and the server counts no connection left', async () => {
    const received = new Map<Socket, Uint8Array[]>();
    const buffers = new Set<ArrayBufferLike>();
    const { server, port, adopted } = await listen((bytes, socket) => {
      assert.equal(bytes.constructor, Uint8Array);
      buffers.add(bytes.buffer);
      const copies = received.get(socket) ?? [];
      copies.push(bytes.slice());
      received.set(socket, copies);
      return true;
    });
    const sent = [1, 2].map((seed) => new Uint8Array(1_000_000).map((_, i) => (i * 7 + (i >> 9) + seed) & 0xff));
    const clients = sent.map(() => connect(port, '127.0.0.1'));
    cleanups.push(() => {
      for (const client of clients) {
        client.destroy();
      }
    });
    for (let at = 0; at < 1_000_000; at += 10_000) {
      for (const [i, client] of clients.entries()) {
        client.write(sent[i]?.subarray(at, at + 10_000) as Uint8Array);
      }
    }
    const total = (): number => [...received.values()].flat().reduce((sum, read) => sum + read.byteLength, 0);
    await until(() => total() >= 2_000_000, 'every byte sent on both connections');
    assert.equal(adopted.length, 2);
    const joined = adopted.map((socket) => new Uint8Array(Buffer.concat(received.get(socket) ?? [])));
    // Which adopted socket is which client is not known: match by content.
    assert.deepEqual(new Set(joined.map((bytes) => bytes[0])), new Set(sent.map((bytes) => bytes[0])));
    for (const bytes of joined) {
      assert.deepEqual(
        bytes,
        sent.find((candidate) => candidate[0] === bytes[0]),
      );
    }
    assert.equal(buffers.size, 1, 'every read lands in the one buffer');
    assert.equal([...buffers][0]?.byteLength, READ_BUFFER_BYTES);
    for (const client of clients) {
      client.end();
    }
    await Promise.all(adopted.map((socket) => once(socket, 'end')));
    for (const socket of adopted) {
      socket.end();
    }
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
});

describe('ReadPacer', () => {
  /**
   * A connection whose server side holds its socket in `pacer` after every read (each a small
   * write, read whole), once its first byte has been read.
   */
  async function heldConnection(pacer: ReadPacer): Promise<{ reads: Uint8Array[]; client: Socket; socket: Socket }> {
    const reads: Uint8Array[] = [];
    const { server, port, adopted } = await listen((bytes, socket, drained) => {
      reads.push(bytes);
      assert.equal(drained, true, 'small writes are read whole');
      pacer.hold(socket);
      return false;
    });
    cleanups.push(() => server.close());
    const client = connect(port, '127.0.0.1');
    cleanups.push(() => client.destroy());
    client.write(Uint8Array.of(1));
    await until(() => reads.length === 1, 'the first read');
    return { reads, client, socket: adopted[0] as Socket };
  }

  it('keeps a held socket from reading until the pacer resumes it, then hands over what gathered in one read', async () => {
    const pacer = new ReadPacer(60_000);
    cleanups.push(() => pacer.close());
    assert.equal(pacer.enabled, true);
    assert.equal(new ReadPacer(0).enabled, false, 'a period of 0 turns merged reads off');
    const { reads, client, socket } = await heldConnection(pacer);
    for (let i = 0; i < 20; i++) {
      client.write(new Uint8Array(100).fill(i));
    }
    await new Promise<void>((resolve) => client.write(new Uint8Array(0), () => resolve()));
    // The bytes are in the kernel; nothing may read them while the socket is held.
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(reads.length, 1, 'no read while held');
    pacer.resumeHeld();
    await until(() => reads.length === 2, 'the read after the tick');
    assert.equal(reads[1]?.byteLength, 2000, 'the twenty writes arrive as one read');
    assert.equal(reads[1]?.[1999], 19);
    socket.destroy();
  });

  it('releases one held socket at once (a viewer arrived), without waiting for the tick', async () => {
    const pacer = new ReadPacer(60_000);
    cleanups.push(() => pacer.close());
    const { reads, client, socket } = await heldConnection(pacer);
    await new Promise<void>((resolve) => client.write(new Uint8Array(300).fill(7), () => resolve()));
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(reads.length, 1, 'held: nothing read yet');
    pacer.release(socket);
    await until(() => reads.length === 2, 'the read after the release');
    assert.equal(reads[1]?.byteLength, 300);
    socket.destroy();
  });
});
