import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProtocolError } from '../../errors.js';
import { ClientHandshake, HANDSHAKE_SIZE, ServerHandshake } from './handshake.js';

describe('RTMP handshake', () => {
  it('completes between our client and server, passing on the bytes after C2', () => {
    const client = new ClientHandshake();
    const server = new ServerHandshake();
    const c0c1 = client.hello();
    assert.equal(c0c1.byteLength, 1 + HANDSHAKE_SIZE);
    const first = server.push(c0c1.subarray(0, 100));
    assert.equal(first.reply.byteLength, 0);
    const answer = server.push(c0c1.subarray(100));
    assert.equal(answer.done, false);
    assert.equal(answer.reply.byteLength, 1 + 2 * HANDSHAKE_SIZE);
    assert.equal(answer.reply[0], 3);
    assert.deepEqual(answer.reply.subarray(1 + HANDSHAKE_SIZE + 8), c0c1.subarray(1 + 8), 'S2 echoes C1');
    assert.deepEqual(
      [...answer.reply.subarray(5, 9)],
      [0, 0, 0, 0],
      'S1 version bytes zero: plain handshake for librtmp',
    );
    const clientDone = client.push(answer.reply);
    assert.equal(clientDone.done, true);
    assert.deepEqual(clientDone.reply, answer.reply.subarray(1, 1 + HANDSHAKE_SIZE), 'C2 echoes S1');
    const tail = Uint8Array.of(1, 2, 3);
    const done = server.push(new Uint8Array(Buffer.concat([clientDone.reply, tail])));
    assert.equal(done.done, true);
    assert.deepEqual([...done.rest], [1, 2, 3]);
    assert.deepEqual([...server.push(Uint8Array.of(9)).rest], [9]);
  });

  it('answers a digest C1 with a digest S1/S2 the client verifies, and a plain C1 with the echo form', () => {
    for (const digest of [true, false]) {
      const client = new ClientHandshake(digest);
      const server = new ServerHandshake();
      const answer = server.push(client.hello());
      assert.equal(server.digest, digest);
      assert.equal(client.push(answer.reply).done, true);
      assert.equal(client.serverDigestValid, digest);
    }
    const client = new ClientHandshake(true);
    const answer = new ServerHandshake().push(client.hello());
    const tampered = new Uint8Array(answer.reply);
    tampered[tampered.byteLength - 1] = (tampered[tampered.byteLength - 1] ?? 0) ^ 1;
    client.push(tampered);
    assert.equal(client.serverDigestValid, false, 'a wrong S2 signature is detected');
  });

  it('rejects a version other than 3 with a reason naming what it looks like', () => {
    assert.throws(() => new ServerHandshake().push(Buffer.from('GET / HTTP/1.1\r\n')), /looks like HTTP or TLS/);
    assert.throws(() => new ServerHandshake().push(Uint8Array.of(0x16, 3, 1)), /looks like HTTP or TLS/);
    assert.throws(() => new ServerHandshake().push(Uint8Array.of(6)), /RTMPE/);
    assert.throws(() => new ServerHandshake().push(Uint8Array.of(0)), ProtocolError);
    assert.throws(() => new ClientHandshake().push(Uint8Array.of(4)), /S0 version 4/);
  });
});
