/**
 * Decode times from presentation times in decode order: I P B B, B-pyramids, a depth declared too
 * small (or not at all), times past an RTP wrap, and streams without B-frames left as they were.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UnsupportedError } from '../../../errors.js';
import { DecodeTimes } from './decode-times.js';

const T = 3000;
const START = 90_000;

/** Presentation times (in frames after START) in decode order, and whether each is a key frame. */
type Frame = readonly [frame: number, key?: boolean];

/** Feeds the frames; returns [pts, dts] of each one kept (in frames after START when exact). */
function run(times: DecodeTimes, frames: readonly Frame[]): (readonly [number, number])[] {
  const out: (readonly [number, number])[] = [];
  for (const [frame, key] of frames) {
    const pts = START + frame * T;
    const dts = times.next(pts, key ?? false);
    if (dts !== undefined) {
      out.push([pts, dts]);
    }
  }
  return out;
}

/** DTS strictly grows, never passes PTS, never negative. */
function assertValid(out: readonly (readonly [number, number])[]): void {
  for (const [i, [pts, dts]] of out.entries()) {
    assert.ok(dts >= 0, `dts ${dts} >= 0`);
    assert.ok(dts <= pts, `dts ${dts} <= pts ${pts}`);
    if (i > 0) {
      assert.ok(dts > (out[i - 1]?.[1] ?? 0), `dts ${dts} after ${out[i - 1]?.[1]}`);
    }
  }
}

/** `gops` GOPs of 9 frames in decode order, I P B B P B B P B (reorder depth 1). */
function ipbb(gops: number): Frame[] {
  const frames: Frame[] = [];
  for (let g = 0; g < gops; g++) {
    const base = g * 9;
    frames.push([base, true], [base + 3], [base + 1], [base + 2], [base + 6], [base + 4], [base + 5]);
    frames.push([base + 8], [base + 7]);
  }
  return frames;
}

