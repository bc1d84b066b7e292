/**
 * The seam between the transport stream layer and the codec-specific readers of PES payloads
 * (ISO/IEC 13818-1 §2.4.3.6): each reader turns its elementary stream into a Track and
 * MediaUnits, and the audio readers share one clock from PES PTS to sample counts.
 */
import type { MediaUnit } from '../../stream/media-unit.js';
import type { Track } from '../../stream/track.js';

/** Where an elementary stream reader sends what it found. */
export interface EsOutput {
  /** The track's configuration became known or changed; called before the unit that needs it. */
  track(track: Track): void;
  unit(unit: MediaUnit): void;
  /** A frame or payload that could not be used, and why (counted by the demuxer). */
  drop(reason: string): void;
  /** Memory for a unit's data, not zero-filled (the demuxer's slab); none: new memory per unit. */
  bytes?(size: number): Uint8Array;
}

/** A copy of `data` for a unit, in memory from `out.bytes` when it gives some. */
export function unitCopy(out: EsOutput, data: Uint8Array): Uint8Array {
  if (!out.bytes) {
    return data.slice();
  }
  const copy = out.bytes(data.byteLength);
  copy.set(data);
  return copy;
}

/** Turns the PES payloads of one elementary stream into a track and units. */
export interface EsReader {
  /**
   * One PES payload. `pts` and `dts` are 90 kHz program-clock values (already unwrapped and
   * re-based), undefined when the PES header had none.
   */
  pes(payload: Uint8Array, pts: number | undefined, dts: number | undefined, out: EsOutput): void;
}

/** 90 kHz: the clock of PES timestamps and of video tracks. */
const PES_CLOCK = 90_000;

/**
 * Timestamps of consecutive audio frames on the sample-rate clock: a PES PTS sets the position
 * unless it agrees with the running count within 2 ms (rounding of the 90 kHz clock), so frames
 * stay on exact sample steps; a real gap (lost frames) moves the position.
 */
export class AudioClock {
  private next: number | undefined;
  private rate = 0;

  /** The timestamp of the frame that starts at a PES with `pts` (undefined: the running count). */
  at(pts: number | undefined, rate: number): number {
    if (rate !== this.rate) {
      this.rate = rate;
      this.next = undefined;
    }
    if (pts !== undefined) {
      const fromPts = Math.round((pts * rate) / PES_CLOCK);
      if (this.next === undefined || Math.abs(fromPts - this.next) > (rate * 2) / 1000) {
        this.next = fromPts;
      }
    }
    return this.next ?? 0;
  }

  /** Moves the running count past a frame of `samples` samples. */
  advance(samples: number): void {
    this.next = (this.next ?? 0) + samples;
  }
}
