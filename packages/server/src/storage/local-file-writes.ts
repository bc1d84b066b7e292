/**
 * The cheap writes of the local backend (ADR 0023): a whole file written in place, and an
 * append-only file kept open — each a few libuv requests on the callback API (no FileHandle, no
 * temporary file, no fsync), for objects an index names only after they are written.
 */
import { close, fdatasync, mkdir, open, writev } from 'node:fs';
import { dirname } from 'node:path';
import type { ObjectAppender } from './object-storage.js';

/** The `code` of a Node system error, if any. */
export function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | null | undefined)?.code;
}

/** Opens `path` with `flags` (a string, or O_* constants) on the callback API. */
export function openFile(path: string, flags: string | number): Promise<number> {
  return new Promise((resolve, reject) => open(path, flags, (error, fd) => (error ? reject(error) : resolve(fd))));
}

/** Flushes a descriptor's data to the device (fdatasync) on the callback API. */
export function syncFile(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fdatasync(fd, (error) => (error ? reject(error) : resolve())));
}

/** Closes a descriptor on the callback API. */
export function closeFile(fd: number): Promise<void> {
  return new Promise((resolve, reject) => close(fd, (error) => (error ? reject(error) : resolve())));
}

/**
 * Writes all of `pieces` in order with gathered writes, at `position` or (null) the file's position;
 * a short write continues where it stopped.
 */
export function writevAll(fd: number, pieces: readonly Uint8Array[], position: number | null = null): Promise<void> {
  return new Promise((resolve, reject) => {
    let at = position;
    const step = (rest: readonly Uint8Array[]): void => {
      writev(fd, rest, at, (error, written) => {
        if (error) {
          reject(error);
          return;
        }
        if (at !== null) {
          at += written;
        }
        let left = written;
        let index = 0;
        while (index < rest.length && left >= (rest[index] as Uint8Array).byteLength) {
          left -= (rest[index] as Uint8Array).byteLength;
          index++;
        }
        if (index === rest.length) {
          resolve();
          return;
        }
        const partial = (rest[index] as Uint8Array).subarray(left);
        step([partial, ...rest.slice(index + 1)]);
      });
    };
    step(pieces);
  });
}

function makeParent(path: string): Promise<void> {
  return new Promise((resolve, reject) =>
    mkdir(dirname(path), { recursive: true }, (error) => (error ? reject(error) : resolve())),
  );
}

/** Opens `path` with `flags`, making its directory first when it is missing. */
export async function openMakingParent(path: string, flags: string | number): Promise<number> {
  try {
    return await openFile(path, flags);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') {
      throw error;
    }
    await makeParent(path);
    return openFile(path, flags);
  }
}

/** Writes `data` as the whole file at `path` (created or truncated) without fsync: open, write, close. */
export async function writeFileInPlace(path: string, data: Uint8Array): Promise<void> {
  const fd = await openMakingParent(path, 'w');
  try {
    await writevAll(fd, [data]);
  } finally {
    await closeFile(fd);
  }
}

/** Opens `path` for appending (created when absent): one write request per append. */
export async function openFileAppender(path: string): Promise<ObjectAppender> {
  const fd = await openMakingParent(path, 'a');
  let closed = false;
  return {
    append: (bytes) => writevAll(fd, bytes instanceof Uint8Array ? [bytes] : bytes),
    sync: () => syncFile(fd),
    close: async () => {
      if (!closed) {
        closed = true;
        await closeFile(fd);
      }
    },
  };
}
