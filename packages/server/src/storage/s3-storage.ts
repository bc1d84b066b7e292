/**
 * The S3-compatible storage backend (DESIGN.md §4) over @aws-sdk/client-s3 v3: ranged GETs
 * stream straight from the response, writes stream through multipart (@aws-sdk/lib-storage), the
 * SDK's standard retry mode retries 5xx and throttling with backoff, and every other failure
 * surfaces as StorageFailedError with the store's reason. Checksums only when an operation
 * requires them (DESIGN.md §10: otherwise presigned URLs carry an empty-body checksum and
 * S3-compatible stores without the newer checksum headers refuse streamed bodies).
 * Multipart sessions for direct client uploads (presigned UploadPart URLs) live here too.
 */
import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  type CORSRule,
  CompleteMultipartUploadCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteBucketCommand,
  DeleteObjectCommand,
  GetBucketCorsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  type ListObjectsV2CommandOutput,
  ListPartsCommand,
  PutBucketCorsCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { withUploadCorsRule } from './bucket-cors.js';
import { contentTypeOfKey } from './content-types.js';
import type { MultipartPart, MultipartUploads, UploadedPart } from './multipart-uploads.js';
import {
  assertStorageKey,
  type ByteRange,
  type ObjectStorage,
  type PutOptions,
  StorageFailedError,
  StorageNotFoundError,
  type StoredObjectInfo,
  type StoredObjectRead,
} from './object-storage.js';

/** Where the bucket is and how to sign. */
export interface S3StorageOptions {
  /** e.g. `http://127.0.0.1:7480`; unset: AWS's endpoint for the region. */
  readonly endpoint?: string;
  readonly bucket: string;
  readonly region: string;
  /** Unset: the SDK's default credential chain (environment, profile, instance role). */
  readonly credentials?: { readonly accessKeyId: string; readonly secretAccessKey: string };
  /** `http://host/bucket/key` instead of `http://bucket.host/key` (most self-hosted stores). */
  readonly forcePathStyle: boolean;
  /** Attempts per request, retries included (default 5). */
  readonly maxAttempts?: number;
  /** Part size of streamed writes (default 8 MiB; S3's minimum is 5 MiB). */
  readonly writePartBytes?: number;
}

const NOT_FOUND_NAMES = new Set(['NoSuchKey', 'NotFound', 'NoSuchUpload']);

function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
}

function isNotFound(error: unknown): boolean {
  return NOT_FOUND_NAMES.has((error as Error).name) || statusOf(error) === 404;
}

function failed(operation: string, key: string, error: unknown): StorageFailedError {
  const status = statusOf(error);
  const reason = `${(error as Error).name}${status ? ` (HTTP ${status})` : ''}: ${(error as Error).message}`;
  return new StorageFailedError(operation, key, reason);
}

/** `bytes 0-99/1234` → its parts. */
function parseContentRange(header: string | undefined): { start: number; end: number; total: number } | undefined {
  const match = header ? /^bytes (\d+)-(\d+)\/(\d+)$/.exec(header) : null;
  return match ? { start: Number(match[1]), end: Number(match[2]), total: Number(match[3]) } : undefined;
}

/** Objects in one bucket of an S3-compatible store. */
export class S3Storage implements ObjectStorage, MultipartUploads {
  readonly kind = 's3' as const;
  /** The SDK client (benchmarks compare its own uploads with presigned parts). */
  readonly client: S3Client;
  readonly bucket: string;
  private readonly writePartBytes: number;

