/**
 * The dashboard's VOD uploads in Debian's Chromium against the real server on the local storage
 * backend (Airwave signs and serves the part URLs itself): a file made by ffmpeg is chosen with
 * the file picker, uploaded in three parts from the browser with the progress bar reaching
 * 100 %, completed, processed to READY and played (video advancing) with sprite thumbnails over
 * the seek bar by pointer and keyboard; then it is listed and deleted. A file dropped on the zone
 * is picked up too. axe-core and screenshots on each new page.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../packages/server/src/testing/test-server.js';
import { chromiumMissing, launchChromium } from './support/browser.js';
import {
  checkPage,
  ensureDashboardBuilt,
  openUploadedVodWhenReady,
  SCREENSHOT_SIZES,
  screenshots,
  signUp,
  thumbnailsShow,
  videoAdvances,
} from './support/dashboard.js';
import { ffmpegMissing } from './support/ffmpeg.js';
import { makeTestVideo } from './support/vod.js';

const MIB = 1024 * 1024;

describe('VOD uploads in the dashboard', { skip: chromiumMissing || ffmpegMissing }, () => {
  const work = mkdtempSync(join(tmpdir(), 'airwave-dashboard-vod-'));
  const file = join(work, 'holiday.mp4');
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let playbackId = '';

  before(async () => {
    ensureDashboardBuilt();
    await makeTestVideo(file, 8, 12);
    server = await startTestServer(undefined, { AIRWAVE_VOD_PART_BYTES: String(5 * MIB) });
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: SCREENSHOT_SIZES.desktop })).newPage();
    page.on('dialog', (dialog) => void dialog.accept());
    await signUp(page, server.baseUrl, 'vod-owner@example.com');
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('shows the empty page and picks up a dropped file', async () => {
    await page.getByRole('link', { name: 'VOD uploads' }).click();
    await page.waitForURL(/\/vod$/);
    await page.getByText('No videos yet').waitFor();
    await checkPage(page, 'vod-empty');
    const transfer = await page.evaluateHandle(`(() => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(2048)], 'dropped.mov', { type: 'video/quicktime' }));
      return data;
    })()`);
    await page.getByTestId('dropzone').dispatchEvent('drop', { dataTransfer: transfer });
    assert.match((await page.getByTestId('chosen-file').textContent()) ?? '', /dropped\.mov/);
  });

  it('uploads in parts from the browser: the progress bar reaches 100 %, the asset processes to READY and plays', async () => {
    const size = statSync(file).size;
    assert.ok(size > 10 * MIB, `the test file spans three 5 MiB parts (${size} bytes)`);
    const parts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PUT' && request.url().includes('/uploads/')) {
        parts.push(request.url());
      }
    });
    await page.getByLabel('Choose a video file').setInputFiles({
      name: 'holiday.mp4',
      mimeType: 'video/mp4',
      buffer: readFileSync(file),
    });
    await page.getByLabel('Title (optional)').fill('Holiday');
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByTestId('upload-done').waitFor({ timeout: 60_000 });
    assert.equal(parts.length, 3, 'each part was PUT from the browser to its presigned URL');
    assert.equal(await page.getByTestId('upload-percent').textContent(), '100 %');
    assert.equal(
      await page.getByTestId('upload-progress').evaluate((bar) => (bar as unknown as { value: number }).value),
      100,
    );
    await checkPage(page, 'vod-uploaded');
    await openUploadedVodWhenReady(page);
    playbackId = (await page.locator('dd code').first().textContent()) ?? '';
    await videoAdvances(page, 'recording-video');
    await thumbnailsShow(page, 30_000);
    await checkPage(page, 'vod-asset');
    // Seeking by keyboard shows the thumbnail of the position sought; it stays while the bar has focus.
    await page.getByTestId('scrub-bar').focus();
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowLeft');
    await page.getByTestId('scrub-thumbnail').waitFor();
    const video = page.getByTestId('recording-video');
    const position = await video.evaluate((element) => (element as unknown as { currentTime: number }).currentTime);
    const label = await page.getByTestId('scrub-thumbnail').getAttribute('data-time');
    assert.ok(position >= 5, `End then ← sought near the end: at ${position} s, thumbnail of ${label} s`);
    assert.ok(Number(label) >= 5, `the thumbnail shown is of the position sought (${label} s)`);
    await screenshots(page, 'vod-scrub');
  });

  it('lists the video (also after a reload) and deletes it; its playback URLs stop working', async () => {
    await page.getByRole('link', { name: '← VOD uploads' }).click();
    await page.waitForURL(/\/vod$/);
    const row = page.getByTestId('vod-row').filter({ hasText: 'Holiday' });
    await row.waitFor();
    // After a reload the row comes from storageArtifactsConnection (kind VOD), not the tab's memory.
    await page.reload();
    await row.waitFor();
    assert.match((await row.textContent()) ?? '', /ready/i, 'listed with its state');
    await checkPage(page, 'vod-list');
    await row.getByRole('button', { name: 'Delete video Holiday' }).click();
    await row.waitFor({ state: 'detached' });
    assert.equal((await fetch(`${server.baseUrl}/play/${playbackId}.mp4`)).status, 404);
  });
});
