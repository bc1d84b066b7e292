import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ValidationError } from './errors.js';
import { futureTimestamp, parseTimestamp } from './timestamps.js';

const refused = (run: () => unknown, constraint: string) =>
  assert.throws(run, (error) => error instanceof ValidationError && error.constraint === constraint);

test('parseTimestamp reads ISO 8601 dates and timestamps, with offsets', () => {
  assert.equal(parseTimestamp('2026-11-21T10:00:00Z', 'at').toISOString(), '2026-11-21T10:00:00.000Z');
  assert.equal(parseTimestamp(' 2026-11-21T10:00:00+02:00 ', 'at').toISOString(), '2026-11-21T08:00:00.000Z');
  assert.equal(parseTimestamp('2026-11-21', 'at').toISOString(), '2026-11-21T00:00:00.000Z');
});

test('parseTimestamp refuses what Date would guess at, naming the field', () => {
  for (const value of ['soon', '5', '12', 'Nov 21 2026', '2026-13-01', '']) {
    refused(() => parseTimestamp(value, 'input.expiresAt'), 'format');
  }
  assert.throws(() => parseTimestamp('soon', 'input.expiresAt'), /input\.expiresAt must be an ISO 8601 timestamp/);
});

test('futureTimestamp refuses a past or present time, and a malformed one by its format', () => {
  const now = new Date('2026-11-21T00:00:00Z');
  assert.equal(futureTimestamp('2026-11-22T00:00:00Z', 'f', now).toISOString(), '2026-11-22T00:00:00.000Z');
  refused(() => futureTimestamp('2026-11-21T00:00:00Z', 'f', now), 'future');
  refused(() => futureTimestamp('2020-01-01', 'f', now), 'future');
  refused(() => futureTimestamp('tomorrow', 'f', now), 'format');
});
