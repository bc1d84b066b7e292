/**
 * A file ring for finished segments (MPEG-TS for classic HLS, CMAF for LL-HLS and DASH), as
 * nginx-rtmp keeps its HLS and DASH fragments: each segment is written to a file once it closes
 * and its bytes leave the process's memory; requests read the file (the kernel's page cache,
 * shared and reclaimable, not the service's heap). The segmenter drops a segment when it leaves
 * its retained window. A failed write keeps the segment in memory.
 *
 * Files are reused (ADR 0019): a dropped segment's file, once nothing reads it, takes a later
 * segment's bytes, written over the old ones in place, instead of being unlinked while a new
 * file is created — on ext4, creating and removing a file per segment cost more CPU than writing
 * it (inode allocation scans past recently deleted inodes). The write is synchronous: one
 * open/write/close of page-cache memory costs less than three thread-pool round trips and their
 * promises. A written segment hands its buffer back at once (`onReleased`), so its writer builds
 * the next segment in it instead of allocating again.
 */
import { closeSync, createReadStream, mkdirSync, openSync, rmSync, unlink, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';

/** One file of the ring and the bytes it holds. */
interface SpoolFile {
  readonly path: string;
  /** Length of the file: the longest segment it held (0 for a file not created yet). */
  size: number;
}

/** The bytes of one spooled segment. */
export class SpooledSegment {
  private memory: Uint8Array | undefined;
  private dropped = false;
  /** Streams of the file not yet closed: the file is not reused while one reads it. */
  private readers = 0;

  constructor(
    private readonly spool: SegmentSpool,
    private readonly file: SpoolFile | undefined,
    data: Uint8Array,
  ) {
    this.byteLength = data.byteLength;
    if (!file) {
      this.memory = data;
    }
  }

  /** Size of the segment. */
  readonly byteLength: number;

  /** Bytes still held in memory (only when the write failed). */
  get heldBytes(): number {
    return this.memory?.byteLength ?? 0;
  }

  /**
   * The segment's bytes, or those from `start` to `end` (exclusive; a part of a CMAF segment): a
   * stream of its file, or a view of memory when the write failed.
   */
  body(start = 0, end = this.byteLength): Uint8Array | Readable {
    const file = this.file;
    if (!file) {
      const memory = this.memory ?? new Uint8Array(0);
      return start === 0 && end === this.byteLength ? memory : memory.subarray(start, end);
    }
    if (end <= start) {
      return new Uint8Array(0);
    }
    this.readers++;
    const stream = createReadStream(file.path, { start, end: end - 1 });
    stream.once('close', () => {
      this.readers--;
    });
    return stream;
  }

  /**
   * Forgets the segment: its file goes back to the ring for a later segment, or — when a request
   * still reads it — is removed (that reader keeps its open file; one not yet open fails, as a
   * request racing the eviction does on nginx-rtmp).
   */
  drop(): void {
    if (this.dropped) {
      return;
    }
    this.dropped = true;
    this.memory = undefined;
    if (this.file) {
      this.spool.release(this.file, this.readers > 0);
    }
  }
}

/** The spool directory of one process: emptied when created, one file per live segment plus reusable ones. */
export class SegmentSpool {
  private next = 0;
  /** Files of dropped segments, ready for the next segments. */
  private readonly free: SpoolFile[] = [];
  /** Files holding a segment not dropped yet. */
  private live = 0;

  constructor(private readonly dir: string) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  /** Files on disk that hold no segment, kept for reuse. */
  get reusableFiles(): number {
    return this.free.length;
  }

  /**
   * Writes `data` to a file of the ring (a reused one, else a new one named with `extension`) and
   * returns its handle; on a failed write the segment stays in memory. `onReleased` gets `data`'s
   * whole buffer back once written, before this returns: pass it only when no other view of that
   * buffer exists.
   */
  store(data: Uint8Array, extension = 'ts', onReleased?: (buffer: ArrayBuffer) => void): SpooledSegment {
    const file = this.free.pop() ?? { path: join(this.dir, `${(this.next++).toString(36)}.${extension}`), size: 0 };
    if (!writeInPlace(file, data)) {
      unlink(file.path, ignore);
      return new SpooledSegment(this, undefined, data);
    }
    this.live++;
    const segment = new SpooledSegment(this, file, data);
    if (onReleased && data.buffer instanceof ArrayBuffer) {
      onReleased(data.buffer);
    }
    return segment;
  }

  /**
   * Takes back the file of a dropped segment: kept for reuse while no more files are kept than
   * hold segments (so they go once the streams end), else — or when `busy` (still being read) —
   * removed.
   */
  release(file: SpoolFile, busy: boolean): void {
    this.live--;
    if (busy) {
      unlink(file.path, ignore);
    } else {
      this.free.push(file);
    }
    while (this.free.length > this.live) {
      const extra = this.free.shift() as SpoolFile;
      unlink(extra.path, ignore);
    }
  }

  /** Removes the directory and every file in it (shutdown). */
  close(): void {
    this.free.length = 0;
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * Writes `data` over the start of `file` (creating it when new); false when it failed. An older,
 * longer segment's tail stays past the end (every read is a range of the segment's own length):
 * cutting it cost an ext4 truncate — journal, block frees, page-cache invalidation — for about
 * every other segment, ~0.3 ms each (`--cpu-prof`, 10 watched streams, ADR 0060).
 */
function writeInPlace(file: SpoolFile, data: Uint8Array): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(file.path, file.size > 0 ? 'r+' : 'w', 0o600);
    let at = 0;
    while (at < data.byteLength) {
      at += writeSync(fd, data, at, data.byteLength - at, at);
    }
    closeSync(fd);
    file.size = Math.max(file.size, data.byteLength);
    return true;
  } catch {
    if (fd !== undefined) {
      closeQuietly(fd);
    }
    file.size = 0;
    return false;
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Already closed or never usable: nothing left to release.
  }
}

function ignore(): void {}
