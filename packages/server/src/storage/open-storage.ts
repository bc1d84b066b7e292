/**
 * Opens the object storage a node's configuration names: the S3 bucket when one is configured
 * (created if missing; its CORS rules for browser uploads are set by
 * allowDashboardUploads once the node's origin is known), else the local directory. Every feature
 * storing objects (recordings, chapters, clips, images, VOD) takes the one this returns.
 */
import type { Logger } from '@airwave/media';
import type { StorageBackendConfig } from '../config/storage-config.js';
import { LocalStorage } from './local-storage.js';
import type { ObjectStorage } from './object-storage.js';
import { S3Storage } from './s3-storage.js';

/** The store, and the S3 backend itself when that is the one (its own multipart sessions). */
export interface OpenedStorage {
  readonly storage: ObjectStorage;
  readonly s3: S3Storage | undefined;
  close(): void;
}

/** Opens the configured backend; `localRoot` is the local backend's directory. */
export async function openObjectStorage(config: StorageBackendConfig, localRoot: string): Promise<OpenedStorage> {
  if (config.kind === 'local') {
    const storage = new LocalStorage(localRoot);
    await storage.open();
    return { storage, s3: undefined, close: () => undefined };
  }
  const s3 = new S3Storage({
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    bucket: config.bucket,
    region: config.region,
    ...(config.credentials ? { credentials: config.credentials } : {}),
    forcePathStyle: config.forcePathStyle,
  });
  await s3.ensureBucket();
  return { storage: s3, s3, close: () => s3.client.destroy() };
}

/**
 * With the S3 backend (and AIRWAVE_S3_MANAGE_CORS on), makes sure the bucket lets the dashboard's
 * `origin` PUT upload parts and read their ETag. Never throws: a failure is logged with its reason.
 */
export async function allowDashboardUploads(
  opened: OpenedStorage,
  config: StorageBackendConfig,
  origin: string,
  log: Logger,
): Promise<void> {
  if (!opened.s3 || config.kind !== 's3') {
    return;
  }
  if (!config.manageCors) {
    log.info({ bucket: config.bucket, origin }, 'AIRWAVE_S3_MANAGE_CORS=false: bucket CORS rules left to the operator');
    return;
  }
  try {
    const changed = await opened.s3.allowBrowserUploads(origin);
    log.info({ bucket: config.bucket, origin, changed }, 'bucket CORS allows dashboard uploads');
  } catch (error) {
    log.warn(
      { err: error, bucket: config.bucket, origin },
      'could not set the bucket CORS rule for dashboard uploads (uploads from the browser will fail; set it by hand or fix the credentials)',
    );
  }
}
