/**
 * The GOP cache keeps its own copy of the units since the last keyframe: what it hands out equals
 * what was written, shares no memory with the writer's buffers or with the cache, and stays intact
 * while later GOPs are written over the cache's reused buffer.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MediaUnit } from '../stream/media-unit.js';
import { GOP_CACHE_MAX_BYTES, GopCache } from './gop-cache.js';

/** A unit whose `size` bytes are all `fill`, as a view into a shared slab (like the ingest's). */
function unit(slab: Uint8Array, at: number, size: number, fill: number, key = false): MediaUnit {
  const data = slab.subarray(at, at + size);
  data.fill(fill);
  return { trackId: 1, dts: at, pts: at, key, data };
}

describe('GopCache', () => {
  it('hands out equal units in buffers of their own, unchanged by later GOPs and by the writer reusing its memory', () => {
    const cache = new GopCache();
    const slab = new Uint8Array(300_000);
    cache.add(unit(slab, 0, 100_000, 1, true));
    cache.add({ ...unit(slab, 100_000, 50_001, 2), discontinuity: true });
    const first = cache.copies();
    assert.deepEqual(
      first.map((u) => [u.dts, u.key, u.discontinuity, u.data.byteLength, u.data[0], u.data.at(-1)]),
      [
        [0, true, undefined, 100_000, 1, 1],
        [100_000, false, true, 50_001, 2, 2],
      ],
    );
    assert.notEqual(first[0]?.data.buffer, slab.buffer);
    slab.fill(9);
    cache.restart();
    cache.add(unit(slab, 0, 120_000, 3, true));
    const second = cache.copies();
    assert.ok(
      first[0]?.data.every((b) => b === 1),
      'a copy handed out is not overwritten by the next GOP',
    );
    assert.ok(first[1]?.data.every((b) => b === 2));
    assert.equal(second.length, 1);
    assert.ok(second[0]?.data.every((b) => b === 3));
    assert.notEqual(second[0]?.data.buffer, first[0]?.data.buffer);
  });

  it('keeps units intact across the growth of its buffer and empties itself past its limit', () => {
    const cache = new GopCache();
    const slab = new Uint8Array(1_000);
    for (let i = 0; i < 200; i++) {
      cache.add(unit(slab, 0, 997, i & 0xff, i === 0));
    }
    const copies = cache.copies();
    assert.equal(copies.length, 200);
    assert.ok(copies.every((u, i) => u.data.byteLength === 997 && u.data.every((b) => b === (i & 0xff))));
    assert.ok(cache.heldBytes >= 200 * 997);
    cache.add({ trackId: 1, dts: 0, pts: 0, key: false, data: new Uint8Array(GOP_CACHE_MAX_BYTES) });
    assert.equal(cache.length, 0);
    assert.deepEqual(cache.copies(), []);
    cache.release();
    assert.equal(cache.heldBytes, 0);
  });
});
