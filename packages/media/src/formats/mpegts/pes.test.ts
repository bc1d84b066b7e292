/** PES headers and 33-bit timestamps (ISO/IEC 13818-1 §2.4.3.6, §2.4.3.7). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UnsupportedError } from '../../errors.js';
import { PES_STREAM_ID, pesHeader, TIMESTAMP_MODULO, wrapTimestamp } from './pes.js';

/** Reads a 5-byte PTS/DTS field back, checking the prefix and marker bits. */
function readTimestamp(data: Uint8Array, offset: number, prefix: number): number {
  const b = (i: number): number => data[offset + i] ?? 0;
  assert.equal(b(0) >> 4, prefix);
  assert.equal(b(0) & 1, 1);
  assert.equal(b(2) & 1, 1);
  assert.equal(b(4) & 1, 1);
  return ((b(0) >> 1) & 7) * 2 ** 30 + ((b(1) << 7) | (b(2) >> 1)) * 2 ** 15 + ((b(3) << 7) | (b(4) >> 1));
}

describe('PES header', () => {
  it('wraps timestamps to 33 bits, negatives included', () => {
    assert.equal(wrapTimestamp(TIMESTAMP_MODULO + 5), 5);
    assert.equal(wrapTimestamp(-1), TIMESTAMP_MODULO - 1);
    assert.equal(wrapTimestamp(1234.4), 1234);
  });

  it('writes PTS and DTS with their prefixes when they differ', () => {
    const pts = TIMESTAMP_MODULO - 3000;
    const header = pesHeader(PES_STREAM_ID.video, 1000, pts, pts - 6000);
    assert.deepEqual([...header.subarray(0, 4)], [0, 0, 1, 0xe0]);
    assert.equal((header[4] ?? 0) * 256 + (header[5] ?? 0), 3 + 10 + 1000);
    assert.deepEqual([header[6], header[7], header[8]], [0x84, 0xc0, 10]);
    assert.equal(readTimestamp(header, 9, 0b0011), pts);
    assert.equal(readTimestamp(header, 14, 0b0001), pts - 6000);
  });

  it('writes PTS only when DTS equals it', () => {
    const header = pesHeader(PES_STREAM_ID.audio, 300, 90_000, 90_000);
    assert.equal(header.length, 14);
    assert.deepEqual([header[7], header[8]], [0x80, 5]);
    assert.equal(readTimestamp(header, 9, 0b0010), 90_000);
  });

  it('uses an unbounded length for large video PES and refuses large audio PES', () => {
    const header = pesHeader(PES_STREAM_ID.video, 100_000, 0);
    assert.deepEqual([header[4], header[5]], [0, 0]);
    assert.throws(() => pesHeader(PES_STREAM_ID.audio, 100_000, 0), UnsupportedError);
  });
});
