/**
 * One reused buffer for byte ranges that are usually done with at once (the runs a push writes
 * straight into its sockets): ranges are cut one after the other and, at the end, from the start
 * again, so steady use allocates nothing, maps no new pages and triggers no collection (ADR 0087).
 * Whoever may still hold a range when later ranges are cut (a socket that did not take every byte
 * at once) calls `keep`: the ring moves to a fresh buffer and leaves the old one to its holders.
 */
import { Buffer } from 'node:buffer';

/** Ranges cut round a reused buffer; a request above half of it gets memory of its own. */
export class ByteRing {
  private buffer: Buffer | undefined;
  private used = 0;

  constructor(private readonly capacity: number) {}

  /** `size` bytes, not zero-filled; valid until the ring comes round to them again (see `overwrites`). */
  take(size: number): Buffer {
    if (size > this.capacity / 2) {
      return Buffer.allocUnsafeSlow(size);
    }
    if (this.buffer === undefined) {
      this.buffer = Buffer.allocUnsafeSlow(this.capacity);
      this.used = 0;
    }
    if (this.used + size > this.capacity) {
      this.used = 0;
    }
    const range = this.buffer.subarray(this.used, this.used + size);
    // 8-byte aligned ranges, so a wider typed array over one stays aligned.
    this.used += (size + 7) & ~7;
    return range;
  }

  /** Whether `later` (just taken) reuses any byte of `earlier`: `earlier` is no longer intact. */
  overwrites(later: Uint8Array, earlier: Uint8Array): boolean {
    return (
      later.buffer === earlier.buffer &&
      later.byteOffset < earlier.byteOffset + earlier.byteLength &&
      earlier.byteOffset < later.byteOffset + later.byteLength
    );
  }

  /** `range` must stay as it is (someone still reads it): the ring's later ranges come from a fresh buffer. */
  keep(range: Uint8Array): void {
    if (this.buffer !== undefined && range.buffer === this.buffer.buffer) {
      this.buffer = undefined;
    }
  }
}
