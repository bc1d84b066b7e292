/**
 * Arithmetic on SRT's 31-bit packet sequence numbers (draft-sharabayko-srt-01 §3.1), which wrap
 * from 2^31 - 1 to 0: comparisons take the short way round.
 */

/** Sequence numbers count modulo this. */
export const SEQUENCE_MODULO = 0x80000000;
const HALF = 0x40000000;

/** b - a, the short way round the wrap (negative when b is before a). */
export function sequenceDistance(a: number, b: number): number {
  let d = b - a;
  if (d >= HALF) {
    d -= SEQUENCE_MODULO;
  } else if (d < -HALF) {
    d += SEQUENCE_MODULO;
  }
  return d;
}

/** The sequence number `n` after `a`. */
export function sequenceAdd(a: number, n: number): number {
  return (((a + n) % SEQUENCE_MODULO) + SEQUENCE_MODULO) % SEQUENCE_MODULO;
}
