/**
 * The local-directory backend of ObjectStorage: a key is a relative path under one root
 * directory. Writes go to a temporary file under `<root>/.tmp`, are fsynced, renamed into place
 * and the directory fsynced, so a reader (or a restart after `kill -9`) sees a whole object or
 * none — except `written` puts and appends (recorded segments and their index, ADR 0023), which
 * write the file in place without fsync. Reads stream from the file, optionally over a byte range. A content type that is not the
 * one the key's extension implies is kept in a sidecar under `<root>/.meta`. Keys never start
 * with a dot (assertStorageKey), so neither directory can collide with an object.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, rmdir, stat, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { contentTypeOfKey } from './content-types.js';
import { openDirectAppender } from './direct-appends.js';
import { errorCode, openFileAppender, writeFileInPlace } from './local-file-writes.js';
import {
  type AppendOptions,
  assertStorageKey,
  type ByteRange,
  type ObjectAppender,
  type ObjectStorage,
  type PutOptions,
  StorageFailedError,
  StorageNotFoundError,
  type StoredObjectInfo,
  type StoredObjectRead,
} from './object-storage.js';

const TEMP_DIR = '.tmp';
const META_DIR = '.meta';

function failed(operation: string, key: string, error: unknown): StorageFailedError {
  const code = errorCode(error);
  return new StorageFailedError(operation, key, code ?? (error instanceof Error ? error.message : String(error)));
}

/** fsync of a file or directory by path. */
async function fsyncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** ObjectStorage over a local directory (the embedded default). */
export class LocalStorage implements ObjectStorage {
  readonly kind = 'local' as const;

  /** Uses `root` (created on first write) for objects; leftover temporary files of a crashed write are removed by `open`. */
  constructor(readonly root: string) {}

  /** Creates the root and clears temporary files a killed process left behind. */
  async open(): Promise<void> {
    await rm(join(this.root, TEMP_DIR), { recursive: true, force: true });
    await mkdir(join(this.root, TEMP_DIR), { recursive: true });
  }

  private path(key: string): string {
    assertStorageKey(key);
    return join(this.root, key);
  }

  /** Files here can be moved in (same filesystem as the objects; cleared by `open`). */
  get scratchDir(): string {
    return join(this.root, TEMP_DIR);
  }

  /** Moves a finished file into place: fsynced and renamed (copied when it sits on another filesystem). */
  async moveIn(key: string, file: string, options?: PutOptions): Promise<void> {
    const target = this.path(key);
    try {
      await fsyncPath(file);
      await this.writeContentType(key, options?.contentType);
      await this.moveIntoPlace(file, target);
    } catch (error) {
      if (errorCode(error) === 'EXDEV') {
        await this.put(key, createReadStream(file), options);
        await rm(file, { force: true });
        return;
      }
      throw failed('move-in', key, error);
    }
  }

  /** The object's file (objects are files under the root). */
  localFile(key: string): string {
    return this.path(key);
  }

  async put(key: string, body: Uint8Array | Readable, options?: PutOptions): Promise<void> {
    const target = this.path(key);
    if (options?.durability === 'written' && body instanceof Uint8Array && options.contentType === undefined) {
      try {
        await writeFileInPlace(target, body);
      } catch (error) {
        throw failed('put', key, error);
      }
      return;
    }
    const temp = join(this.root, TEMP_DIR, `${randomBytes(8).toString('hex')}.part`);
    try {
      await mkdir(dirname(temp), { recursive: true });
      const handle = await open(temp, 'w');
      try {
        if (body instanceof Uint8Array) {
          await handle.write(body);
        } else {
          for await (const chunk of body) {
            await handle.write(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Uint8Array));
          }
        }
        await handle.sync();
      } finally {
        await handle.close();
      }
      await this.writeContentType(key, options?.contentType);
      await this.moveIntoPlace(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      if (error instanceof StorageFailedError) {
        throw error;
      }
      throw failed('put', key, error);
    }
  }

  async openAppender(key: string, options?: AppendOptions): Promise<ObjectAppender> {
    const path = this.path(key);
    try {
      return (options?.direct ? await openDirectAppender(path) : undefined) ?? (await openFileAppender(path));
    } catch (error) {
      throw failed('append', key, error);
    }
  }

