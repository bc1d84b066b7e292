/**
 * The samples a CMAF track writer holds until its next cut (ISO/IEC 14496-12 §8.8.8 trun
 * fields: duration, size, flags, composition offset), kept as columns — typed arrays of times,
 * durations and sync flags beside an array of the samples' bytes — rather than an object per
 * unit: holding a unit allocates nothing, so nothing held for a part's or segment's length is
 * promoted by the garbage collector. Sample objects are made only when a part closes, and die young.
 */
import type { FragmentSample } from '../../../formats/fmp4/fragment.js';
import type { MediaUnit } from '../../../stream/media-unit.js';

/** A held sample with its decode and presentation times, in the track's timescale. */
export interface TimedSample extends FragmentSample {
  readonly dts: number;
  readonly pts: number;
}

/** Room for this many samples before the columns grow (a 2 s part of 30 fps video, of 48 kHz AAC). */
const INITIAL_CAPACITY = 128;

/** The held samples of one track, oldest first. */
export class SampleColumns {
  private dts = new Float64Array(INITIAL_CAPACITY);
  private pts = new Float64Array(INITIAL_CAPACITY);
  private durations = new Float64Array(INITIAL_CAPACITY);
  private keys = new Uint8Array(INITIAL_CAPACITY);
  private readonly data: (Uint8Array | undefined)[] = new Array<Uint8Array | undefined>(INITIAL_CAPACITY).fill(
    undefined,
  );
  private count = 0;

  /** Number of samples held. */
  get length(): number {
    return this.count;
  }

  /** Decode time of the oldest sample held, if any. */
  get firstDts(): number | undefined {
    return this.count > 0 ? this.dts[0] : undefined;
  }

  /** Holds `unit` as the newest sample, lasting `duration`. */
  push(unit: MediaUnit, duration: number): void {
    if (this.count === this.dts.length) {
      this.grow();
    }
    const at = this.count++;
    this.dts[at] = unit.dts;
    this.pts[at] = unit.pts;
    this.durations[at] = duration;
    this.keys[at] = unit.key ? 1 : 0;
    this.data[at] = unit.data;
  }

  /** How many of the oldest samples decode before `time`. */
  countBefore(time: number): number {
    let count = 0;
    while (count < this.count && (this.dts[count] as number) < time) {
      count++;
    }
    return count;
  }

  /** Removes the oldest `count` samples (at most what is held) and returns them as sample objects. */
  take(count: number): TimedSample[] {
    const taken: TimedSample[] = [];
    for (let i = 0; i < count; i++) {
      const dts = this.dts[i] as number;
      const pts = this.pts[i] as number;
      taken.push({
        dts,
        pts,
        duration: this.durations[i] as number,
        key: this.keys[i] === 1,
        compositionOffset: pts - dts,
        data: this.data[i] as Uint8Array,
      });
    }
    const rest = this.count - count;
    if (rest > 0) {
      this.dts.copyWithin(0, count, this.count);
      this.pts.copyWithin(0, count, this.count);
      this.durations.copyWithin(0, count, this.count);
      this.keys.copyWithin(0, count, this.count);
      this.data.copyWithin(0, count, this.count);
    }
    this.data.fill(undefined, rest, this.count);
    this.count = rest;
    return taken;
  }

  /** Drops every sample held. */
  clear(): void {
    this.data.fill(undefined, 0, this.count);
    this.count = 0;
  }

  private grow(): void {
    const capacity = this.dts.length * 2;
    this.dts = grown(this.dts, capacity);
    this.pts = grown(this.pts, capacity);
    this.durations = grown(this.durations, capacity);
    const keys = new Uint8Array(capacity);
    keys.set(this.keys);
    this.keys = keys;
    for (let i = this.data.length; i < capacity; i++) {
      this.data.push(undefined);
    }
  }
}

function grown(column: Float64Array<ArrayBuffer>, capacity: number): Float64Array<ArrayBuffer> {
  const next = new Float64Array(capacity);
  next.set(column);
  return next;
}
