/**
 * A VOD upload the dashboard's way, at the API level, on both backends (issue 18): Chromium, on a
 * page of another origin (a server of the test), fetches the file and PUTs each part (`Blob.slice`) to its presigned URL
 * (a cross-origin PUT: CORS preflight, and the `ETag` header exposed to the page — Airwave's part
 * route on the local backend, the bucket's CORS rule on radosgw); the ETags complete the upload
 * and the asset plays in hls.js in Chromium (the video advances).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createReadStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { S3Storage } from '@airwave/server/storage/s3-storage';
import { type Radosgw, radosgwMissing, radosgwServerEnv, startRadosgw } from '@airwave/server/testing/radosgw';
import { startTestServer, type TestServer } from '@airwave/server/testing/test-server';
import type { Browser } from 'playwright-core';
import { registerAccount } from './support/accounts.js';
import { chromiumMissing, launchChromium, type PlayerPages, playFor, startPlayerPages } from './support/browser.js';
import { ffmpegMissing } from './support/ffmpeg.js';
import { completeVodUpload, createVodUpload, makeTestVideo, type VodSession, waitSettled } from './support/vod.js';

const MIB = 1024 * 1024;

/** Page-side upload: fetch the file, PUT every part, answer the parts with their ETags (a string: no DOM types here). */
const PUT_PARTS = `async ({ parts, partSize }) => {
  const file = await (await fetch('/video.mp4')).blob();
  const done = [];
  for (const part of parts) {
    const start = (part.partNumber - 1) * partSize;
    const response = await fetch(part.presignedUrl, { method: 'PUT', body: file.slice(start, start + partSize) });
    if (!response.ok) {
      throw new Error('part ' + part.partNumber + ': HTTP ' + response.status + ' ' + (await response.text()));
    }
    done.push({ partNumber: part.partNumber, etag: response.headers.get('ETag') });
  }
  return done;
}`;

/** Adds a CORS rule for `origin` to the bucket of a server started with `env` (radosgwServerEnv). */
async function allowOrigin(env: Record<string, string>, origin: string): Promise<void> {
  const bucket = new S3Storage({
    endpoint: env.AIRWAVE_S3_ENDPOINT as string,
    bucket: env.AIRWAVE_S3_BUCKET as string,
    region: env.AIRWAVE_S3_REGION as string,
    credentials: {
      accessKeyId: env.AIRWAVE_S3_ACCESS_KEY_ID as string,
      secretAccessKey: env.AIRWAVE_S3_SECRET_ACCESS_KEY as string,
    },
    forcePathStyle: true,
  });
  try {
    assert.equal(await bucket.allowBrowserUploads(origin), true, "the node's rule names only its own origin");
  } finally {
    bucket.client.destroy();
  }
}

describe('VOD upload from Chromium', { skip: ffmpegMissing || chromiumMissing }, () => {
  const work = mkdtempSync(join(tmpdir(), 'airwave-vod-browser-'));
  const file = join(work, 'video.mp4');
  let browser: Browser;
  let pages: PlayerPages;
  let rgw: Radosgw | undefined;
  let uploader: Server;
  /** The page's origin: a server of its own on loopback (not Airwave's origin, so the PUTs are cross-origin). */
  let origin: string;

  before(async () => {
    await makeTestVideo(file, 8, 11);
    uploader = createServer((request, response) => {
      if (request.url === '/video.mp4') {
        response.writeHead(200, { 'content-type': 'video/mp4' });
        createReadStream(file).pipe(response);
      } else {
        response.writeHead(200, { 'content-type': 'text/html' });
        response.end('<!doctype html><title>uploader</title>');
      }
    });
    await new Promise<void>((resolve) => uploader.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(uploader.address() as AddressInfo).port}`;
    browser = await launchChromium();
    pages = await startPlayerPages();
    if (!radosgwMissing) {
      rgw = await startRadosgw();
    }
  });
  after(async () => {
    await browser?.close();
    await pages?.close();
    await rgw?.stop();
    await new Promise((resolve) => uploader?.close(resolve));
    rmSync(work, { recursive: true, force: true });
  });

  const backends = [
    { name: 'local', skip: false as string | false, env: (): Record<string, string> => ({}) },
    {
      name: 's3',
      skip: radosgwMissing,
      env: (): Record<string, string> =>
        radosgwServerEnv(rgw as Radosgw, `vod-browser-${randomBytes(3).toString('hex')}`),
    },
  ];

  for (const backend of backends) {
    test(`parts PUT by Chromium from another origin complete, and the asset plays in hls.js (${backend.name})`, {
      skip: backend.skip,
    }, async () => {
      const env = backend.env();
      const server: TestServer = await startTestServer(undefined, {
        AIRWAVE_VOD_PART_BYTES: String(5 * MIB),
        ...env,
      });
      if (backend.name === 's3') {
        // The node's own rule names its origin; this page is another one, which the operator adds
        // (the node keeps rules it did not write).
        await allowOrigin(env, origin);
      }
      const page = await browser.newPage();
      try {
        const { token } = await registerAccount(server, `browser-${backend.name}`);
        const { size } = statSync(file);
        const session = (await createVodUpload(server, token, {
          filename: 'video.mp4',
          sizeBytes: size,
          contentType: 'video/mp4',
        })) as unknown as VodSession;
        assert.equal(session.parts.length, 3);
        await page.goto(`${origin}/`);
        const parts = (await page.evaluate(
          `(${PUT_PARTS})(${JSON.stringify({ parts: session.parts, partSize: session.partSize })})`,
        )) as {
          partNumber: number;
          etag: string | null;
        }[];
        assert.equal(parts.length, 3);
        for (const part of parts) {
          assert.match(part.etag ?? '', /^"[0-9a-f]{32}"$/, 'the page reads each part’s ETag (exposed by CORS)');
        }
        const completed = await completeVodUpload(
          server,
          token,
          session.id,
          parts as { partNumber: number; etag: string }[],
        );
        assert.equal(completed.__typename, 'VodAsset', JSON.stringify(completed));
        const asset = await waitSettled(server, token, session.artifactId);
        assert.equal(asset.status, 'READY', asset.errorMessage ?? '');
        assert.equal(asset.storageLocation, backend.name);
        const report = await playFor(
          browser,
          pages.url('hls', `${server.baseUrl}/play/${asset.playbackId}/cmaf/index.m3u8`),
          2,
        );
        assert.deepEqual(report.errors, []);
        assert.ok(report.played >= 2, `hls.js played ${report.played} s`);
        assert.equal(report.videoWidth, 1280);
      } finally {
        await page.close();
        await server.close();
      }
    });
  }
});