  /** Renames the temporary file over the key's path; a directory pruned by a concurrent delete is made again. */
  private async moveIntoPlace(temp: string, target: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      await mkdir(dirname(target), { recursive: true });
      try {
        await rename(temp, target);
        break;
      } catch (error) {
        if (errorCode(error) !== 'ENOENT' || attempt >= 2) {
          throw error;
        }
      }
    }
    await fsyncPath(dirname(target));
  }

  private async writeContentType(key: string, contentType: string | undefined): Promise<void> {
    const sidecar = join(this.root, META_DIR, key);
    if (contentType === undefined || contentType === contentTypeOfKey(key)) {
      await rm(sidecar, { force: true });
      return;
    }
    await mkdir(dirname(sidecar), { recursive: true });
    const temp = join(this.root, TEMP_DIR, `${randomBytes(8).toString('hex')}.meta`);
    const handle = await open(temp, 'w');
    try {
      await handle.write(contentType);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, sidecar);
  }

  private async contentType(key: string): Promise<string | undefined> {
    try {
      return await readFile(join(this.root, META_DIR, key), 'utf8');
    } catch {
      return contentTypeOfKey(key);
    }
  }

  async get(key: string, range?: ByteRange): Promise<StoredObjectRead> {
    const path = this.path(key);
    let size: number;
    try {
      const info = await stat(path);
      if (!info.isFile()) {
        throw new StorageNotFoundError(key);
      }
      size = info.size;
    } catch (error) {
      if (error instanceof StorageNotFoundError || errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') {
        throw new StorageNotFoundError(key);
      }
      throw failed('get', key, error);
    }
    const contentType = await this.contentType(key);
    if (range === undefined) {
      return { body: createReadStream(path), length: size, totalSize: size, contentType };
    }
    const end = Math.min(range.end ?? size - 1, size - 1);
    if (!Number.isInteger(range.start) || range.start < 0 || range.start > end) {
      throw new StorageFailedError(
        'get',
        key,
        `range ${range.start}-${range.end ?? ''} not satisfiable (size ${size})`,
      );
    }
    return {
      body: createReadStream(path, { start: range.start, end }),
      length: end - range.start + 1,
      totalSize: size,
      range: { start: range.start, end },
      contentType,
    };
  }

  async head(key: string): Promise<StoredObjectInfo | null> {
    try {
      const info = await stat(this.path(key));
      if (!info.isFile()) {
        return null;
      }
      return { key, size: info.size, contentType: await this.contentType(key), modifiedAt: info.mtime };
    } catch (error) {
      if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') {
        return null;
      }
      throw failed('head', key, error);
    }
  }

  async *list(prefix: string): AsyncIterable<StoredObjectInfo> {
    const slash = prefix.lastIndexOf('/');
    const base = slash < 0 ? '' : prefix.slice(0, slash);
    if (base !== '') {
      assertStorageKey(base);
    }
    yield* this.walk(base, prefix);
  }

  /** Objects under directory `dir` (a key prefix ending at a segment) whose keys start with `prefix`, in key order. */
  private async *walk(dir: string, prefix: string): AsyncGenerator<StoredObjectInfo> {
    let entries: { name: string; directory: boolean }[];
    try {
      const dirents = await readdir(dir === '' ? this.root : join(this.root, dir), { withFileTypes: true });
      entries = dirents
        .filter((entry) => !entry.name.startsWith('.'))
        .map((entry) => ({ name: entry.name, directory: entry.isDirectory() }));
    } catch (error) {
      if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') {
        return;
      }
      throw failed('list', prefix, error);
    }
    // Keys under a directory `a` all start with `a/`: sorting directories as `a/` gives key order.
    const sortName = (entry: { name: string; directory: boolean }) => (entry.directory ? `${entry.name}/` : entry.name);
    entries.sort((a, b) => (sortName(a) < sortName(b) ? -1 : sortName(a) > sortName(b) ? 1 : 0));
    for (const entry of entries) {
      const key = dir === '' ? entry.name : `${dir}/${entry.name}`;
      if (entry.directory) {
        const asPrefix = `${key}/`;
        if (asPrefix.startsWith(prefix) || prefix.startsWith(asPrefix)) {
          yield* this.walk(key, prefix);
        }
      } else if (key.startsWith(prefix)) {
        const info = await this.head(key);
        if (info !== null) {
          yield info;
        }
      }
    }
  }

  async delete(key: string): Promise<void> {
    const path = this.path(key);
    try {
      await unlink(path);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT' && errorCode(error) !== 'ENOTDIR') {
        throw failed('delete', key, error);
      }
    }
    await rm(join(this.root, META_DIR, key), { force: true });
    await this.pruneEmptyParents(key);
  }

  /** Removes the now-empty directories between the key and the root (objects keep the tree shallow). */
  private async pruneEmptyParents(key: string): Promise<void> {
    let parent = dirname(key);
    while (parent !== '.' && parent !== '') {
      try {
        await rmdir(join(this.root, parent));
      } catch {
        return;
      }
      parent = dirname(parent);
    }
  }

  async deletePrefix(prefix: string): Promise<number> {
    const keys: string[] = [];
    for await (const info of this.list(prefix)) {
      keys.push(info.key);
    }
    for (const key of keys) {
      await this.delete(key);
    }
    return keys.length;
  }
}
