/**
 * A file ring for finished segments (MPEG-TS for classic HLS, CMAF for LL-HLS and DASH), as
 * nginx-rtmp keeps its HLS and DASH fragments: each segment
 * is written to a file of its own once it closes and its bytes leave the process's memory when
 * the write completes; requests read the file (the kernel's page cache, shared and reclaimable,
 * not the service's heap). The segmenter drops a segment when it leaves its retained window, and
 * the file goes with it. Until its write completes a segment is served from memory; a failed
 * write keeps it there. A segment never served from memory hands its buffer back once written
 * (`onReleased`), so its writer can build the next segment in it instead of allocating again.
 */
import { createReadStream, mkdirSync, rmSync } from 'node:fs';
import { unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';

/** The bytes of one spooled segment. */
export class SpooledSegment {
  private memory: Uint8Array | undefined;
  private written = false;
  private dropped = false;
  private lent = false;

  constructor(
    private readonly path: string,
    data: Uint8Array,
    /** Called with the bytes' whole buffer once written, if no view of them was handed out. */
    onReleased?: (buffer: ArrayBuffer) => void,
  ) {
    this.memory = data;
    this.byteLength = data.byteLength;
    writeFile(path, data).then(
      () => {
        this.written = true;
        if (this.dropped) {
          unlink(path).catch(() => undefined);
          return;
        }
        this.memory = undefined;
        if (!this.lent && data.buffer instanceof ArrayBuffer) {
          onReleased?.(data.buffer);
        }
      },
      () => {
        // Kept in memory: the segment is still served, only not spooled.
      },
    );
  }

  /** Size of the segment. */
  readonly byteLength: number;

  /** Bytes still held in memory (until the write completes, or for good when it failed). */
  get heldBytes(): number {
    return this.memory?.byteLength ?? 0;
  }

  /**
   * The segment's bytes, or those from `start` to `end` (exclusive; a part of a CMAF segment): a
   * view of memory while held there, else a stream of its file.
   */
  body(start = 0, end = this.byteLength): Uint8Array | Readable {
    if (this.memory) {
      this.lent = true;
      return start === 0 && end === this.byteLength ? this.memory : this.memory.subarray(start, end);
    }
    return createReadStream(this.path, { start, end: end - 1 });
  }

  /** Forgets the segment and removes its file (a reader that opened it keeps reading). */
  drop(): void {
    this.dropped = true;
    this.memory = undefined;
    if (this.written) {
      unlink(this.path).catch(() => undefined);
    }
  }
}

/** The spool directory of one process: emptied when created, one file per live segment. */
export class SegmentSpool {
  private next = 0;

  constructor(private readonly dir: string) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  /**
   * Writes `data` to a new file of the ring (named with `extension`) and returns its handle.
   * `onReleased` gets `data`'s whole buffer back once written when nothing read it from memory:
   * pass it only when no other view of that buffer exists.
   */
  store(data: Uint8Array, extension = 'ts', onReleased?: (buffer: ArrayBuffer) => void): SpooledSegment {
    return new SpooledSegment(join(this.dir, `${(this.next++).toString(36)}.${extension}`), data, onReleased);
  }

  /** Removes the directory and every file in it (shutdown). */
  close(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