describe('DecodeTimes', () => {
  it('I P B B with depth 1: decode times one frame behind, the first laid below the key frame', () => {
    const times = new DecodeTimes(1, T);
    const out = run(times, [[0, true], [3], [1], [2], [6], [4], [5]]);
    assertValid(out);
    assert.deepEqual(
      out.map(([pts, dts]) => [(pts - START) / T, (dts - START) / T]),
      [
        [0, -1],
        [3, 0],
        [1, 1],
        [2, 2],
        [6, 3],
        [4, 4],
        [5, 5],
      ],
    );
  });

  it('a B-pyramid (I P B b b, depth 2) keeps every frame', () => {
    const frames: Frame[] = [[0, true]];
    for (let p = 4; p <= 40; p += 4) {
      frames.push([p], [p - 2], [p - 3], [p - 1]);
    }
    const out = run(new DecodeTimes(2, T), frames);
    assert.equal(out.length, frames.length);
    assertValid(out);
    assert.deepEqual(
      out.slice(0, 3).map(([, dts]) => (dts - START) / T),
      [-2, -1, 0],
    );
  });

  it('a deeper pyramid (depth 3, b-pyramid over 7 B-frames) with its declared depth', () => {
    const frames: Frame[] = [[0, true]];
    for (let p = 8; p <= 64; p += 8) {
      frames.push([p], [p - 4], [p - 6], [p - 7], [p - 5], [p - 2], [p - 3], [p - 1]);
    }
    const out = run(new DecodeTimes(3, T), frames);
    assert.equal(out.length, frames.length);
    assertValid(out);
  });

  it('no B-frames: decode time is presentation time, from the first frame on', () => {
    const frames: Frame[] = Array.from({ length: 40 }, (_, i) => [i, i % 10 === 0]);
    for (const declared of [0, undefined]) {
      const out = run(new DecodeTimes(declared, T), frames);
      assert.deepEqual(
        out.map(([pts, dts]) => dts - pts),
        frames.map(() => 0),
      );
    }
  });

  it('a depth declared too small is learnt from the first step back: dropped until the next key frame, valid after', () => {
    const reasons: [string, number][] = [];
    const times = new DecodeTimes(0, T, (reason, depth) => reasons.push([reason, depth]));
    const frames = ipbb(3);
    const out = run(times, frames);
    assertValid(out);
    assert.equal(times.reorderDepth, 1);
    assert.equal(reasons.length, 1);
    assert.equal(reasons[0]?.[1], 1);
    assert.match(reasons[0]?.[0] ?? '', /reorder depth 1 from here/);
    const kept = out.map(([pts]) => (pts - START) / T);
    // I and P of the first GOP pass with dts = pts, then the first GOP's rest is dropped.
    assert.deepEqual(kept.slice(0, 2), [0, 3]);
    assert.deepEqual(
      kept.slice(2),
      frames.slice(9).map(([frame]) => frame),
      'every frame from the second key frame on',
    );
  });

  it('a source declaring nothing learns the depth of a pyramid from the frames it drops', () => {
    const reasons: number[] = [];
    const times = new DecodeTimes(undefined, T, (_, depth) => reasons.push(depth));
    const frames: Frame[] = [];
    for (let g = 0; g < 3; g++) {
      const base = g * 9;
      frames.push([base, true]);
      for (let p = base + 4; p < base + 9; p += 4) {
        frames.push([p], [p - 2], [p - 3], [p - 1]);
      }
    }
    const out = run(times, frames);
    assertValid(out);
    assert.deepEqual(reasons, [1, 2]);
    assert.equal(out.filter(([pts]) => pts >= START + 18 * T).length, 9, 'the last GOP whole');
  });

  it('a larger depth in new parameter sets is taken up without dropping a frame', () => {
    const times = new DecodeTimes(0, T);
    const first = run(
      times,
      Array.from({ length: 5 }, (_, i): Frame => [i, i === 0]),
    );
    times.declare(1);
    const second = run(times, [[8, true], [11], [9], [10], [14], [12], [13]]);
    assert.equal(second.length, 7);
    assertValid([...first, ...second]);
  });

  it('times past an RTP wrap (extended by the timeline) stay valid', () => {
    const times = new DecodeTimes(1, T);
    const wrap = 2 ** 32;
    const out: [number, number][] = [];
    for (const [frame, key] of ipbb(2)) {
      const pts = wrap - 4 * T + frame * T;
      const dts = times.next(pts, key ?? false);
      if (dts !== undefined) {
        out.push([pts, dts]);
      }
    }
    assert.equal(out.length, 18);
    assertValid(out);
  });

  it('a key frame with no room below it waits for the next key frame; leading pictures are dropped', () => {
    const atZero = new DecodeTimes(2, T);
    assert.equal(atZero.next(0, true), undefined, 'no decode time below 0');
    assert.equal(atZero.next(T, false), undefined);
    assert.equal(atZero.next(10 * T, true), 8 * T);
    const open = new DecodeTimes(1, T);
    assert.equal(open.next(START, true), START - T);
    assert.equal(open.next(START - 2 * T, false), undefined, 'a leading picture of the first key frame');
    assert.equal(open.next(START + 3 * T, false), START);
  });

  it('a timeline moved back (sender-report alignment) keeps decode times rising and learns no depth', () => {
    const changes: number[] = [];
    const times = new DecodeTimes(1, T, (_, depth) => changes.push(depth));
    const out = run(times, ipbb(1));
    times.moved(-T / 2);
    const after: [number, number][] = [];
    for (const [frame, key] of ipbb(2).slice(9)) {
      const pts = START + frame * T - T / 2;
      const dts = times.next(pts, key ?? false);
      if (dts !== undefined) {
        after.push([pts, dts]);
      }
    }
    assert.equal(after.length, 9, 'no frame lost');
    assertValid([...out, ...after]);
    assert.deepEqual(changes, [], 'nothing dropped');
    times.moved(-3 * T);
    const kept: number[] = [];
    for (const [frame, key] of ipbb(4).slice(18)) {
      if (times.next(START + frame * T - 3.5 * T, key ?? false) !== undefined) {
        kept.push(frame);
      }
    }
    assert.equal(kept[0], 27, 'a large move back drops video until the next key frame');
    assert.equal(kept.length, 9);
    assert.equal(times.reorderDepth, 1, 'and learns no depth from it');
  });

  it('times that step back further than any decoder reorders end the stream', () => {
    const times = new DecodeTimes(2, T);
    for (let i = 0; i < 20; i++) {
      times.next(START + i * T, i === 0);
    }
    assert.throws(() => times.next(START - 5 * T, false), UnsupportedError);
  });
});
