/**
 * Opens the object storage a node's configuration names: the S3 bucket when one is configured
 * (created if missing, with CORS for browser uploads), else the local directory. Every feature
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
export async function openObjectStorage(
  config: StorageBackendConfig,
  localRoot: string,
  log: Logger,
): Promise<OpenedStorage> {
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
  await s3
    .allowBrowserUploads()
    .catch((error: unknown) =>
      log.warn(
        { err: error, bucket: config.bucket },
        'could not set the bucket CORS rules (browser uploads need them)',
      ),
    );
  return { storage: s3, s3, close: () => s3.client.destroy() };
}
