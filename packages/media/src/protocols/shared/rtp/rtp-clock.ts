/**
 * RTP timestamps and sequence numbers (RFC 3550 §5.1) wrap at 2^32 and 2^16: these turn them
 * into numbers that only grow (or step back a little for reordered packets).
 */

const TIMESTAMP_SPAN = 2 ** 32;
const SEQUENCE_SPAN = 2 ** 16;

/** Extends one stream's 32-bit RTP timestamps across wraps. */
export class TimestampUnwrapper {
  private last: number | undefined;
  private cycles = 0;

  /** The extended value of `timestamp` (nearest to the previous one). */
  unwrap(timestamp: number): number {
    const ts = timestamp >>> 0;
    if (this.last === undefined) {
      this.last = ts;
      return ts;
    }
    const delta = ts - this.last;
    if (delta < -TIMESTAMP_SPAN / 2) {
      this.cycles++;
    } else if (delta > TIMESTAMP_SPAN / 2 && this.cycles > 0) {
      // A reordered packet from before the latest wrap.
      return ts + (this.cycles - 1) * TIMESTAMP_SPAN;
    }
    this.last = ts;
    return ts + this.cycles * TIMESTAMP_SPAN;
  }
}

/** Signed distance from sequence number `from` to `to`, in -32768..32767. */
export function sequenceDelta(from: number, to: number): number {
  const delta = (to - from) & (SEQUENCE_SPAN - 1);
  return delta >= SEQUENCE_SPAN / 2 ? delta - SEQUENCE_SPAN : delta;
}

/** `sequence + step` modulo 2^16. */
export function nextSequence(sequence: number, step = 1): number {
  return (sequence + step) & (SEQUENCE_SPAN - 1);
}
