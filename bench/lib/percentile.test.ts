import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ms, percentile } from './percentile.js';

test('percentile uses the nearest rank of the sorted values', () => {
  const values = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
  assert.equal(percentile(values, 50), 5);
  assert.equal(percentile(values, 99), 10);
  assert.equal(percentile(values, 0), 1);
  assert.ok(Number.isNaN(percentile([], 50)));
  assert.equal(ms(Number.NaN), '—');
  assert.equal(ms(12.345), '12.3');
});
