/**
 * One spare buffer a writer builds its next block in instead of allocating a new one: a finished
 * segment's buffer handed back once it is written to the file ring and nothing reads it from
 * memory any more. Reusing it saves the allocation, the page faults of fresh memory and the
 * external memory that makes V8 run full collections (issue 13 §4).
 */
export class SpareBuffer {
  private spare: ArrayBuffer | undefined;

  /** Bytes kept for reuse. */
  get bytes(): number {
    return this.spare?.byteLength ?? 0;
  }

  /**
   * Keeps `buffer` for the next block (the larger of it and the one kept), unless it is `current`
   * (the block still being written; undefined when there is none).
   */
  give(buffer: ArrayBuffer, current: ArrayBufferLike | undefined): void {
    if (buffer !== current && buffer.byteLength > this.bytes) {
      this.spare = buffer;
    }
  }

  /**
   * A block of at least `size` bytes: the spare when large enough (holding an older block's
   * bytes: the writer hands out only ranges it wrote), else new zero-filled memory.
   */
  take(size: number): Uint8Array<ArrayBuffer> {
    const spare = this.spare;
    this.spare = undefined;
    if (spare && spare.byteLength >= size) {
      return new Uint8Array(spare);
    }
    return new Uint8Array(size);
  }
}
