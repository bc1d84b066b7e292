/**
 * The dashboard's Content-Security-Policy. Same origin only, except that with the S3 backend the
 * browser PUTs VOD upload parts to the presigned URLs, so `connect-src` also names the origin
 * those URLs have (path-style: the endpoint; virtual-hosted: `<bucket>.` + the endpoint's host).
 */
import type { StorageBackendConfig } from '../../config/storage-config.js';

/** The origin the S3 client's presigned URLs name for `storage`, or undefined for local storage. */
export function s3UrlOrigin(storage: StorageBackendConfig): string | undefined {
  if (storage.kind !== 's3') {
    return undefined;
  }
  const endpoint = new URL(storage.endpoint ?? `https://s3.${storage.region}.amazonaws.com`);
  // The SDK falls back to path style for buckets that cannot be a TLS host label (dots).
  const virtualHosted = !storage.forcePathStyle && !(endpoint.protocol === 'https:' && storage.bucket.includes('.'));
  if (virtualHosted) {
    endpoint.hostname = `${storage.bucket}.${endpoint.hostname}`;
  }
  return endpoint.origin;
}

/** The dashboard CSP; `storage` adds the S3 origin to `connect-src` (VOD part uploads). */
export function dashboardCsp(storage: StorageBackendConfig = { kind: 'local' }): string {
  const s3 = s3UrlOrigin(storage);
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "media-src 'self' blob:",
    s3 ? `connect-src 'self' ${s3}` : "connect-src 'self'",
    "worker-src 'self' blob:",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
}
