import assert from 'node:assert/strict';
import { test } from 'node:test';
import { countersBetween, RtpStreamCount } from './rtp-stream-count.js';

/** Feeds `frames` video frames of `perFrame` packets from `sequence`, skipping the sequence numbers in `drop`. */
function video(count: RtpStreamCount, from: number, frames: number, perFrame: number, drop: readonly number[] = []) {
  let sequence = from;
  for (let frame = 0; frame < frames; frame++) {
    for (let i = 0; i < perFrame; i++) {
      if (!drop.includes(sequence)) {
        count.add(sequence, (frame * 3000) >>> 0, i === perFrame - 1);
      }
      sequence = (sequence + 1) & 0xffff;
    }
  }
}

test('every packet of every frame: whole frames, nothing lost, across the sequence wrap', () => {
  const count = new RtpStreamCount();
  video(count, 65_530, 10, 3);
  assert.deepEqual(count.counters, {
    packets: 30,
    lost: 0,
    late: 0,
    wholeFrames: 10,
    damagedFrames: 0,
    highestSequence: 0x10000 + ((65_530 + 29) & 0xffff),
  });
});

test('a packet lost inside a frame damages that frame only', () => {
  const count = new RtpStreamCount();
  video(count, 100, 5, 4, [109]);
  assert.equal(count.counters.lost, 1);
  assert.equal(count.counters.wholeFrames, 4);
  assert.equal(count.counters.damagedFrames, 1);
});

test('a lost last packet (the marker) damages its frame and the next one', () => {
  const count = new RtpStreamCount();
  // Frame 1 is 104–107; 107 carries its marker.
  video(count, 100, 5, 4, [107]);
  assert.equal(count.counters.lost, 1);
  assert.equal(count.counters.damagedFrames, 2);
  assert.equal(count.counters.wholeFrames, 3);
});

test('a whole frame lost: the next frame is damaged, one frame fewer is counted', () => {
  const count = new RtpStreamCount();
  video(count, 100, 5, 2, [102, 103]);
  assert.equal(count.counters.lost, 2);
  assert.equal(count.counters.wholeFrames + count.counters.damagedFrames, 4);
  assert.equal(count.counters.damagedFrames, 1);
});

test('audio (no marker bits): each timestamp is a frame; late and duplicate packets are counted apart', () => {
  const count = new RtpStreamCount();
  for (let i = 0; i < 10; i++) {
    count.add(500 + i, i * 960, false);
  }
  count.add(505, 5 * 960, false);
  count.add(510, 10 * 960, false);
  // The last frame is still open (no next timestamp yet).
  assert.equal(count.counters.wholeFrames, 10);
  assert.equal(count.counters.late, 1);
  assert.equal(count.counters.lost, 0);
});

test('countersBetween gives a window', () => {
  const count = new RtpStreamCount();
  video(count, 0, 3, 2);
  const before = count.snapshot();
  video(count, 6, 4, 2);
  const window = countersBetween(before, count.snapshot());
  assert.equal(window.packets, 8);
  assert.equal(window.wholeFrames, 4);
  assert.equal(window.highestSequence, 13);
});
