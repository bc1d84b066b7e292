/**
 * Multipart upload sessions for direct client uploads (issue 18): the client PUTs each part to a
 * presigned, expiring URL and keeps the answer's ETag; completing joins the parts into one object.
 * S3 backends hand out presigned UploadPart URLs; the local backend serves the same protocol on
 * Airwave's own HTTP port, so client code is identical.
 */

/** A part the client says it uploaded. */
export interface MultipartPart {
  /** 1-based. */
  readonly partNumber: number;
  readonly etag: string;
}

/** A part the store holds. */
export interface UploadedPart extends MultipartPart {
  readonly sizeBytes: number;
}

/** The multipart protocol of one backend. */
export interface MultipartUploads {
  /**
   * Starts an upload of the key; answers its upload ID. `partBytes` is the size of every part but
   * the last (the local backend writes each part in place at its offset; S3 does not need it).
   */
  createMultipart(key: string, contentType: string | undefined, partBytes?: number): Promise<string>;
  /** A URL the client PUTs part `partNumber` to, refused after `expiresInSeconds`. */
  presignPart(key: string, uploadId: string, partNumber: number, expiresInSeconds: number): Promise<string>;
  /** The parts held so far, by part number. */
  listParts(key: string, uploadId: string): Promise<UploadedPart[]>;
  /** Joins the listed parts (ETags must match) into the object at the key. */
  completeMultipart(key: string, uploadId: string, parts: readonly MultipartPart[]): Promise<void>;
  /** Drops the upload and every part of it; an unknown upload is not an error. */
  abortMultipart(key: string, uploadId: string): Promise<void>;
}

/** S3's smallest part (all but the last). */
export const MIN_PART_BYTES = 5 * 1024 * 1024;
/** S3's most parts per upload. */
export const MAX_PARTS = 10_000;