  /** Builds the client; nothing is sent until the first request. */
  constructor(options: S3StorageOptions) {
    this.bucket = options.bucket;
    this.writePartBytes = options.writePartBytes ?? 8 * 1024 * 1024;
    this.client = new S3Client({
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      region: options.region,
      ...(options.credentials ? { credentials: { ...options.credentials } } : {}),
      forcePathStyle: options.forcePathStyle,
      maxAttempts: options.maxAttempts ?? 5,
      retryMode: 'standard',
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  /** Deletes the (empty) bucket (tests). */
  async deleteBucket(): Promise<void> {
    try {
      await this.client.send(new DeleteBucketCommand({ Bucket: this.bucket }));
    } catch (error) {
      throw failed('delete-bucket', this.bucket, error);
    }
  }

  /** Creates the bucket when it does not exist yet (start-up and tests). */
  async ensureBucket(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
      return;
    } catch (error) {
      if (!isNotFound(error)) {
        throw failed('head-bucket', this.bucket, error);
      }
    }
    try {
      await this.client.send(new CreateBucketCommand({ Bucket: this.bucket }));
    } catch (error) {
      if ((error as Error).name !== 'BucketAlreadyOwnedByYou') {
        throw failed('create-bucket', this.bucket, error);
      }
    }
  }

  /**
   * Makes sure the bucket's CORS rules let `origin` PUT presigned parts and read their ETag
   * (GetBucketCors, then PutBucketCors with ours added to the existing rules only when missing).
   * Answers whether the rules were changed.
   */
  async allowBrowserUploads(origin: string): Promise<boolean> {
    let rules: CORSRule[] = [];
    try {
      rules = (await this.client.send(new GetBucketCorsCommand({ Bucket: this.bucket }))).CORSRules ?? [];
    } catch (error) {
      if ((error as Error).name !== 'NoSuchCORSConfiguration') {
        throw failed('get-bucket-cors', this.bucket, error);
      }
    }
    const merged = withUploadCorsRule(rules, origin);
    if (!merged) {
      return false;
    }
    try {
      await this.client.send(
        new PutBucketCorsCommand({ Bucket: this.bucket, CORSConfiguration: { CORSRules: merged } }),
      );
    } catch (error) {
      throw failed('put-bucket-cors', this.bucket, error);
    }
    return true;
  }

  /** Writes bytes with one PUT, a stream through multipart upload. */
  async put(key: string, body: Uint8Array | Readable, options: PutOptions = {}): Promise<void> {
    assertStorageKey(key);
    const contentType = options.contentType ?? contentTypeOfKey(key);
    const params = { Bucket: this.bucket, Key: key, Body: body, ...(contentType ? { ContentType: contentType } : {}) };
    try {
      if (body instanceof Uint8Array) {
        await this.client.send(new PutObjectCommand({ ...params, Body: body, ContentLength: body.byteLength }));
      } else {
        await new Upload({ client: this.client, params, partSize: this.writePartBytes, queueSize: 4 }).done();
      }
    } catch (error) {
      throw failed('put', key, error);
    }
  }

  /** Reads the object or a range of it as a stream (one GET, `Range: bytes=start-end`). */
  async get(key: string, range?: ByteRange): Promise<StoredObjectRead> {
    assertStorageKey(key);
    const header = range ? `bytes=${range.start}-${range.end ?? ''}` : undefined;
    try {
      const response = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: key, ...(header ? { Range: header } : {}) }),
      );
      const body = response.Body as Readable;
      const length = response.ContentLength ?? 0;
      const served = parseContentRange(response.ContentRange);
      return {
        body,
        length,
        totalSize: served?.total ?? length,
        ...(range ? { range: served ? { start: served.start, end: served.end } : { start: 0, end: length - 1 } } : {}),
        ...(response.ContentType ? { contentType: response.ContentType } : {}),
      };
    } catch (error) {
      if (isNotFound(error)) {
        throw new StorageNotFoundError(key);
      }
      throw failed('get', key, error);
    }
  }

  /** HEAD of the object, or null when absent. */
  async head(key: string): Promise<StoredObjectInfo | null> {
    assertStorageKey(key);
    try {
      const response = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return {
        key,
        size: response.ContentLength ?? 0,
        ...(response.ContentType ? { contentType: response.ContentType } : {}),
        modifiedAt: response.LastModified ?? new Date(0),
      };
    } catch (error) {
      if (isNotFound(error)) {
        return null;
      }
      throw failed('head', key, error);
    }
  }

  /** Every object under the prefix, page by page (S3 lists in key order). */
  async *list(prefix: string): AsyncIterable<StoredObjectInfo> {
    let token: string | undefined;
    do {
      let response: ListObjectsV2CommandOutput;
      try {
        response = await this.client.send(
          new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
        );
      } catch (error) {
        throw failed('list', prefix, error);
      }
      for (const item of response.Contents ?? []) {
        if (item.Key !== undefined) {
          yield { key: item.Key, size: item.Size ?? 0, modifiedAt: item.LastModified ?? new Date(0) };
        }
      }
      token = response.IsTruncated ? response.NextContinuationToken : undefined;
    } while (token);
  }

  /** Deletes one object (S3 answers success for an absent key). */
  async delete(key: string): Promise<void> {
    assertStorageKey(key);
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      throw failed('delete', key, error);
    }
  }

  /** Deletes every object under the prefix, eight requests at a time. */
  async deletePrefix(prefix: string): Promise<number> {
    const keys: string[] = [];
    for await (const item of this.list(prefix)) {
      keys.push(item.key);
    }
    let next = 0;
    const worker = async () => {
      while (next < keys.length) {
        await this.delete(keys[next++] as string);
      }
    };
    await Promise.all(Array.from({ length: Math.min(8, keys.length) }, worker));
    return keys.length;
  }

  /** Starts a multipart upload of the key; answers the store's upload ID. */
  async createMultipart(key: string, contentType: string | undefined): Promise<string> {
    assertStorageKey(key);
    try {
      const response = await this.client.send(
        new CreateMultipartUploadCommand({
          Bucket: this.bucket,
          Key: key,
          ...(contentType ? { ContentType: contentType } : {}),
        }),
      );
      if (!response.UploadId) {
        throw new Error('no UploadId in the answer');
      }
      return response.UploadId;
    } catch (error) {
      throw failed('create-multipart', key, error);
    }
  }

  /** A presigned UploadPart URL (PUT the part's bytes to it; the answer's ETag names the part). */
  async presignPart(key: string, uploadId: string, partNumber: number, expiresInSeconds: number): Promise<string> {
    assertStorageKey(key);
    return getSignedUrl(
      this.client,
      new UploadPartCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, PartNumber: partNumber }),
      { expiresIn: expiresInSeconds },
    );
  }

  /** The parts the store holds for the upload. */
  async listParts(key: string, uploadId: string): Promise<UploadedPart[]> {
    assertStorageKey(key);
    const parts: UploadedPart[] = [];
    let marker: string | undefined;
    try {
      do {
        const response = await this.client.send(
          new ListPartsCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, PartNumberMarker: marker }),
        );
        for (const part of response.Parts ?? []) {
          parts.push({ partNumber: part.PartNumber ?? 0, etag: part.ETag ?? '', sizeBytes: part.Size ?? 0 });
        }
        marker = response.IsTruncated ? response.NextPartNumberMarker : undefined;
      } while (marker);
    } catch (error) {
      throw failed('list-parts', key, error);
    }
    return parts;
  }

  /** Joins the parts into the object. */
  async completeMultipart(key: string, uploadId: string, parts: readonly MultipartPart[]): Promise<void> {
    assertStorageKey(key);
    try {
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: key,
          UploadId: uploadId,
          MultipartUpload: { Parts: parts.map((part) => ({ PartNumber: part.partNumber, ETag: part.etag })) },
        }),
      );
    } catch (error) {
      throw failed('complete-multipart', key, error);
    }
  }

  /** Aborts the upload; the store removes its parts. An unknown upload is not an error. */
  async abortMultipart(key: string, uploadId: string): Promise<void> {
    assertStorageKey(key);
    try {
      await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }));
    } catch (error) {
      if (!isNotFound(error)) {
        throw failed('abort-multipart', key, error);
      }
    }
  }
}
