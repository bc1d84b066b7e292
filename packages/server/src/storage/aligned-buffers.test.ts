/** Aligned staging buffers (ADR 0081): lent at most eight at a time; a ninth borrower waits for one back and gets at least its size. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { borrowAligned } from './aligned-buffers.js';

test('a borrower past the pool waits until a buffer is released', async () => {
  const held = await Promise.all(Array.from({ length: 8 }, () => borrowAligned(100_000)));
  let resolved = false;
  const waiting = borrowAligned(300_000).then((buffer) => {
    resolved = true;
    return buffer;
  });
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(resolved, false);
  held[0]?.release();
  const ninth = await waiting;
  assert.equal(ninth.bytes.length, 300_000);
  for (const buffer of [...held, ninth]) {
    buffer.release();
  }
});
