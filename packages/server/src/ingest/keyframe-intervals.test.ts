/** Unit tests of key-frame interval measuring: video only, steady GOPs written once, real changes and reconnects. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { MediaUnit, Track } from '@airwave/media';
import type { TrackInfo } from '../domain/streams/stream.js';
import { KeyframeIntervals } from './keyframe-intervals.js';

const TRACKS = [
  { kind: 'video', id: 1, timescale: 90_000 },
  { kind: 'audio', id: 2, timescale: 48_000 },
] as unknown as Track[];
const INFO = [
  { id: 1, kind: 'video' },
  { id: 2, kind: 'audio' },
] as unknown as TrackInfo[];

const unit = (trackId: number, seconds: number, key: boolean, discontinuity = false): MediaUnit => ({
  trackId,
  dts: Math.round(seconds * (trackId === 1 ? 90_000 : 48_000)),
  pts: 0,
  key,
  data: new Uint8Array(),
  ...(discontinuity ? { discontinuity } : {}),
});

test('measures the video key-frame interval; a steady GOP is worth persisting once', () => {
  const intervals = new KeyframeIntervals();
  intervals.describe(TRACKS);
  assert.equal(intervals.observe(unit(1, 0, true)), false, 'one key frame is no interval');
  assert.equal(intervals.observe(unit(1, 1, false)), false);
  assert.equal(intervals.observe(unit(2, 1.5, true)), false, 'audio units are all key: never measured');
  assert.equal(intervals.observe(unit(1, 2, true)), true);
  const annotated = intervals.annotate(INFO);
  assert.equal(annotated[0]?.keyframeIntervalMs, 2000);
  assert.equal(annotated[1]?.keyframeIntervalMs, undefined);
  assert.equal(intervals.observe(unit(1, 4.1, true)), false, '2100 ms is within a tenth of 2000 ms');
  assert.equal(intervals.observe(unit(1, 5.1, true)), true, '1000 ms is a change');
  assert.equal(intervals.annotate(INFO)[0]?.keyframeIntervalMs, 1000);
});

test('a reconnect (discontinuity) starts the measure again instead of spanning the gap', () => {
  const intervals = new KeyframeIntervals();
  intervals.describe(TRACKS);
  intervals.observe(unit(1, 0, true));
  intervals.observe(unit(1, 1, true));
  intervals.annotate(INFO);
  assert.equal(intervals.observe(unit(1, 0, true, true)), false, 're-based timestamps after a reconnect');
  assert.equal(intervals.observe(unit(1, 3, true)), true);
  assert.equal(intervals.annotate(INFO)[0]?.keyframeIntervalMs, 3000);
});
