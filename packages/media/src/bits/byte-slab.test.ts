import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ByteSlab } from './byte-slab.js';

describe('ByteSlab', () => {
  test('cuts ranges one after the other from one slab, 8-byte aligned, never the same bytes twice', () => {
    const slab = new ByteSlab(64);
    const a = slab.take(5);
    const b = slab.take(10);
    assert.equal(a.byteLength, 5);
    assert.equal(b.byteLength, 10);
    assert.equal(a.buffer, b.buffer);
    assert.equal(b.byteOffset - a.byteOffset, 8);
    a.fill(1);
    b.fill(2);
    assert.deepEqual([...a], [1, 1, 1, 1, 1]);
  });

  test('starts a new slab when a range does not fit; the old ranges keep their bytes', () => {
    const slab = new ByteSlab(64);
    const a = slab.take(30);
    a.fill(7);
    const b = slab.take(30);
    const c = slab.take(30);
    c.fill(9);
    assert.equal(a.buffer, b.buffer);
    assert.notEqual(b.buffer, c.buffer);
    assert.ok(a.every((byte) => byte === 7));
  });

  test('a range above half a slab gets memory of its own', () => {
    const slab = new ByteSlab(64);
    const small = slab.take(8);
    const large = slab.take(40);
    const next = slab.take(8);
    assert.notEqual(large.buffer, small.buffer);
    assert.equal(next.buffer, small.buffer);
    assert.equal(large.byteLength, 40);
  });

  test('hands out plain Uint8Arrays and copies into them', () => {
    const slab = new ByteSlab(64);
    const a = slab.takeBytes(3);
    const b = slab.copy(Uint8Array.of(4, 5, 6));
    assert.equal(a.constructor, Uint8Array);
    assert.equal(b.constructor, Uint8Array);
    assert.equal(a.buffer, b.buffer);
    assert.equal(b.byteOffset - a.byteOffset, 8);
    assert.deepEqual([...b], [4, 5, 6]);
  });
});
