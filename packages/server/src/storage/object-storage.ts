/**
 * The one storage interface behind recordings, chapters, clips, thumbnails, sprites and VOD
 * (DESIGN.md §4): a flat space of keys holding bytes. Backends: the local directory (default,
 * embedded) and any S3-compatible store. Reads and writes are streams (no whole file in memory);
 * reads take a byte range so progressive MP4 can seek.
 */
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';

/** A byte range of an object; `end` is inclusive and defaults to the last byte. */
export interface ByteRange {
  start: number;
  end?: number;
}

/** What a write may say about the object. */
export interface PutOptions {
  contentType?: string;
  /**
   * `stable` (default): resolves once the object is on stable storage and readers see it whole or
   * not at all. `written`: resolves once the bytes are handed to the backend — they survive a kill
   * of this process but not a power loss until the backend writes them back, and a concurrent
   * reader may see the object part-written; for fresh keys that an index names only afterwards
   * (recorded segments). The content type is the one the key implies. Backends whose every put is
   * stable (S3) treat it as `stable`.
   */
  durability?: 'stable' | 'written';
}

/** An object being appended to (an append-only log such as a recording's index), one writer at a time. */
export interface ObjectAppender {
  /**
   * Appends bytes (pieces in order: one gathered write) with `written` durability (see
   * PutOptions): a process kill keeps every completed append.
   */
  append(bytes: Uint8Array | readonly Uint8Array[]): Promise<void>;
  /** Brings what was appended to stable storage. */
  sync(): Promise<void>;
  /** Releases the object (no more appends). */
  close(): Promise<void>;
}

/** How an appender writes. */
export interface AppendOptions {
  /**
   * Large appends rarely read back soon (recorded packs): written around the page cache where the
   * store can (O_DIRECT on a new file, ADR 0081), buffered where it cannot. A hint.
   */
  readonly direct?: boolean;
}

/** What storage knows of one object. */
export interface StoredObjectInfo {
  key: string;
  size: number;
  contentType?: string;
  modifiedAt: Date;
}

/** An object (or a range of it) being read: the bytes as a stream and where they sit. */
export interface StoredObjectRead {
  body: Readable;
  /** Bytes in `body`. */
  length: number;
  /** Size of the whole object. */
  totalSize: number;
  /** The range served (inclusive), when a range was asked for. */
  range?: { start: number; end: number };
  contentType?: string;
}

/** Keys, bytes and ranged reads: what every storage backend provides. */
export interface ObjectStorage {
  /** Backend name for logs, metrics and errors. */
  readonly kind: 'local' | 's3';
  /** Writes an object from bytes or a byte stream; resolves once it is durable. */
  put(key: string, body: Uint8Array | Readable, options?: PutOptions): Promise<void>;
  /** Reads an object or a range of it; rejects with StorageNotFoundError when absent. */
  get(key: string, range?: ByteRange): Promise<StoredObjectRead>;
  /** The object's size and type, or null when absent. */
  head(key: string): Promise<StoredObjectInfo | null>;
  /** Every object whose key starts with the prefix, in key order. */
  list(prefix: string): AsyncIterable<StoredObjectInfo>;
  /** Deletes one object; an absent object is not an error. */
  delete(key: string): Promise<void>;
  /** Deletes every object under the prefix and says how many there were. */
  deletePrefix(prefix: string): Promise<number>;
  /** The object's file on this machine, when the backend keeps objects as files: tools read it in place. */
  localFile?(key: string): string;
  /** A directory on the store's own filesystem for work files that end up stored (backends keeping files). */
  readonly scratchDir?: string;
  /** Moves a finished file of this machine into the store at the key (renamed when on the same filesystem, else copied); the file is gone afterwards. */
  moveIn?(key: string, file: string, options?: PutOptions): Promise<void>;
  /** Opens an object for appending, created empty when absent (backends keeping files; others rewrite whole objects). */
  openAppender?(key: string, options?: AppendOptions): Promise<ObjectAppender>;
}

/** Stores a finished file of this machine: moved in when the backend keeps files (no copy), else streamed. */
export async function putFile(storage: ObjectStorage, key: string, file: string, options?: PutOptions): Promise<void> {
  if (storage.moveIn) {
    await storage.moveIn(key, file, options);
  } else {
    await storage.put(key, createReadStream(file), options);
  }
}

/** The key names no object. */
export class StorageNotFoundError extends Error {
  /** Builds the error for one key. */
  constructor(readonly key: string) {
    super(`no stored object at ${key}`);
    this.name = 'StorageNotFoundError';
  }
}

/** The store refused or failed a request (full disk, 5xx after retries, denied): `reason` says which. */
export class StorageFailedError extends Error {
  /** Builds the error with the operation, key and the store's reason. */
  constructor(
    readonly operation: string,
    readonly key: string,
    readonly reason: string,
  ) {
    super(`storage ${operation} of ${key} failed: ${reason}`);
    this.name = 'StorageFailedError';
  }
}

const keyPattern = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

/** Throws unless the key is a relative path of safe segments (each segment starts with a letter or digit, so no `..` and no leading slash; ≤ 512 chars). */
export function assertStorageKey(key: string): void {
  if (key.length > 512 || !keyPattern.test(key)) {
    throw new Error(`invalid storage key: ${JSON.stringify(key.slice(0, 80))}`);
  }
}
