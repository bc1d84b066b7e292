/**
 * Uninitialised byte ranges cut one after the other from a large slab, for buffers made often and
 * dropped soon (the runs a push sends): one allocation per slab instead of one per buffer, so the
 * allocator's bookkeeping (glibc's free-list searches and consolidation, V8's external-memory
 * accounting) is paid per slab. A range is never handed out twice: a slab is freed once nothing
 * holds a range of it, so a range may outlive the next ones (a socket still sending it, a unit
 * kept in a stream's history).
 */
import { Buffer } from 'node:buffer';

/** Hands out ranges of shared slabs; a request above half a slab gets memory of its own. */
export class ByteSlab {
  private slab: Buffer | undefined;
  private used = 0;

  constructor(private readonly slabBytes: number) {}

  /** `size` bytes, not zero-filled: every byte must be written before the range is read or sent. */
  take(size: number): Buffer {
    if (size > this.slabBytes / 2) {
      return Buffer.allocUnsafeSlow(size);
    }
    if (this.slab === undefined || this.used + size > this.slabBytes) {
      this.slab = Buffer.allocUnsafeSlow(this.slabBytes);
      this.used = 0;
    }
    const range = this.slab.subarray(this.used, this.used + size);
    // 8-byte aligned ranges, so a wider typed array over one stays aligned.
    this.used += (size + 7) & ~7;
    return range;
  }

  /** `size` bytes as a plain Uint8Array (what media units and parsers take), not zero-filled. */
  takeBytes(size: number): Uint8Array {
    const range = this.take(size);
    return new Uint8Array(range.buffer, range.byteOffset, size);
  }

  /** A copy of `bytes` in a range of the slab. */
  copy(bytes: Uint8Array): Uint8Array {
    const range = this.takeBytes(bytes.byteLength);
    range.set(bytes);
    return range;
  }
}
