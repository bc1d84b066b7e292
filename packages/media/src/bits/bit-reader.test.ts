import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ParseError } from '../errors.js';
import { BitReader } from './bit-reader.js';
import { BitWriter } from './bit-writer.js';

describe('BitReader', () => {
  const cases: { name: string; bytes: number[]; reads: number[]; expected: number[] }[] = [
    { name: 'single bits', bytes: [0b10100000], reads: [1, 1, 1], expected: [1, 0, 1] },
    { name: 'across a byte boundary', bytes: [0x0f, 0xf0], reads: [4, 8, 4], expected: [0, 0xff, 0] },
    { name: 'full 32 bits', bytes: [0xff, 0xff, 0xff, 0xfe], reads: [32], expected: [0xfffffffe] },
    {
      name: '32 bits unaligned',
      bytes: [0x01, 0x23, 0x45, 0x67, 0x89],
      reads: [4, 32, 4],
      expected: [0, 0x12345678, 9],
    },
    { name: 'zero-bit read', bytes: [0xaa], reads: [0, 8], expected: [0, 0xaa] },
  ];
  for (const c of cases) {
    test(`readBits: ${c.name}`, () => {
      const r = new BitReader(Uint8Array.from(c.bytes));
      assert.deepEqual(
        c.reads.map((n) => r.readBits(n)),
        c.expected,
      );
    });
  }

  const golomb: { bits: string; ue: number; se: number }[] = [
    { bits: '1', ue: 0, se: 0 },
    { bits: '010', ue: 1, se: 1 },
    { bits: '011', ue: 2, se: -1 },
    { bits: '00100', ue: 3, se: 2 },
    { bits: '00101', ue: 4, se: -2 },
    { bits: '0001000', ue: 7, se: 4 },
  ];
  for (const g of golomb) {
    test(`exp-Golomb ${g.bits} = ue ${g.ue}, se ${g.se} (H.264 Table 9-2, 9-3)`, () => {
      const bytes = bitsToBytes(g.bits);
      assert.equal(new BitReader(bytes).readUE(), g.ue);
      assert.equal(new BitReader(bytes).readSE(), g.se);
    });
  }

  test('BitWriter round trip of ue/se/bits over a wide range', () => {
    const values = [0, 1, 2, 3, 254, 255, 256, 65535, 2 ** 20 + 3, 2 ** 31 - 1, 2 ** 32 - 2];
    const w = new BitWriter();
    for (const v of values) {
      w.writeUE(v)
        .writeSE(signed(v))
        .writeBits(v % 2 ** 32, 32)
        .writeBit(1);
    }
    const r = new BitReader(w.toBytes());
    for (const v of values) {
      assert.equal(r.readUE(), v);
      assert.equal(r.readSE(), signed(v));
      assert.equal(r.readBits(32), v % 2 ** 32);
      assert.equal(r.readBit(), 1);
    }
    assert.ok(r.bitsLeft() < 8);
  });

  test('bitsLeft, skipBits, byteAlign and readBytes', () => {
    const r = new BitReader(Uint8Array.from([0xff, 0x01, 0x02, 0x03]));
    assert.equal(r.bitsLeft(), 32);
    r.skipBits(3);
    assert.equal(r.bitsLeft(), 29);
    r.byteAlign();
    assert.equal(r.bitPosition, 8);
    r.byteAlign();
    assert.equal(r.bitPosition, 8);
    assert.deepEqual([...r.readBytes(2)], [1, 2]);
    assert.equal(r.readBits(8), 3);
    assert.equal(r.bitsLeft(), 0);
  });

  const failures: { name: string; bytes: number[]; run: (r: BitReader) => unknown; offset: number }[] = [
    { name: 'readBits past the end', bytes: [0xff], run: (r) => r.readBits(9), offset: 0 },
    { name: 'readBit at the end', bytes: [], run: (r) => r.readBit(), offset: 0 },
    { name: 'skipBits past the end', bytes: [0, 0], run: (r) => r.skipBits(r.readBits(8) + 9), offset: 1 },
    { name: 'ue with no stop bit', bytes: [0, 0], run: (r) => r.readUE(), offset: 2 },
    {
      name: 'ue longer than 32 bits',
      bytes: [0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff],
      run: (r) => r.readUE(),
      offset: 0,
    },
    { name: 'ue missing its suffix', bytes: [0x01], run: (r) => r.readUE(), offset: 1 },
    { name: 'readBytes past the end', bytes: [1, 2], run: (r) => r.readBytes(3), offset: 0 },
    { name: 'readUEMax out of range', bytes: [0b00100000], run: (r) => r.readUEMax(2, 'x'), offset: 0 },
  ];
  for (const f of failures) {
    test(`throws ParseError: ${f.name}`, () => {
      const r = new BitReader(Uint8Array.from(f.bytes));
      assert.throws(
        () => f.run(r),
        (error: unknown) => error instanceof ParseError && error.offset === f.offset,
      );
    });
  }

  test('offsets in errors include baseOffset', () => {
    const r = new BitReader(Uint8Array.from([1]), 100);
    r.readBits(8);
    assert.throws(
      () => r.readBit(),
      (error: unknown) => error instanceof ParseError && error.offset === 101,
    );
  });
});

/** A signed value derived from v for the round trip. */
function signed(v: number): number {
  return v % 2 === 0 ? 0 - v / 2 : (v - 1) / 2;
}

/** Packs a string of 0/1 into bytes, padding with 1 bits so trailing reads do not run out. */
function bitsToBytes(bits: string): Uint8Array {
  const padded = bits.padEnd(Math.ceil(bits.length / 8) * 8 + 8, '1');
  const out = new Uint8Array(padded.length / 8);
  for (let i = 0; i < padded.length; i++) {
    if (padded[i] === '1') {
      out[i >> 3] = (out[i >> 3] ?? 0) | (0x80 >> (i & 7));
    }
  }
  return out;
}
