/** The dashboard CSP's connect-src: same origin with local storage; plus the presigned URLs' S3 origin. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StorageBackendConfig } from '../../config/storage-config.js';
import { dashboardCsp, s3UrlOrigin } from './dashboard-csp.js';

const s3 = (over: Partial<Extract<StorageBackendConfig, { kind: 's3' }>>): StorageBackendConfig => ({
  kind: 's3',
  endpoint: 'http://127.0.0.1:7480',
  bucket: 'media',
  region: 'us-east-1',
  credentials: undefined,
  forcePathStyle: true,
  manageCors: true,
  ...over,
});

test('local storage: connect-src is self only', () => {
  assert.match(dashboardCsp(), /connect-src 'self';/);
  assert.equal(s3UrlOrigin({ kind: 'local' }), undefined);
});

test('path style: the endpoint origin (port kept, path dropped)', () => {
  assert.equal(s3UrlOrigin(s3({ endpoint: 'http://127.0.0.1:7480/' })), 'http://127.0.0.1:7480');
  assert.equal(s3UrlOrigin(s3({ endpoint: 'https://minio.example:9000/base' })), 'https://minio.example:9000');
  assert.match(dashboardCsp(s3({})), /connect-src 'self' http:\/\/127\.0\.0\.1:7480;/);
});

test('virtual-hosted: the bucket prefixes the host; AWS default endpoint by region; dotted TLS buckets path style', () => {
  assert.equal(
    s3UrlOrigin(s3({ endpoint: 'https://s3.example.net', forcePathStyle: false })),
    'https://media.s3.example.net',
  );
  assert.equal(
    s3UrlOrigin(s3({ endpoint: undefined, region: 'eu-west-1', forcePathStyle: false })),
    'https://media.s3.eu-west-1.amazonaws.com',
  );
  assert.equal(s3UrlOrigin(s3({ endpoint: undefined, region: 'eu-west-1' })), 'https://s3.eu-west-1.amazonaws.com');
  assert.equal(
    s3UrlOrigin(s3({ endpoint: 'https://s3.example.net', bucket: 'a.b.c', forcePathStyle: false })),
    'https://s3.example.net',
  );
});
