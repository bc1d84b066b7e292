/**
 * The GOP cache of a live stream: the units since the last keyframe, kept for late joiners, with
 * their bytes copied into one buffer the cache owns and reuses from one GOP to the next.
 *
 * Why a copy (ADR 0075): the units the hub receives are views of the ingest's read slabs (the
 * RTMP chunk reader's, ADR 0007). Held for a whole GOP, those slabs outlived V8's young-generation
 * collections, and every promoted slab counted as external memory until the next full
 * mark-compact — one every ~12 s at 10 watched 3 Mb/s streams, every ~2 s at 50. Copied here, the
 * slabs die young (the packagers copy what they keep) and the cache's own buffer is reused in
 * place, so the cache no longer drives full collections. Nothing outside the cache ever sees its
 * buffer: what it hands out (`copies`) lives in a buffer of its own.
 */
import type { MediaUnit } from '../stream/media-unit.js';

/** Most bytes the GOP cache holds; a longer GOP keeps only its tail from the last keyframe. */
export const GOP_CACHE_MAX_BYTES = 32 * 1024 * 1024;
/** Smallest buffer the cache allocates. */
const MIN_BUFFER_BYTES = 64 * 1024;
/** A buffer this many times larger than the GOP just ended (and over 1 MiB) is given up for a smaller one. */
const SHRINK_FACTOR = 4;
const SHRINK_FLOOR_BYTES = 1024 * 1024;
const EMPTY = new Uint8Array(0);

/** Units since the last keyframe, their bytes in a buffer of the cache's own. */
export class GopCache {
  private units: MediaUnit[] = [];
  private buffer: Uint8Array = EMPTY;
  private used = 0;

  /** Number of cached units. */
  get length(): number {
    return this.units.length;
  }

  /** Bytes of memory the cache holds (its buffer, reused from GOP to GOP). */
  get heldBytes(): number {
    return this.buffer.byteLength;
  }

  /** Starts a new GOP: forgets the units and writes the next ones over the same buffer. */
  restart(): void {
    if (this.buffer.byteLength > SHRINK_FLOOR_BYTES && this.buffer.byteLength > SHRINK_FACTOR * this.used) {
      this.buffer = EMPTY;
    }
    this.units = [];
    this.used = 0;
  }

  /** Forgets the units and lets go of the buffer (the stream ended). */
  release(): void {
    this.units = [];
    this.buffer = EMPTY;
    this.used = 0;
  }

  /** Appends a copy of `unit`; a GOP growing past GOP_CACHE_MAX_BYTES empties the cache instead. */
  add(unit: MediaUnit): void {
    const size = unit.data.byteLength;
    const end = this.used + size;
    if (end > GOP_CACHE_MAX_BYTES) {
      this.units = [];
      this.used = 0;
      return;
    }
    if (end > this.buffer.byteLength) {
      this.grow(end);
    }
    const buffer = this.buffer;
    buffer.set(unit.data, this.used);
    this.units.push({ ...unit, data: buffer.subarray(this.used, end) });
    // 8-byte aligned, as the ingest's slabs are, so a consumer's wider typed array over a unit stays aligned.
    this.used = Math.min((end + 7) & ~7, GOP_CACHE_MAX_BYTES);
  }

  /** Copies of the cached units, in order, sharing one new buffer: nothing handed out refers to the cache's. */
  copies(): MediaUnit[] {
    if (this.units.length === 0) {
      return [];
    }
    const bytes = this.buffer.slice(0, this.used);
    return this.units.map((unit) => this.rebased(unit, bytes));
  }

  /** Moves the cached bytes into a buffer of at least `needed` bytes (doubling, so a GOP grows in few steps). */
  private grow(needed: number): void {
    const size = Math.min(Math.max(needed, this.buffer.byteLength * 2, MIN_BUFFER_BYTES), GOP_CACHE_MAX_BYTES);
    const grown = new Uint8Array(size);
    grown.set(this.buffer.subarray(0, this.used));
    this.units = this.units.map((unit) => this.rebased(unit, grown));
    this.buffer = grown;
  }

  /** `unit` with its bytes at the same offset of `bytes` as in the cache's buffer. */
  private rebased(unit: MediaUnit, bytes: Uint8Array): MediaUnit {
    const at = unit.data.byteOffset - this.buffer.byteOffset;
    return { ...unit, data: bytes.subarray(at, at + unit.data.byteLength) };
  }
}
