import assert from 'node:assert/strict';
import { once } from 'node:events';
import { writeSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, it } from 'node:test';
import { until } from '../testing/until.js';
import { writeDirect } from './direct-write.js';

const open: (Server | Socket)[] = [];
afterEach(() => {
  for (const each of open.splice(0)) {
    if ('destroy' in each) {
      each.destroy();
    } else {
      each.close();
    }
  }
});

/** A connected pair on 127.0.0.1: the writer, and the peer's side, paused (it reads nothing until resumed). */
async function connectedPair(): Promise<{ writer: Socket; peer: Socket }> {
  const server = createServer({ pauseOnConnect: true });
  open.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const accepted = once(server, 'connection') as Promise<[Socket]>;
  const writer = connect((server.address() as { port: number }).port, '127.0.0.1');
  open.push(writer);
  await once(writer, 'connect');
  const [peer] = await accepted;
  open.push(peer);
  return { writer, peer };
}

/** Bytes numbered from `from` (mod 251), so a byte out of order or missing shows. */
function numbered(from: number, length: number): Buffer {
  const bytes = Buffer.allocUnsafe(length);
  for (let i = 0; i < length; i++) {
    bytes[i] = (from + i) % 251;
  }
  return bytes;
}

/** Resumes the peer and collects everything it reads until `length` bytes came. */
async function readAll(peer: Socket, length: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let received = 0;
  peer.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    received += chunk.byteLength;
  });
  peer.resume();
  await until(() => received >= length, `${length} bytes at the peer`, 30_000);
  return Buffer.concat(chunks);
}

/** The descriptor of a socket (what the test fills the kernel's send buffer through). */
function fdOf(socket: Socket): number {
  return (socket as unknown as { _handle: { fd: number } })._handle.fd;
}

describe('writeDirect', () => {
  it('sends to an idle socket by write(2): Node queues and counts none of it, the peer gets every byte', async () => {
    const { writer, peer } = await connectedPair();
    const first = numbered(0, 100_000);
    const second = numbered(100_000, 50_000);
    assert.equal(writeDirect(writer, first), true);
    assert.equal(writeDirect(writer, second), true);
    assert.equal(writer.writableLength, 0);
    assert.equal(writer.bytesWritten, 0, 'nothing went through the socket stream');
    assert.deepEqual(await readAll(peer, 150_000), Buffer.concat([first, second]));
  });

  it('queues in Node what a partial write left, sends later writes behind it, and drains in order', async () => {
    const { writer, peer } = await connectedPair();
    // More than the kernel's send and receive buffers hold: the write(2) takes only part of it.
    const big = numbered(0, 48 * 2 ** 20);
    assert.equal(writeDirect(writer, big), false, 'the rest waits in Node');
    const queued = writer.writableLength;
    assert.ok(queued > 0 && queued < big.byteLength, `the kernel took part (${queued} of ${big.byteLength} queued)`);
    const after = numbered(big.byteLength, 10_000);
    assert.equal(writeDirect(writer, after), false);
    assert.equal(writer.writableLength, queued + after.byteLength, 'a write behind a queue goes into the queue');
    const drained = once(writer, 'drain');
    assert.deepEqual(await readAll(peer, big.byteLength + after.byteLength), Buffer.concat([big, after]));
    await drained;
    assert.equal(writer.writableLength, 0);
  });

  it('queues a write the kernel answers with EAGAIN (its send buffer full) and sends it once the peer reads', async () => {
    const { writer, peer } = await connectedPair();
    const written: Buffer[] = [];
    let offset = 0;
    const add = (bytes: Buffer) => {
      written.push(bytes);
      offset += bytes.byteLength;
    };
    // Fills the kernel's send buffer through the descriptor until it answers EAGAIN, then writes at
    // once; the kernel may free room in between (acknowledgements), so until a write is queued.
    for (let attempt = 0; attempt < 100 && writer.writableLength === 0; attempt++) {
      for (;;) {
        const chunk = numbered(offset, 1 << 20);
        try {
          add(chunk.subarray(0, writeSync(fdOf(writer), chunk)));
        } catch (error) {
          assert.equal((error as NodeJS.ErrnoException).code, 'EAGAIN');
          break;
        }
      }
      const bytes = numbered(offset, 1000);
      add(bytes);
      writeDirect(writer, bytes);
    }
    assert.ok(writer.writableLength > 0, 'a write found the send buffer full and waits in Node');
    assert.deepEqual(await readAll(peer, offset), Buffer.concat(written));
    await until(() => writer.writableLength === 0, "Node's queue sent");
  });

  it('reports a write to a connection the peer reset as Node does: an error on the socket, no throw', async () => {
    const { writer, peer } = await connectedPair();
    const failed = once(writer, 'error');
    peer.resetAndDestroy();
    await once(peer, 'close');
    for (let i = 0; i < 50 && !writer.destroyed; i++) {
      writeDirect(writer, numbered(0, 10_000));
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const [error] = (await failed) as [NodeJS.ErrnoException];
    assert.match(error.code ?? '', /^(EPIPE|ECONNRESET)$/);
  });
});
