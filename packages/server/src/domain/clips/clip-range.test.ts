/**
 * GOP-aligned clip ranges: the start snaps to the segment (keyframe) at or before it, the end to
 * the end of the segment holding it; every mode resolves its fields; a range outside the recording
 * is a ValidationError naming the field.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ValidationError } from '../errors.js';
import type { IndexedSegment } from '../recordings/segment-index.js';
import { requestedRange, snapRange } from './clip-range.js';

const T0 = 1_700_000_000_000;
/** Ten 2-second segments from T0. */
const segments: IndexedSegment[] = Array.from({ length: 10 }, (_, msn) => ({
  track: 'video',
  msn,
  init: 0,
  timescale: 90_000,
  start: msn * 180_000,
  duration: 180_000,
  ept: msn * 180_000,
  wallMs: T0 + msn * 2000,
  offsetMs: msn * 2000,
  discontinuity: false,
  bytes: 100,
}));
const edge = T0 + 20_000;

const field = (error: unknown) => (error instanceof ValidationError ? error.field : String(error));

test('ABSOLUTE snaps the start back to a keyframe and the end forward to a segment boundary', () => {
  const range = snapRange(
    segments,
    requestedRange({ startUnix: (T0 + 3100) / 1000, stopUnix: (T0 + 6500) / 1000 }, edge),
  );
  assert.deepEqual(
    range.map((segment) => segment.msn),
    [1, 2, 3],
  );
});

test('a range on exact boundaries keeps them', () => {
  const range = snapRange(
    segments,
    requestedRange({ startUnix: (T0 + 4000) / 1000, stopUnix: (T0 + 8000) / 1000 }, edge),
  );
  assert.deepEqual(
    range.map((segment) => segment.msn),
    [2, 3],
  );
});

test('RELATIVE works on media time, DURATION adds to either start, CLIP_NOW counts back from the live edge', () => {
  const relative = snapRange(segments, requestedRange({ mode: 'RELATIVE', startMedia: 5, stopMedia: 9 }, edge));
  assert.deepEqual(
    relative.map((segment) => segment.msn),
    [2, 3, 4],
  );
  const duration = snapRange(segments, requestedRange({ mode: 'DURATION', startMedia: 2, duration: 2 }, edge));
  assert.deepEqual(
    duration.map((segment) => segment.msn),
    [1],
  );
  const now = snapRange(segments, requestedRange({ mode: 'CLIP_NOW', duration: 5 }, edge));
  assert.deepEqual(
    now.map((segment) => segment.msn),
    [7, 8, 9],
  );
});

test('a range not recorded is a ValidationError naming the field', () => {
  assert.throws(
    () => snapRange(segments, requestedRange({ startUnix: (T0 - 60_000) / 1000, stopUnix: (T0 + 2000) / 1000 }, edge)),
    (error) => field(error) === 'input.startUnix',
  );
  assert.throws(
    () => snapRange(segments, requestedRange({ startUnix: T0 / 1000, stopUnix: (T0 + 60_000) / 1000 }, edge)),
    (error) => field(error) === 'input.stopUnix',
  );
  assert.throws(
    () => requestedRange({ mode: 'RELATIVE', startMedia: 4 }, edge),
    (error) => field(error) === 'input.stopMedia',
  );
  assert.throws(
    () => requestedRange({ startUnix: 10, stopUnix: 5 }, edge),
    (error) => field(error) === 'input.stopUnix',
  );
  assert.throws(
    () => snapRange([], requestedRange({ mode: 'CLIP_NOW', duration: 2 }, edge)),
    (error) => field(error) === 'input.duration',
  );
});
