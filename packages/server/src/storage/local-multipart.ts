/**
 * Multipart uploads for the local-directory backend, served by Airwave itself with the protocol
 * S3 uses (issue 18, ADR 0052): each part is PUT to a signed, expiring URL on Airwave's HTTP port
 * (`/uploads/<uploadId>/<partNumber>?expires=<unix s>&signature=<HMAC-SHA256>`), answered with
 * the part's ETag (quoted MD5 of its bytes, as S3 does). Every part is written straight into one
 * file of the upload at its offset (`(partNumber − 1) × partBytes`), so completing checks the
 * ETags and sizes, fsyncs that file once and moves it into the store: the bytes are written once.
 * An upload waits in `<dir>/<uploadId>/` (`data`, `meta.json`, one `<n>.part.json` per part).
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir, open, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { MAX_PARTS, type MultipartPart, type MultipartUploads, type UploadedPart } from './multipart-uploads.js';
import { assertStorageKey, type ObjectStorage, putFile, StorageFailedError } from './object-storage.js';

/** Largest part accepted (S3's limit). */
export const MAX_PART_BYTES = 5 * 1024 ** 3;
const UPLOAD_ID = /^[0-9a-f]{32}$/;
/** Bytes of a part gathered before one write to the file. */
const WRITE_BATCH_BYTES = 1024 * 1024;

/** Why a part PUT is refused: HTTP status and S3-style error code. */
export class PartRefused extends Error {
  /** Builds the refusal. */
  constructor(
    readonly status: 400 | 403 | 404 | 413,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'PartRefused';
  }
}

interface UploadMeta {
  key: string;
  partBytes: number;
  contentType?: string;
}

interface PartRecord {
  etag: string;
  sizeBytes: number;
}

/** Local multipart sessions with signed part URLs. */
export class LocalMultipartUploads implements MultipartUploads {
  /** PUTs in flight per `<uploadId>/<part>`: a second PUT of one part waits for the first. */
  private readonly writing = new Map<string, Promise<unknown>>();

  /**
   * @param dir where uploads wait (on the store's filesystem, so a completed one moves in)
   * @param storage where completed objects go
   * @param secret HMAC key of part URLs (kept across restarts so issued URLs stay valid)
   * @param baseUrl origin of this node's HTTP port, e.g. `http://127.0.0.1:8080`
   */
  constructor(
    private readonly dir: string,
    private readonly storage: ObjectStorage,
    private readonly secret: string,
    private readonly baseUrl: () => string,
    private readonly now: () => number = Date.now,
  ) {}

  private sign(uploadId: string, partNumber: number, expires: number): string {
    return createHmac('sha256', this.secret).update(`PUT\n${uploadId}\n${partNumber}\n${expires}`).digest('base64url');
  }

  private async meta(uploadId: string): Promise<UploadMeta | undefined> {
    if (!UPLOAD_ID.test(uploadId)) {
      return undefined;
    }
    try {
      return JSON.parse(await readFile(join(this.dir, uploadId, 'meta.json'), 'utf8')) as UploadMeta;
    } catch {
      return undefined;
    }
  }

