/**
 * The 90 kHz program clock of ISO/IEC 13818-1 §2.4.2 as the demuxer exposes it: PES timestamps
 * count modulo 2^33 (§2.4.3.7), so each one is unwrapped to the value nearest the last one seen
 * on any PID of the program (so audio and video stay on one timeline across the wrap, every
 * 26.5 hours), then re-based so the program starts one second after zero.
 */
import { TIMESTAMP_MODULO } from './pes.js';

/** Where the first timestamp of a program lands: room for the other PIDs' slightly earlier ones. */
export const PROGRAM_START = 90_000;

const HALF = TIMESTAMP_MODULO / 2;

/** Unwraps and re-bases one program's 33-bit timestamps. */
export class ProgramClock {
  /** The last unwrapped value (any PID), undefined before the first. */
  private reference: number | undefined;
  /** Subtracted from unwrapped values. */
  private origin = 0;

  /** The continuous, re-based value of a 33-bit timestamp. Never negative. */
  map(raw: number): number {
    let unwrapped: number;
    if (this.reference === undefined) {
      unwrapped = raw;
      this.origin = raw - PROGRAM_START;
    } else {
      let step = raw - (this.reference % TIMESTAMP_MODULO);
      if (step >= HALF) {
        step -= TIMESTAMP_MODULO;
      } else if (step < -HALF) {
        step += TIMESTAMP_MODULO;
      }
      unwrapped = this.reference + step;
    }
    this.reference = unwrapped;
    if (unwrapped < this.origin) {
      // The source's clock went back further than the program's start (an encoder restart):
      // the program restarts at zero and the jump back shows to the stream's timestamp guard.
      this.origin = unwrapped;
    }
    return unwrapped - this.origin;
  }
}
