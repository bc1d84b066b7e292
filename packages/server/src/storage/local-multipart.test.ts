/**
 * The local backend's multipart uploads: parts PUT in any order (and again) are written in place
 * and joined into the object with S3's ETags; a part longer than the part size, a short part that
 * is not the last, a wrong ETag, a forged or expired URL and an aborted upload are refused the way
 * S3 refuses them.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { LocalMultipartUploads, PartRefused } from './local-multipart.js';
import { LocalStorage } from './local-storage.js';
import { StorageFailedError } from './object-storage.js';

const PART = 1024;

async function fresh(now: () => number = Date.now) {
  const root = mkdtempSync(join(tmpdir(), 'airwave-multipart-'));
  const storage = new LocalStorage(join(root, 'storage'));
  await storage.open();
  const uploads = new LocalMultipartUploads(join(root, 'uploads'), storage, 'k'.repeat(32), () => 'http://h', now);
  return { root, storage, uploads, cleanup: () => rm(root, { recursive: true, force: true }) };
}

/** PUTs bytes to a part URL the way the route does: query from the URL, body as a stream of small chunks. */
async function put(uploads: LocalMultipartUploads, url: string, bytes: Buffer): Promise<string> {
  const parsed = new URL(url);
  const [, , uploadId, part] = parsed.pathname.split('/') as [string, string, string, string];
  const chunks = Array.from({ length: Math.ceil(bytes.length / 100) }, (_, i) =>
    bytes.subarray(i * 100, i * 100 + 100),
  );
  return uploads.acceptPart(uploadId, part, Object.fromEntries(parsed.searchParams), Readable.from(chunks));
}

const md5 = (bytes: Buffer) => `"${createHash('md5').update(bytes).digest('hex')}"`;

test('parts PUT out of order and again are joined in order into the object, with MD5 ETags', async () => {
  const { storage, uploads, root, cleanup } = await fresh();
  try {
    const file = randomBytes(PART * 2 + 300);
    const slices = [file.subarray(0, PART), file.subarray(PART, 2 * PART), file.subarray(2 * PART)];
    const id = await uploads.createMultipart('vod/a/source', 'video/mp4', PART);
    const urls = await Promise.all([1, 2, 3].map((n) => uploads.presignPart('vod/a/source', id, n, 60)));
    // A first, longer try of the last part: the later PUT replaces it.
    await put(uploads, urls[2] as string, randomBytes(PART));
    const etags = [
      await put(uploads, urls[0] as string, slices[0] as Buffer),
      await put(uploads, urls[1] as string, slices[1] as Buffer),
      await put(uploads, urls[2] as string, slices[2] as Buffer),
    ];
    assert.deepEqual(etags, slices.map(md5));
    const listed = await uploads.listParts('vod/a/source', id);
    assert.deepEqual(
      listed.map((p) => [p.partNumber, p.sizeBytes]),
      [
        [1, PART],
        [2, PART],
        [3, 300],
      ],
    );
    await uploads.completeMultipart(
      'vod/a/source',
      id,
      etags.map((etag, i) => ({ partNumber: i + 1, etag })),
    );
    const read = await storage.get('vod/a/source');
    assert.equal(read.totalSize, file.length);
    assert.equal(read.contentType, 'video/mp4');
    assert.ok(Buffer.concat(await read.body.toArray()).equals(file));
    assert.deepEqual(await readdir(join(root, 'uploads')), []);
  } finally {
    await cleanup();
  }
});

test('a part longer than the part size, a short part before the last and a wrong ETag are refused', async () => {
  const { uploads, cleanup } = await fresh();
  try {
    const id = await uploads.createMultipart('vod/b/source', undefined, PART);
    const url = (n: number) => uploads.presignPart('vod/b/source', id, n, 60);
    await assert.rejects(put(uploads, await url(1), randomBytes(PART + 1)), (error: unknown) => {
      assert.ok(error instanceof PartRefused);
      assert.equal(error.status, 413);
      assert.equal(error.code, 'EntityTooLarge');
      return true;
    });
    assert.deepEqual(await uploads.listParts('vod/b/source', id), []);
    const short = await put(uploads, await url(1), randomBytes(PART - 1));
    const last = await put(uploads, await url(2), randomBytes(10));
    await assert.rejects(
      uploads.completeMultipart('vod/b/source', id, [
        { partNumber: 1, etag: short },
        { partNumber: 2, etag: last },
      ]),
      (error: unknown) => error instanceof StorageFailedError && error.reason.startsWith('EntityTooSmall'),
    );
    const full = await put(uploads, await url(1), randomBytes(PART));
    await assert.rejects(
      uploads.completeMultipart('vod/b/source', id, [
        { partNumber: 1, etag: full },
        { partNumber: 2, etag: md5(Buffer.from('other')) },
      ]),
      (error: unknown) => error instanceof StorageFailedError && error.reason.startsWith('InvalidPart'),
    );
  } finally {
    await cleanup();
  }
});

test('a forged or expired URL and a part of an aborted upload are refused', async () => {
  let now = Date.now();
  const { uploads, cleanup } = await fresh(() => now);
  try {
    const id = await uploads.createMultipart('vod/c/source', undefined, PART);
    const url = await uploads.presignPart('vod/c/source', id, 1, 60);
    const refusal = (status: number, code: string) => (error: unknown) =>
      error instanceof PartRefused && error.status === status && error.code === code;
    await assert.rejects(
      put(uploads, url.replace('/1?', '/2?'), randomBytes(10)),
      refusal(403, 'SignatureDoesNotMatch'),
    );
    now += 61_000;
    await assert.rejects(put(uploads, url, randomBytes(10)), refusal(403, 'AccessDenied'));
    now -= 61_000;
    await put(uploads, url, randomBytes(10));
    await uploads.abortMultipart('vod/c/source', id);
    await assert.rejects(put(uploads, url, randomBytes(10)), refusal(404, 'NoSuchUpload'));
    await assert.rejects(uploads.listParts('vod/c/source', id), StorageFailedError);
  } finally {
    await cleanup();
  }
});