  /** Starts an upload: a directory with an empty data file. */
  async createMultipart(key: string, contentType: string | undefined, partBytes?: number): Promise<string> {
    assertStorageKey(key);
    if (partBytes === undefined || !Number.isSafeInteger(partBytes) || partBytes < 1 || partBytes > MAX_PART_BYTES) {
      throw new Error('a local multipart upload needs its part size (1 byte to 5 GiB)');
    }
    const uploadId = randomBytes(16).toString('hex');
    const folder = join(this.dir, uploadId);
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'data'), '');
    const meta: UploadMeta = { key, partBytes, ...(contentType ? { contentType } : {}) };
    await writeFile(join(folder, 'meta.json'), JSON.stringify(meta));
    return uploadId;
  }

  /** A signed URL on this node's HTTP port for one part. */
  async presignPart(_key: string, uploadId: string, partNumber: number, expiresInSeconds: number): Promise<string> {
    const expires = Math.floor(this.now() / 1000) + expiresInSeconds;
    const signature = this.sign(uploadId, partNumber, expires);
    return `${this.baseUrl()}/uploads/${uploadId}/${partNumber}?expires=${expires}&signature=${signature}`;
  }

  /** Checks a part URL's signature and expiry, then writes the body at the part's offset; answers the part's ETag. */
  async acceptPart(
    uploadId: string,
    partNumberText: string,
    query: { expires?: string; signature?: string },
    body: Readable,
  ): Promise<string> {
    const partNumber = Number(partNumberText);
    const expires = Number(query.expires);
    if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > MAX_PARTS || !Number.isInteger(expires)) {
      throw new PartRefused(400, 'InvalidArgument', 'part number or expiry missing or malformed');
    }
    const expected = Buffer.from(this.sign(uploadId, partNumber, expires));
    const given = Buffer.from(query.signature ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new PartRefused(403, 'SignatureDoesNotMatch', 'the URL signature does not match');
    }
    if (expires * 1000 < this.now()) {
      throw new PartRefused(403, 'AccessDenied', 'the URL has expired');
    }
    const meta = await this.meta(uploadId);
    if (!meta) {
      throw new PartRefused(404, 'NoSuchUpload', 'the upload does not exist (aborted, completed or expired)');
    }
    const slot = `${uploadId}/${partNumber}`;
    const before = this.writing.get(slot) ?? Promise.resolve();
    const write = before.catch(() => undefined).then(() => this.writePart(uploadId, partNumber, meta.partBytes, body));
    this.writing.set(slot, write);
    try {
      return await write;
    } finally {
      if (this.writing.get(slot) === write) {
        this.writing.delete(slot);
      }
    }
  }

  /** Writes one part at its offset; its record (ETag, size) is written only once every byte is. */
  private async writePart(uploadId: string, partNumber: number, partBytes: number, body: Readable): Promise<string> {
    const folder = join(this.dir, uploadId);
    const record = join(folder, `${partNumber}.part.json`);
    await rm(record, { force: true });
    const md5 = createHash('md5');
    let size = 0;
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      handle = await open(join(folder, 'data'), 'r+');
    } catch {
      throw new PartRefused(404, 'NoSuchUpload', 'the upload does not exist (aborted, completed or expired)');
    }
    // Chunks are written in batches, one batch in flight while the next is read.
    let writing: Promise<unknown> = Promise.resolve();
    let batch: Buffer[] = [];
    let position = (partNumber - 1) * partBytes;
    const flush = async () => {
      await writing;
      const chunks = batch;
      const at = position;
      position += chunks.reduce((sum, chunk) => sum + chunk.length, 0);
      batch = [];
      writing = handle.writev(chunks, at);
      writing.catch(() => undefined);
    };
    try {
      let batched = 0;
      for await (const chunk of body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > partBytes) {
          throw new PartRefused(413, 'EntityTooLarge', `a part of this upload holds at most ${partBytes} bytes`);
        }
        md5.update(chunk);
        batch.push(chunk);
        batched += chunk.length;
        if (batched >= WRITE_BATCH_BYTES) {
          batched = 0;
          await flush();
        }
      }
      await flush();
      await writing;
    } finally {
      await writing.catch(() => undefined);
      await handle.close();
    }
    const etag = `"${md5.digest('hex')}"`;
    const part: PartRecord = { etag, sizeBytes: size };
    await writeFile(record, JSON.stringify(part));
    return etag;
  }

  /** The parts stored so far. */
  async listParts(_key: string, uploadId: string): Promise<UploadedPart[]> {
    if (!(await this.meta(uploadId))) {
      throw new StorageFailedError('list-parts', uploadId, 'NoSuchUpload');
    }
    const folder = join(this.dir, uploadId);
    const parts: UploadedPart[] = [];
    for (const name of await readdir(folder)) {
      const match = /^(\d+)\.part\.json$/.exec(name);
      if (match) {
        const record = await readFile(join(folder, name), 'utf8').catch(() => undefined);
        if (record !== undefined) {
          const { etag, sizeBytes } = JSON.parse(record) as PartRecord;
          parts.push({ partNumber: Number(match[1]), etag, sizeBytes });
        }
      }
    }
    return parts.sort((a, b) => a.partNumber - b.partNumber);
  }

  /** Checks the listed parts (ETags; every part but the last full), then moves the upload's file into the store. */
  async completeMultipart(key: string, uploadId: string, parts: readonly MultipartPart[]): Promise<void> {
    const meta = await this.meta(uploadId);
    if (!meta || meta.key !== key) {
      throw new StorageFailedError('complete-multipart', key, 'NoSuchUpload');
    }
    const held = new Map((await this.listParts(key, uploadId)).map((part) => [part.partNumber, part]));
    const unquote = (etag: string) => etag.replace(/^"|"$/g, '');
    let total = 0;
    parts.forEach((part, index) => {
      const stored = held.get(part.partNumber);
      if (stored === undefined || unquote(stored.etag) !== unquote(part.etag) || part.partNumber !== index + 1) {
        throw new StorageFailedError('complete-multipart', key, `InvalidPart: part ${part.partNumber}`);
      }
      if (index < parts.length - 1 && stored.sizeBytes !== meta.partBytes) {
        throw new StorageFailedError(
          'complete-multipart',
          key,
          `EntityTooSmall: part ${part.partNumber} holds ${stored.sizeBytes} bytes, not ${meta.partBytes}`,
        );
      }
      total += stored.sizeBytes;
    });
    const data = join(this.dir, uploadId, 'data');
    // A longer last part uploaded before the one listed may have left bytes past the end.
    await truncate(data, total);
    await putFile(this.storage, key, data, meta.contentType ? { contentType: meta.contentType } : {});
    await rm(join(this.dir, uploadId), { recursive: true, force: true });
  }

  /** Drops the upload's parts. */
  async abortMultipart(_key: string, uploadId: string): Promise<void> {
    if (UPLOAD_ID.test(uploadId)) {
      await rm(join(this.dir, uploadId), { recursive: true, force: true });
    }
  }
}
