/**
 * The S3 backend against a real S3 server that verifies SigV4 (Ceph radosgw, started here): the
 * shared ObjectStorage contract, then what is S3's own — streams written in parts, multipart sessions with
 * parts PUT by fetch to presigned URLs, and the refusals (forged signature, wrong secret,
 * expired URL, aborted upload).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { after, before, describe, test } from 'node:test';
import { GetBucketCorsCommand, PutBucketCorsCommand } from '@aws-sdk/client-s3';
import { type Radosgw, radosgwMissing, startRadosgw } from '../testing/radosgw.js';
import { objectStorageContract } from './object-storage.contract.js';
import { StorageFailedError } from './object-storage.js';
import { S3Storage } from './s3-storage.js';

let rgw: Radosgw;
const options = (bucket = 'airwave-s3-test') => ({
  endpoint: rgw.endpoint,
  bucket,
  region: rgw.region,
  credentials: { accessKeyId: rgw.accessKeyId, secretAccessKey: rgw.secretAccessKey },
  forcePathStyle: true,
  writePartBytes: 5 * 1024 * 1024,
});

if (!radosgwMissing) {
  before(async () => {
    rgw = await startRadosgw();
  });
  after(async () => {
    await rgw?.stop();
  });
  let buckets = 0;
  objectStorageContract('S3 (radosgw)', async () => {
    const storage = new S3Storage(options(`contract-${++buckets}`));
    await storage.ensureBucket();
    return {
      storage,
      async cleanup() {
        await storage.deletePrefix('');
        await storage.deleteBucket();
        storage.client.destroy();
      },
    };
  });
}

describe('S3 storage on radosgw', { skip: radosgwMissing }, () => {
  let storage: S3Storage;

  before(async () => {
    storage = new S3Storage(options());
    await storage.ensureBucket();
  });
  after(() => {
    storage?.client.destroy();
  });

  test('bucket CORS: the upload rule is added next to existing rules, once, and a preflight passes', async () => {
    const other = { AllowedOrigins: ['https://other.example'], AllowedMethods: ['GET'], AllowedHeaders: ['*'] };
    await storage.client.send(
      new PutBucketCorsCommand({ Bucket: 'airwave-s3-test', CORSConfiguration: { CORSRules: [other] } }),
    );
    const origin = 'http://127.0.0.1:9';
    assert.equal(await storage.allowBrowserUploads(origin), true);
    assert.equal(await storage.allowBrowserUploads(origin), false, 'the second call changes nothing');
    const rules = (await storage.client.send(new GetBucketCorsCommand({ Bucket: 'airwave-s3-test' }))).CORSRules ?? [];
    assert.equal(rules.length, 2);
    assert.deepEqual(rules[0]?.AllowedOrigins, other.AllowedOrigins);
    assert.deepEqual(rules[1]?.AllowedOrigins, [origin]);
    const preflight = await fetch(`${rgw.endpoint}/airwave-s3-test/x.bin?partNumber=1&uploadId=u`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'PUT' },
    });
    assert.equal(preflight.status, 200);
    assert.equal(preflight.headers.get('access-control-allow-origin'), origin);
    assert.match(String(preflight.headers.get('access-control-expose-headers')), /etag/i);
  });

  test('a stream larger than one part is written through multipart without holding it', async () => {
    const chunk = randomBytes(1024 * 1024);
    const total = 12;
    const source = Readable.from(
      (function* () {
        for (let i = 0; i < total; i++) {
          yield chunk;
        }
      })(),
    );
    await storage.put('b/stream.bin', source, { contentType: 'video/mp4' });
    const info = await storage.head('b/stream.bin');
    assert.equal(info?.size, total * chunk.length);
    const read = await storage.get('b/stream.bin', { start: 7 * chunk.length, end: 7 * chunk.length + 99 });
    assert.deepEqual(await buffer(read.body), chunk.subarray(0, 100));
  });

  test('multipart: parts PUT by fetch to presigned URLs, listed, completed', async () => {
    const key = 'e/upload.bin';
    const first = randomBytes(5 * 1024 * 1024);
    const second = randomBytes(1234);
    const uploadId = await storage.createMultipart(key, 'video/mp4');
    const etags: string[] = [];
    for (const [index, body] of [first, second].entries()) {
      const url = await storage.presignPart(key, uploadId, index + 1, 60);
      const response = await fetch(url, { method: 'PUT', body });
      assert.equal(response.status, 200, await response.text());
      etags.push(response.headers.get('etag') ?? '');
    }
    const listed = await storage.listParts(key, uploadId);
    assert.deepEqual(
      listed.map((part) => [part.partNumber, part.sizeBytes]),
      [
        [1, first.length],
        [2, second.length],
      ],
    );
    await storage.completeMultipart(
      key,
      uploadId,
      etags.map((etag, index) => ({ partNumber: index + 1, etag })),
    );
    const read = await storage.get(key, { start: first.length - 2, end: first.length + 1 });
    assert.deepEqual(await buffer(read.body), Buffer.concat([first.subarray(-2), second.subarray(0, 2)]));
    assert.equal((await storage.head(key))?.contentType, 'video/mp4');
  });

  test('a forged signature is refused (radosgw verifies SigV4)', async () => {
    const key = 'f/forged.bin';
    const uploadId = await storage.createMultipart(key, undefined);
    const url = new URL(await storage.presignPart(key, uploadId, 1, 60));
    const signature = url.searchParams.get('X-Amz-Signature') ?? '';
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`;
    url.searchParams.set('X-Amz-Signature', flipped);
    const forged = await fetch(url, { method: 'PUT', body: Buffer.from('not yours') });
    assert.equal(forged.status, 403);
    assert.match(await forged.text(), /SignatureDoesNotMatch/);
    await storage.put('f/private.bin', Buffer.from('secret'));
    const anonymous = await fetch(`${rgw.endpoint}/airwave-s3-test/f/private.bin`);
    assert.equal(anonymous.status, 403);
    const wrongSecret = new S3Storage({
      ...options(),
      credentials: { accessKeyId: rgw.accessKeyId, secretAccessKey: `${rgw.secretAccessKey.slice(0, -1)}x` },
      maxAttempts: 1,
    });
    try {
      await assert.rejects(wrongSecret.put('f/x', Buffer.from('x')), (error: unknown) => {
        assert.ok(error instanceof StorageFailedError);
        assert.match(error.reason, /SignatureDoesNotMatch|HTTP 403/);
        return true;
      });
    } finally {
      wrongSecret.client.destroy();
      await storage.abortMultipart(key, uploadId);
    }
  });

  test('an expired presigned URL is refused', async () => {
    const key = 'g/expired.bin';
    const uploadId = await storage.createMultipart(key, undefined);
    const url = await storage.presignPart(key, uploadId, 1, 1);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const response = await fetch(url, { method: 'PUT', body: Buffer.from('late') });
    assert.equal(response.status, 403);
    assert.deepEqual(await storage.listParts(key, uploadId), []);
    await storage.abortMultipart(key, uploadId);
  });

  test('abort removes the parts: the upload is gone and completing it fails', async () => {
    const key = 'h/aborted.bin';
    const uploadId = await storage.createMultipart(key, undefined);
    const url = await storage.presignPart(key, uploadId, 1, 60);
    const response = await fetch(url, { method: 'PUT', body: randomBytes(1000) });
    assert.equal(response.status, 200);
    const etag = response.headers.get('etag') ?? '';
    await storage.abortMultipart(key, uploadId);
    await assert.rejects(storage.listParts(key, uploadId), StorageFailedError);
    await assert.rejects(storage.completeMultipart(key, uploadId, [{ partNumber: 1, etag }]), StorageFailedError);
    assert.equal(await storage.head(key), null);
    await storage.abortMultipart(key, uploadId);
  });
});
