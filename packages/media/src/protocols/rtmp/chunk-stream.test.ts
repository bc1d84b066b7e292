import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProtocolError } from '../../errors.js';
import { ChunkReader } from './chunk-reader.js';
import { ChunkWriter, chunkMessages } from './chunk-writer.js';
import { MessageType, type RtmpMessage, setChunkSizeMessage } from './messages.js';

function message(csid: number, timestamp: number, size: number, typeId: number = MessageType.video): RtmpMessage {
  const payload = new Uint8Array(size);
  for (let i = 0; i < size; i++) {
    payload[i] = (i * 7 + csid) & 0xff;
  }
  return { csid, typeId, streamId: 1, timestamp, payload };
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(parts));
}

/** A chunk with an explicit header type (the writer only emits types 0 and 3). */
function chunk(fmt: number, csid: number, fields: number[], data: number[]): Uint8Array {
  return Uint8Array.of((fmt << 6) | csid, ...fields, ...data);
}

describe('RTMP chunk stream', () => {
  it('round-trips messages through writer and reader for 1-, 2- and 3-byte chunk stream ids', () => {
    const writer = new ChunkWriter();
    const reader = new ChunkReader();
    const messages = [
      message(3, 0, 0),
      message(4, 40, 300),
      message(63, 80, 128),
      message(64, 120, 129),
      message(319, 1, 5000),
      message(320, 2, 257),
      message(65599, 3, 1),
    ];
    const got = reader.push(concat(messages.map((m) => writer.write(m))));
    assert.deepEqual(got, messages);
  });

  it('handles extended timestamps, also repeated on type-3 continuation chunks', () => {
    const writer = new ChunkWriter();
    const reader = new ChunkReader();
    const big = message(6, 0x01234567, 1000);
    const bytes = writer.write(big);
    assert.equal(bytes.byteLength, 1 + 11 + 4 + 1000 + 7 * (1 + 4));
    assert.deepEqual(reader.push(bytes), [big]);
    const edge = message(6, 0xffffff, 10);
    assert.deepEqual(reader.push(writer.write(edge)), [edge]);
  });

  it('cuts several messages into one buffer, each payload given as head and data, as write does one by one', () => {
    const writer = new ChunkWriter();
    writer.chunkSize = 128;
    const messages = [
      message(6, 0, 345),
      message(100, 40, 128),
      message(400, 0xfffffe, 129),
      message(4, 0x01234567, 1000, MessageType.audio),
      message(6, 80, 0),
    ];
    for (const split of [0, 5, 128, 200]) {
      const parts = messages.map((m) => ({
        ...m,
        head: m.payload.subarray(0, split),
        data: m.payload.subarray(split),
      }));
      const bytes = chunkMessages(parts, 128);
      assert.deepEqual(new Uint8Array(bytes), concat(messages.map((m) => writer.write(m))), `split ${split}`);
      assert.deepEqual(new ChunkReader().push(bytes), messages);
    }
  });

  it('reassembles from arbitrary splits, one byte at a time included', () => {
    const writer = new ChunkWriter();
    const messages = [message(4, 10, 1000), message(6, 20, 3), message(4, 30, 129)];
    const bytes = concat(messages.map((m) => writer.write(m)));
    for (const step of [1, 2, 7, 128, 129, 1000]) {
      const reader = new ChunkReader();
      const got: RtmpMessage[] = [];
      for (let at = 0; at < bytes.byteLength; at += step) {
        got.push(...reader.push(bytes.subarray(at, at + step)));
      }
      assert.deepEqual(got, messages, `step ${step}`);
    }
  });

  it('resolves timestamp deltas of type 1, 2 and 3 headers', () => {
    const reader = new ChunkReader();
    const got = reader.push(
      concat([
        chunk(0, 4, [0, 0x03, 0xe8, 0, 0, 2, 8, 1, 0, 0, 0], [1, 2]),
        chunk(1, 4, [0, 0, 20, 0, 0, 1, 8], [3]),
        chunk(2, 4, [0, 0, 30], [4]),
        chunk(3, 4, [], [5]),
      ]),
    );
    assert.deepEqual(
      got.map((m) => [m.timestamp, m.typeId, m.streamId, [...m.payload]]),
      [
        [1000, 8, 1, [1, 2]],
        [1020, 8, 1, [3]],
        [1050, 8, 1, [4]],
        [1080, 8, 1, [5]],
      ],
    );
  });

  it('applies Set Chunk Size and Abort as they arrive', () => {
    const writer = new ChunkWriter();
    const reader = new ChunkReader();
    const control = writer.write(setChunkSizeMessage(4096));
    writer.chunkSize = 4096;
    const big = message(6, 5, 4000);
    assert.deepEqual(reader.push(concat([control, writer.write(big)])).at(-1), big);
    assert.equal(reader.chunkSize, 4096);

    const small = new ChunkReader();
    const partial = chunk(0, 6, [0, 0, 0, 0, 1, 0, 9, 1, 0, 0, 0], new Array(128).fill(1));
    const abort = chunk(0, 2, [0, 0, 0, 0, 0, 4, 2, 0, 0, 0, 0], [0, 0, 0, 6]);
    const fresh = chunk(0, 6, [0, 0, 0, 0, 0, 1, 9, 1, 0, 0, 0], [7]);
    const got = small.push(concat([partial, abort, fresh]));
    assert.deepEqual(
      got.map((m) => [m.typeId, m.payload.byteLength]),
      [
        [MessageType.abort, 4],
        [9, 1],
      ],
    );
  });

  it('copies every message out of its read, so the read can be reused, and returns plain Uint8Arrays', () => {
    const writer = new ChunkWriter();
    const audio = message(4, 0, 100, MessageType.audio);
    const video = message(6, 0, 300, MessageType.video);
    const video2 = message(6, 33, 200, MessageType.video);
    const command = message(3, 0, 90, MessageType.commandAmf0);
    const reader = new ChunkReader();
    // One read holding a whole one-chunk message, then one holding several messages and the
    // first bytes of the next chunk header; each read is overwritten once pushed, as the server's
    // read buffer is by the next read.
    const alone = Buffer.from(writer.write(audio));
    const [first] = reader.push(alone);
    alone.fill(0xee);
    const next = writer.write(command);
    const read = Buffer.from(
      concat([writer.write(audio), writer.write(video), writer.write(video2), next.subarray(0, 2)]),
    );
    const got = reader.push(read);
    read.fill(0xee);
    const rest = Buffer.from(next.subarray(2));
    got.push(...reader.push(rest));
    rest.fill(0xee);
    assert.deepEqual([first, ...got], [audio, audio, video, video2, command]);
    for (const m of [first, ...got]) {
      assert.equal(m?.payload.constructor, Uint8Array);
    }
    // Messages reassembled side by side do not overlap: changing one leaves the others intact.
    got[1]?.payload.fill(0);
    assert.deepEqual([got[0], got[2]], [audio, video2]);
  });

  it('rejects type 1-3 headers on a new chunk stream, oversized messages, a zero chunk size and too many chunk streams', () => {
    assert.throws(() => new ChunkReader().push(chunk(1, 4, [0, 0, 0, 0, 0, 1, 8], [1])), ProtocolError);
    assert.throws(() => new ChunkReader().push(chunk(3, 4, [], [])), /before any type-0 header/);
    assert.throws(
      () => new ChunkReader({ maxMessageSize: 1000 }).push(chunk(0, 4, [0, 0, 0, 0, 0x03, 0xe9, 8, 1, 0, 0, 0], [])),
      /1001 bytes .* exceeds 1000/,
    );
    assert.throws(
      () => new ChunkReader().push(chunk(0, 2, [0, 0, 0, 0, 0, 4, 1, 0, 0, 0, 0], [0, 0, 0, 0])),
      /Set Chunk Size of 0/,
    );
    const writer = new ChunkWriter();
    const many = concat(Array.from({ length: 5 }, (_, i) => writer.write(message(10 + i, 0, 1))));
    assert.throws(() => new ChunkReader({ maxChunkStreams: 4 }).push(many), /more than 4 chunk streams/);
  });
});
