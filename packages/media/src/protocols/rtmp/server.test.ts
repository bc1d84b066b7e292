import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Hub } from '../../hub/hub.js';
import { silentLogger } from '../../ports.js';
import { CapturingLogger } from '../../testing/capturing-logger.js';
import { ClientHandshake } from './handshake.js';
import { RtmpServer } from './server.js';

const IDLE_MS = 200;

/** Connects and completes the RTMP handshake, then leaves the socket silent. */
function handshaken(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', reject);
    const handshake = new ClientHandshake();
    socket.write(handshake.hello());
    socket.on('data', (chunk: Buffer) => {
      const step = handshake.push(chunk);
      if (step.done && step.reply.byteLength > 0) {
        socket.write(step.reply);
        resolve(socket);
      }
    });
  });
}

function closed(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    if (socket.destroyed) {
      resolve();
      return;
    }
    socket.once('close', () => resolve());
  });
}

describe('RtmpServer idle timeout', () => {
  const log = new CapturingLogger();
  const hub = new Hub({ log: silentLogger });
  const server = new RtmpServer({
    hub,
    authorizer: { authorize: async () => null },
    log,
    idleTimeoutMs: IDLE_MS,
    handshakeTimeoutMs: 60_000,
  });
  let port = 0;
  before(async () => {
    port = await server.listen(0, '127.0.0.1');
  });
  after(async () => {
    await server.close();
    hub.close();
  });

  it('closes a connection that sends nothing after the handshake, with the logged reason, and counts it', async () => {
    const socket = await handshaken(port);
    await closed(socket);
    const closes = log.records.filter((record) => record.msg === 'RTMP session closed');
    assert.equal(closes.length, 1, JSON.stringify(log.records));
    assert.equal(closes[0]?.level, 'warn');
    assert.equal(closes[0]?.fields.reason, `no data for ${IDLE_MS} ms`);
    assert.equal(server.stats.timeouts, 1);
    assert.equal(server.connectionCount, 0);
  });

  it('closes a connection that never sends a byte once the idle timeout passes', async () => {
    const mark = log.records.length;
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    await closed(socket);
    const closes = log.since(mark).filter((record) => record.msg === 'RTMP session closed');
    assert.equal(closes[0]?.fields.reason, `no data for ${IDLE_MS} ms`);
    assert.equal(server.stats.timeouts, 2);
  });
});
