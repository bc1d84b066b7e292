/**
 * Per-track timestamp normalisation: carries container DTS, drops small backward steps,
 * re-bases large jumps (encoder restarts, DVR clock resets) and publisher reconnects so every
 * reader sees a monotonic timeline.
 */
import type { MediaUnit } from '../stream/media-unit.js';

/** What the guard decided for one unit. */
export type GuardVerdict =
  | { readonly action: 'pass'; readonly unit: MediaUnit }
  | { readonly action: 'drop'; readonly reason: string }
  | { readonly action: 'rebase'; readonly unit: MediaUnit; readonly reason: string };

/** Largest forward step accepted as is, in seconds; beyond it the track is re-based. */
export const MAX_FORWARD_JUMP_SECONDS = 10;
/** Backward steps larger than this (seconds) are a clock reset and re-based, smaller ones dropped. */
export const MAX_BACKWARD_DROP_SECONDS = 1;

/** Keeps one track's timeline monotonic. */
export class TimestampGuard {
  private offset = 0;
  private lastDts: number | undefined;
  private lastStep: number;
  private pendingResume = false;
  private resumeOffset: number | undefined;

  private rate: number;

  /** `timescale` is the track's clock rate; `typicalStep` a frame duration used when re-basing. */
  constructor(timescale: number, typicalStep: number) {
    this.rate = timescale;
    this.lastStep = typicalStep;
  }

  /** The track's clock rate (ticks per second). */
  get timescale(): number {
    return this.rate;
  }

  /**
   * The track now ticks at `timescale` (a returning publisher's other codec or sample rate): the
   * timeline so far, the shift and a pending resume are carried over to the new rate.
   */
  retime(timescale: number, typicalStep: number): void {
    if (timescale === this.rate) {
      return;
    }
    const ratio = timescale / this.rate;
    this.offset = Math.round(this.offset * ratio);
    this.lastDts = this.lastDts === undefined ? undefined : Math.round(this.lastDts * ratio);
    this.resumeOffset = this.resumeOffset === undefined ? undefined : Math.round(this.resumeOffset * ratio);
    this.lastStep = typicalStep;
    this.rate = timescale;
  }

  /** Seconds at which this track's next unit is due (last dts plus one step), or undefined before any unit. */
  expectedNextSeconds(): number | undefined {
    return this.lastDts === undefined ? undefined : (this.lastDts + this.lastStep) / this.timescale;
  }

  /**
   * Marks a publisher reconnect. With `offsetSeconds` (the same for every track of the stream, so
   * audio and video stay in sync) the new publisher's timestamps are shifted by it; without, the
   * next unit continues this track one step after its last. Either way it carries `discontinuity`.
   */
  resume(offsetSeconds?: number): void {
    this.pendingResume = true;
    this.resumeOffset = offsetSeconds === undefined ? undefined : Math.round(offsetSeconds * this.timescale);
  }

  /** Returns the unit with normalised timestamps, or a drop decision. */
  accept(unit: MediaUnit): GuardVerdict {
    const dts = unit.dts + this.offset;
    const last = this.lastDts;
    if (last === undefined) {
      if (this.pendingResume && this.resumeOffset !== undefined) {
        // A track the returning publisher adds: it joins the shared timeline like the others.
        this.offset = this.resumeOffset;
      }
      this.pendingResume = false;
      return this.pass(unit, unit.dts + this.offset);
    }
    if (this.pendingResume) {
      this.pendingResume = false;
      if (this.resumeOffset !== undefined && unit.dts + this.resumeOffset > last) {
        this.offset = this.resumeOffset;
        const resumed = this.pass(unit, unit.dts + this.offset);
        return { action: 'rebase', unit: { ...resumed.unit, discontinuity: true }, reason: 'publisher reconnected' };
      }
      return this.rebase(unit, last, 'publisher reconnected', true);
    }
    const step = dts - last;
    if (step < 0) {
      if (-step > MAX_BACKWARD_DROP_SECONDS * this.timescale) {
        return this.rebase(unit, last, `timestamp went back ${(-step / this.timescale).toFixed(3)} s`);
      }
      return { action: 'drop', reason: `dts ${dts} is before previous ${last}` };
    }
    if (step > MAX_FORWARD_JUMP_SECONDS * this.timescale) {
      return this.rebase(unit, last, `timestamp jumped ${(step / this.timescale).toFixed(3)} s ahead`);
    }
    if (step > 0) {
      this.lastStep = step;
    }
    return this.pass(unit, dts);
  }

  private pass(unit: MediaUnit, dts: number): { action: 'pass'; unit: MediaUnit } {
    this.lastDts = dts;
    if (this.offset === 0) {
      return { action: 'pass', unit };
    }
    return { action: 'pass', unit: { ...unit, dts, pts: unit.pts + this.offset } };
  }

  private rebase(unit: MediaUnit, last: number, reason: string, discontinuity = false): GuardVerdict {
    const target = last + this.lastStep;
    this.offset = target - unit.dts;
    this.lastDts = target;
    const rebased: MediaUnit = {
      ...unit,
      dts: target,
      pts: unit.pts + this.offset,
      ...(discontinuity ? { discontinuity: true } : {}),
    };
    return { action: 'rebase', unit: rebased, reason };
  }
}
