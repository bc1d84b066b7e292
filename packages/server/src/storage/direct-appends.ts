/**
 * Appends that bypass the page cache (O_DIRECT, ADR 0081), for recorded packs: each append is
 * copied into page-aligned memory and written in whole blocks at a block-aligned offset, its last
 * partial block padded with zeros and carried into the next append (written again with the bytes
 * that follow it); the file is cut to its true length on sync and close. Where the filesystem
 * refuses O_DIRECT (tmpfs: EINVAL) it is not opened, and a refused write goes on buffered.
 */
import { constants, fstat, ftruncate } from 'node:fs';
import { borrowAligned } from './aligned-buffers.js';
import { closeFile, errorCode, openFile, openMakingParent, syncFile, writevAll } from './local-file-writes.js';
import type { ObjectAppender } from './object-storage.js';

/** Alignment of direct writes' offsets and lengths: a page, a multiple of 512- and 4096-byte logical blocks. */
export const DIRECT_BLOCK = 4096;

/** An appender that writes around the page cache; `direct` turns false if the filesystem refused a write and it went on buffered. */
export interface DirectAppender extends ObjectAppender {
  readonly direct: boolean;
}

function fileSize(fd: number): Promise<number> {
  return new Promise((resolve, reject) => fstat(fd, (error, stats) => (error ? reject(error) : resolve(stats.size))));
}

class DirectFile implements DirectAppender {
  direct = true;
  /** Bytes appended: the file's true length. */
  private length = 0;
  /** Where the file ends on disk (past `length` while the last block is padded). */
  private end = 0;
  /** The bytes of the last partial block, written again in front of the next append. */
  private tail: Uint8Array = new Uint8Array(0);
  private closed = false;

  constructor(
    private readonly path: string,
    private fd: number,
    private readonly block: number,
  ) {}

  async append(bytes: Uint8Array | readonly Uint8Array[]): Promise<void> {
    const pieces = bytes instanceof Uint8Array ? [bytes] : bytes;
    const total = pieces.reduce((sum, piece) => sum + piece.byteLength, 0);
    if (total === 0) {
      return;
    }
    if (this.direct) {
      try {
        await this.writeDirect(pieces, total);
        return;
      } catch (error) {
        if (errorCode(error) !== 'EINVAL') {
          throw error;
        }
        await this.goBuffered();
      }
    }
    await writevAll(this.fd, pieces, this.length);
    this.length += total;
    this.end = Math.max(this.end, this.length);
  }

  async sync(): Promise<void> {
    await this.trim();
    await syncFile(this.fd);
  }

  async close(): Promise<void> {
    if (this.closed) {
      return;
    }
    this.closed = true;
    try {
      await this.trim();
    } finally {
      await closeFile(this.fd);
    }
  }

  /** Writes the carried tail and `pieces` from the tail's block on, padded to whole blocks. */
  private async writeDirect(pieces: readonly Uint8Array[], total: number): Promise<void> {
    const start = this.length - this.tail.byteLength;
    const used = this.tail.byteLength + total;
    const size = Math.ceil(used / this.block) * this.block;
    const stage = await borrowAligned(size);
    try {
      const staged = stage.bytes;
      staged.set(this.tail, 0);
      let at = this.tail.byteLength;
      for (const piece of pieces) {
        staged.set(piece, at);
        at += piece.byteLength;
      }
      staged.fill(0, used, size);
      await writevAll(this.fd, [staged], start);
      this.tail = Buffer.from(staged.subarray(used - (used % this.block), used));
      this.length += total;
      this.end = Math.max(this.end, start + size);
    } finally {
      stage.release();
    }
  }

  /** Reopens the file without O_DIRECT (the filesystem refused a direct write). */
  private async goBuffered(): Promise<void> {
    const buffered = await openFile(this.path, constants.O_WRONLY);
    const fd = this.fd;
    this.fd = buffered;
    this.direct = false;
    await closeFile(fd);
  }

  /** Cuts the padding of the last block. */
  private async trim(): Promise<void> {
    if (this.end > this.length) {
      await new Promise<void>((resolve, reject) =>
        ftruncate(this.fd, this.length, (error) => (error ? reject(error) : resolve())),
      );
      this.end = this.length;
    }
  }
}

/**
 * Opens a new, empty file at `path` (its directory made when missing) for direct appends aligned to
 * `block` (tests pass a smaller one to have writes refused); undefined when the platform or
 * filesystem refuses O_DIRECT or the file already has bytes (append buffered then).
 */
export async function openDirectAppender(path: string, block = DIRECT_BLOCK): Promise<DirectAppender | undefined> {
  const direct = constants.O_DIRECT;
  if (direct === undefined) {
    return undefined;
  }
  let fd: number;
  try {
    fd = await openMakingParent(path, constants.O_WRONLY | constants.O_CREAT | direct);
  } catch (error) {
    if (errorCode(error) === 'EINVAL') {
      return undefined;
    }
    throw error;
  }
  if ((await fileSize(fd)) !== 0) {
    await closeFile(fd);
    return undefined;
  }
  return new DirectFile(path, fd, block);
}
