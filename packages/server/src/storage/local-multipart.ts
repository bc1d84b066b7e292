/**
 * Multipart uploads for the local-directory backend, served by Airwave itself with the protocol
 * S3 uses (issue 18): each part is PUT to a signed, expiring URL on Airwave's HTTP port
 * (`/uploads/<uploadId>/<partNumber>?expires=<unix s>&signature=<HMAC-SHA256>`), answered with
 * the part's ETag (quoted MD5 of its bytes, as S3 does); completing streams the parts in order
 * into the object store and drops them. Parts wait in `<dir>/<uploadId>/`.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MAX_PARTS, type MultipartPart, type MultipartUploads, type UploadedPart } from './multipart-uploads.js';
import { assertStorageKey, type ObjectStorage, StorageFailedError } from './object-storage.js';

/** Largest part accepted (S3's limit). */
export const MAX_PART_BYTES = 5 * 1024 ** 3;
const UPLOAD_ID = /^[0-9a-f]{32}$/;

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
  contentType?: string;
}

/** Local multipart sessions with signed part URLs. */
export class LocalMultipartUploads implements MultipartUploads {
  /**
   * @param dir where parts wait
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

  /** Starts an upload: a directory for its parts. */
  async createMultipart(key: string, contentType: string | undefined): Promise<string> {
    assertStorageKey(key);
    const uploadId = randomBytes(16).toString('hex');
    await mkdir(join(this.dir, uploadId), { recursive: true });
    const meta: UploadMeta = { key, ...(contentType ? { contentType } : {}) };
    await writeFile(join(this.dir, uploadId, 'meta.json'), JSON.stringify(meta));
    return uploadId;
  }

  /** A signed URL on this node's HTTP port for one part. */
  async presignPart(_key: string, uploadId: string, partNumber: number, expiresInSeconds: number): Promise<string> {
    const expires = Math.floor(this.now() / 1000) + expiresInSeconds;
    const signature = this.sign(uploadId, partNumber, expires);
    return `${this.baseUrl()}/uploads/${uploadId}/${partNumber}?expires=${expires}&signature=${signature}`;
  }

  /** Checks a part URL's signature and expiry, then stores the body; answers the part's ETag. */
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
    if (!(await this.meta(uploadId))) {
      throw new PartRefused(404, 'NoSuchUpload', 'the upload does not exist (aborted, completed or expired)');
    }
    const folder = join(this.dir, uploadId);
    const temp = join(folder, `${partNumber}.${randomBytes(4).toString('hex')}.tmp`);
    const md5 = createHash('md5');
    let size = 0;
    const count = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        if (size > MAX_PART_BYTES) {
          done(new PartRefused(413, 'EntityTooLarge', `a part may hold at most ${MAX_PART_BYTES} bytes`));
          return;
        }
        md5.update(chunk);
        done(null, chunk);
      },
    });
    try {
      await pipeline(body, count, createWriteStream(temp));
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    const etag = `"${md5.digest('hex')}"`;
    await writeFile(join(folder, `${partNumber}.etag`), etag);
    await rename(temp, join(folder, `${partNumber}.part`));
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
      const match = /^(\d+)\.part$/.exec(name);
      if (match) {
        const partNumber = Number(match[1]);
        const etag = await readFile(join(folder, `${partNumber}.etag`), 'utf8').catch(() => '');
        parts.push({ partNumber, etag, sizeBytes: (await stat(join(folder, name))).size });
      }
    }
    return parts.sort((a, b) => a.partNumber - b.partNumber);
  }

  /** Streams the listed parts in order into the store, then drops them. */
  async completeMultipart(key: string, uploadId: string, parts: readonly MultipartPart[]): Promise<void> {
    const meta = await this.meta(uploadId);
    if (!meta || meta.key !== key) {
      throw new StorageFailedError('complete-multipart', key, 'NoSuchUpload');
    }
    const held = new Map((await this.listParts(key, uploadId)).map((part) => [part.partNumber, part.etag]));
    const unquote = (etag: string) => etag.replace(/^"|"$/g, '');
    for (const part of parts) {
      const etag = held.get(part.partNumber);
      if (etag === undefined || unquote(etag) !== unquote(part.etag)) {
        throw new StorageFailedError('complete-multipart', key, `InvalidPart: part ${part.partNumber}`);
      }
    }
    const folder = join(this.dir, uploadId);
    const files = parts.map((part) => join(folder, `${part.partNumber}.part`));
    const joined = Readable.from(
      (async function* () {
        for (const file of files) {
          yield* createReadStream(file);
        }
      })(),
    );
    await this.storage.put(key, joined, meta.contentType ? { contentType: meta.contentType } : {});
    await rm(folder, { recursive: true, force: true });
  }

  /** Drops the upload's parts. */
  async abortMultipart(_key: string, uploadId: string): Promise<void> {
    if (UPLOAD_ID.test(uploadId)) {
      await rm(join(this.dir, uploadId), { recursive: true, force: true });
    }
  }
}
