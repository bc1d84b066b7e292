/**
 * Settings of object storage and VOD uploads (issue 18): an S3-compatible store when a bucket is
 * set (endpoint, region, credentials, path style), else the local directory; upload limits,
 * per-tenant quota, part size, session expiry and processing concurrency. Merged into the main
 * configuration schema by config.ts.
 */
import { z } from 'zod';

const GIB = 1024 ** 3;
const MIB = 1024 ** 2;

/** The zod shape of the storage settings (environment names). */
export const storageSettings = {
  AIRWAVE_S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  AIRWAVE_S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'an S3 bucket name (3–63 of a-z 0-9 . -)')
    .optional(),
  AIRWAVE_S3_REGION: z.string().min(1).max(64).default('us-east-1'),
  AIRWAVE_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  AIRWAVE_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  AIRWAVE_S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .default('true')
    .transform((value) => value === 'true' || value === '1' || value === 'yes'),
  AIRWAVE_S3_MANAGE_CORS: z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .default('true')
    .transform((value) => value === 'true' || value === '1' || value === 'yes'),
  AIRWAVE_VOD_MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(5 * 1024 * GIB)
    .default(20 * GIB),
  AIRWAVE_VOD_TENANT_QUOTA_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(100 * GIB),
  AIRWAVE_VOD_PART_BYTES: z.coerce
    .number()
    .int()
    .min(5 * MIB)
    .max(5 * GIB)
    .default(16 * MIB),
  AIRWAVE_VOD_UPLOAD_EXPIRY_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(7 * 86_400)
    .default(86_400),
  AIRWAVE_VOD_PROCESSING_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
};

/** Where objects live. */
export type StorageBackendConfig =
  | { readonly kind: 'local' }
  | {
      readonly kind: 's3';
      readonly endpoint: string | undefined;
      readonly bucket: string;
      readonly region: string;
      /** Unset: the SDK's default credential chain. */
      readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string } | undefined;
      readonly forcePathStyle: boolean;
      /** Add a CORS rule for the dashboard's origin to the bucket at start (off: the operator manages CORS). */
      readonly manageCors: boolean;
    };

/** Validated storage and VOD settings. */
export interface StorageConfig {
  readonly storage: StorageBackendConfig;
  readonly vod: {
    /** Largest upload accepted by createVodUpload. */
    readonly maxUploadBytes: number;
    /** Bytes of VOD a tenant may hold (uploads in progress count); 0: no limit. */
    readonly tenantQuotaBytes: number;
    /** Part size handed to clients (the last part may be smaller). */
    readonly partBytes: number;
    /** An upload not completed within this is aborted and cleaned up. */
    readonly uploadExpiryMs: number;
    /** ffmpeg processing jobs at once on this node. */
    readonly processingConcurrency: number;
  };
}

type Parsed = z.infer<z.ZodObject<typeof storageSettings>>;

/** Builds the storage settings from parsed variables; throws with a message when they disagree. */
export function storageConfigOf(c: Parsed): StorageConfig {
  const keyId = c.AIRWAVE_S3_ACCESS_KEY_ID;
  const secret = c.AIRWAVE_S3_SECRET_ACCESS_KEY;
  if (Boolean(keyId) !== Boolean(secret)) {
    throw new Error('AIRWAVE_S3_ACCESS_KEY_ID and AIRWAVE_S3_SECRET_ACCESS_KEY must be set together');
  }
  if (!c.AIRWAVE_S3_BUCKET && (c.AIRWAVE_S3_ENDPOINT || keyId)) {
    throw new Error('AIRWAVE_S3_BUCKET: needed when AIRWAVE_S3_ENDPOINT or S3 credentials are set');
  }
  const storage: StorageBackendConfig = c.AIRWAVE_S3_BUCKET
    ? {
        kind: 's3',
        endpoint: c.AIRWAVE_S3_ENDPOINT,
        bucket: c.AIRWAVE_S3_BUCKET,
        region: c.AIRWAVE_S3_REGION,
        credentials: keyId && secret ? { accessKeyId: keyId, secretAccessKey: secret } : undefined,
        forcePathStyle: c.AIRWAVE_S3_FORCE_PATH_STYLE,
        manageCors: c.AIRWAVE_S3_MANAGE_CORS,
      }
    : { kind: 'local' };
  return {
    storage,
    vod: {
      maxUploadBytes: c.AIRWAVE_VOD_MAX_UPLOAD_BYTES,
      tenantQuotaBytes: c.AIRWAVE_VOD_TENANT_QUOTA_BYTES,
      partBytes: c.AIRWAVE_VOD_PART_BYTES,
      uploadExpiryMs: c.AIRWAVE_VOD_UPLOAD_EXPIRY_SECONDS * 1000,
      processingConcurrency: c.AIRWAVE_VOD_PROCESSING_CONCURRENCY,
    },
  };
}
