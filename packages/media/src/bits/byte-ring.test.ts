import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ByteRing } from './byte-ring.js';

describe('ByteRing', () => {
  test('cuts ranges one after the other, 8-byte aligned, and comes round to the start of the same buffer', () => {
    const ring = new ByteRing(64);
    const a = ring.take(20);
    const b = ring.take(20);
    assert.equal(b.byteOffset - a.byteOffset, 24);
    const c = ring.take(20);
    assert.equal(c.buffer, a.buffer);
    assert.equal(c.byteOffset, a.byteOffset);
    assert.ok(ring.overwrites(c, a));
    assert.ok(!ring.overwrites(c, b));
  });

  test('a kept range is never reused: later ranges come from a fresh buffer', () => {
    const ring = new ByteRing(64);
    const a = ring.take(30);
    a.fill(7);
    ring.keep(a);
    const b = ring.take(30);
    const c = ring.take(30);
    b.fill(1);
    c.fill(2);
    assert.notEqual(b.buffer, a.buffer);
    assert.ok(a.every((byte) => byte === 7));
    assert.ok(!ring.overwrites(c, a));
  });

  test('a request above half the ring gets memory of its own, which keep leaves alone', () => {
    const ring = new ByteRing(64);
    const a = ring.take(8);
    const big = ring.take(40);
    assert.notEqual(big.buffer, a.buffer);
    ring.keep(big);
    assert.equal(ring.take(8).buffer, a.buffer);
  });
});
