/**
 * The dashboard's VOD upload on the S3 backend (Ceph radosgw) in Debian's Chromium: the part URLs
 * name radosgw, another origin, so this needs the dashboard CSP's connect-src to include it and
 * the bucket CORS rule the node adds at start (PUT from the dashboard's origin, ETag exposed).
 * A file made by ffmpeg is chosen with the file picker, PUT in three parts straight to radosgw
 * with the progress bar reaching 100 %, processed to READY and played (the video advances).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import {
  type Radosgw,
  radosgwMissing,
  radosgwServerEnv,
  startRadosgw,
} from '../packages/server/src/testing/radosgw.js';
import { startTestServer, type TestServer } from '../packages/server/src/testing/test-server.js';
import { chromiumMissing, launchChromium } from './support/browser.js';
import { ensureDashboardBuilt, openUploadedVodWhenReady, signUp, videoAdvances } from './support/dashboard.js';
import { ffmpegMissing } from './support/ffmpeg.js';
import { makeTestVideo } from './support/vod.js';

const MIB = 1024 * 1024;

describe('VOD uploads in the dashboard on S3 (radosgw)', {
  skip: chromiumMissing || ffmpegMissing || radosgwMissing,
}, () => {
  const work = mkdtempSync(join(tmpdir(), 'airwave-dashboard-vod-s3-'));
  const file = join(work, 'harbour.mp4');
  let rgw: Radosgw;
  let server: TestServer;
  let browser: Browser;
  let page: Page;

  before(async () => {
    ensureDashboardBuilt();
    await makeTestVideo(file, 8, 12);
    rgw = await startRadosgw();
    server = await startTestServer(undefined, {
      AIRWAVE_VOD_PART_BYTES: String(5 * MIB),
      ...radosgwServerEnv(rgw, `dashboard-vod-${randomBytes(3).toString('hex')}`),
    });
    browser = await launchChromium();
    page = await browser.newPage();
    await signUp(page, server.baseUrl, 'vod-s3-owner@example.com');
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await rgw?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('PUTs the parts from the browser to radosgw (CSP and CORS allow it), processes to READY and plays', async () => {
    const parts: string[] = [];
    const refused: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PUT' && request.url().startsWith(`${rgw.endpoint}/`)) {
        parts.push(request.url());
      }
    });
    page.on('console', (message) => {
      if (/Content Security Policy|CORS/i.test(message.text())) {
        refused.push(message.text());
      }
    });
    await page.goto(`${server.baseUrl}/vod`);
    await page.getByText('No videos yet').waitFor();
    await page.getByLabel('Choose a video file').setInputFiles({
      name: 'harbour.mp4',
      mimeType: 'video/mp4',
      buffer: readFileSync(file),
    });
    await page.getByLabel('Title (optional)').fill('Harbour');
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page
      .getByTestId('upload-done')
      .waitFor({ timeout: 60_000 })
      .catch((error: Error) => {
        throw new Error(`${error.message}; browser said: ${refused.join(' | ')}`);
      });
    assert.deepEqual(refused, []);
    assert.equal(parts.length, 3, 'each part was PUT from the browser to its presigned radosgw URL');
    assert.equal(await page.getByTestId('upload-percent').textContent(), '100 %');
    await openUploadedVodWhenReady(page);
    await videoAdvances(page, 'recording-video');
  });
});
