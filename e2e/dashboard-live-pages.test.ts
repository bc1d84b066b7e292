/**
 * The dashboard in Debian's Chromium, used as a new user would, for what the walkthrough in
 * e2e/dashboard.test.ts does not look at: pages load without console errors (favicon included),
 * the streams search box follows the URL on back/forward and the Streams link, focus moves to
 * the page after an in-app navigation, a dead link says "not found", a developer token expires
 * after the days asked for, button labels never break inside a word, the recordings page follows
 * the stream and its recording live (Start recording enables when the encoder publishes;
 * recording, chapter and clip statuses change without Refresh), and signing in as another
 * account in the same tab shows that account at once and nothing the previous one uploaded.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../packages/server/src/testing/test-server.js';
import { chromiumMissing, launchChromium } from './support/browser.js';
import {
  checkPage,
  ensureDashboardBuilt,
  headingOrderViolations,
  SCREENSHOT_SIZES,
  signUp,
} from './support/dashboard.js';
import { ffmpegMissing, publishPattern } from './support/ffmpeg.js';
import { sleep, type Tracked } from './support/processes.js';
import { makeTestVideo } from './support/vod.js';

describe('dashboard pages follow the URL and live events', { skip: chromiumMissing || ffmpegMissing }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let ffmpeg: Tracked | undefined;
  let streamUrl = '';
  const consoleErrors: string[] = [];
  const scratch = mkdtempSync(join(tmpdir(), 'airwave-dashboard-live-'));

  before(async () => {
    ensureDashboardBuilt();
    server = await startTestServer();
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: SCREENSHOT_SIZES.desktop });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
    page = await context.newPage();
    page.on('dialog', (dialog) => void dialog.accept());
    page.on('console', (message) => {
      if (message.type() === 'error') {
        consoleErrors.push(message.text());
      }
    });
  });

  after(async () => {
    await ffmpeg?.stop();
    await browser?.close();
    await server?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('signs up and loads the streams page without console errors (no favicon 404)', async () => {
    await signUp(page, server.baseUrl, 'walker@example.com');
    await page.getByText('No streams yet').waitFor();
    await page.reload();
    await page.getByText('No streams yet').waitFor();
    await sleep(500);
    assert.deepEqual(consoleErrors, []);
    assert.deepEqual(await headingOrderViolations(page), [], 'the empty state heading follows the h1');
  });

  it('the search box follows the URL: back, forward and the Streams link', async () => {
    const box = page.getByLabel('Search streams by name');
    await box.fill('nothing-like-this');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('No stream matches').waitFor();
    await page.goBack();
    await page.getByText('No streams yet').waitFor();
    assert.equal(await box.inputValue(), '', 'back to the unfiltered list empties the box');
    await page.goForward();
    await page.getByText('No stream matches').waitFor();
    assert.equal(await box.inputValue(), 'nothing-like-this');
    await page.getByRole('link', { name: 'Streams', exact: true }).click();
    await page.getByText('No streams yet').waitFor();
    assert.equal(await box.inputValue(), '', 'the Streams link clears the search');
  });

  it('moves focus to the new page after an in-app navigation', async () => {
    await page.getByRole('link', { name: 'Signing keys' }).click();
    await page.getByRole('heading', { name: 'Signing keys', level: 1 }).waitFor();
    assert.equal(await page.evaluate('document.activeElement?.id'), 'content');
    await page.keyboard.press('Tab');
    assert.ok(
      await page.evaluate("document.getElementById('content').contains(document.activeElement)"),
      'Tab goes on inside the page, not from the top of the document',
    );
  });

  it('a stream link that leads nowhere says so, without a retry that cannot help', async () => {
    const gone = Buffer.from('Stream:00000000-0000-4000-8000-000000000000').toString('base64');
    await page.goto(`${server.baseUrl}/streams/${encodeURIComponent(gone)}`);
    await page.getByText('Not found: it may have been deleted').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Try again' }).count(), 0);
    assert.equal(await page.getByText(gone).count(), 0, 'no raw global ID');
    await page.getByRole('link', { name: 'Back to streams' }).click();
    await page.getByText('No streams yet').waitFor();
  });

  it('creates a developer token that expires after the days asked for', async () => {
    await page.goto(`${server.baseUrl}/tokens`);
    await page.getByLabel('Token name').fill('nightly');
    await page.getByLabel('streams:read').check();
    await page.getByLabel(/^Expires after/).fill('30');
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByRole('button', { name: 'Done' }).click();
    const listed = page.locator('li', { hasText: 'nightly' });
    await listed.waitFor();
    const expires = /expires (.+?)(?: · |$)/.exec((await listed.locator('small').textContent()) ?? '')?.[1] ?? '';
    const days = (Date.parse(expires) - Date.now()) / 86_400_000;
    assert.ok(days > 29 && days <= 30, `expires in 30 days (listed: ${expires})`);
  });

  it('creates a stream whose buttons keep their words whole at desktop and phone width', async () => {
    await page.goto(`${server.baseUrl}/streams/new`);
    await page.getByLabel('Name').fill('Walkthrough');
    await page.getByRole('button', { name: 'Create stream' }).click();
    await page.waitForURL(/\/streams\/(?!new$)[^/]+$/);
    streamUrl = page.url();
    await page.getByLabel('New key name').fill('backup encoder with a long name');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: /^Delete key backup/ }).waitFor();
    await checkPage(page, 'stream-keys');
  });

  it('the recordings page enables Start recording when the encoder publishes, and lists the recording, its chapter and a clip as they change', async () => {
    await page.getByRole('button', { name: 'Copy RTMP URL' }).click();
    const rtmpUrl = await page.evaluate<string>('navigator.clipboard.readText()');
    await page.getByRole('link', { name: 'Recordings and clips' }).click();
    await page.getByText('No recordings yet').waitFor();
    const start = page.getByRole('button', { name: 'Start recording' });
    assert.ok(await start.isDisabled(), 'nothing to record while offline');
    ffmpeg = publishPattern(rtmpUrl, { width: 320, height: 180, fps: 30, gop: 30, bframes: false });
    await page.getByRole('button', { name: 'Start recording', disabled: false }).waitFor({ timeout: 30_000 });
    await start.click();
    await page.getByTestId('artifact-dvr').waitFor();
    await sleep(5000);
    await page.getByRole('button', { name: 'Stop recording' }).click();
    await page.getByTestId('artifact-dvr').filter({ hasText: 'completed' }).waitFor({ timeout: 30_000 });
    await page.getByTestId('artifact-chapter').filter({ hasText: 'ready' }).waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: /^Play dvr / }).click();
    await page.getByLabel('Clip title').fill('Moment');
    await page.getByLabel('Length (s)').fill('2');
    await page.getByRole('button', { name: /^Create clip from here/ }).click();
    await page.getByTestId('artifact-clip').filter({ hasText: 'ready' }).waitFor({ timeout: 60_000 });
    assert.ok(page.url().startsWith(streamUrl), 'stayed on the recordings page');
    await checkPage(page, 'recordings-live');
  });

  it('signing in as another account in the same tab shows that account at once, and none of the previous uploads', async () => {
    const file = join(scratch, 'trip.mp4');
    await makeTestVideo(file, 2, 0.3);
    await page.getByRole('link', { name: 'VOD uploads' }).click();
    await page.getByLabel('Choose a video file').setInputFiles({
      name: 'trip.mp4',
      mimeType: 'video/mp4',
      buffer: readFileSync(file),
    });
    await page.getByLabel('Title (optional)').fill('Private trip');
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByTestId('upload-done').waitFor({ timeout: 60_000 });
    await page.getByText('Private trip').first().waitFor();
    await server.graphql('mutation($input: RegisterInput!) { register(input: $input) { __typename } }', {
      input: { email: 'second@example.com', password: 'correct horse battery' },
    });
    // The account query answers late, as on a slow link: the header must not show the old account meanwhile.
    await page.route(`${server.baseUrl}/graphql`, async (route) => {
      if (route.request().postData()?.includes('query Me')) {
        await sleep(3000);
      }
      await route.continue();
    });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/signin$/);
    await page.getByLabel('Email').fill('second@example.com');
    await page.getByLabel('Password').fill('correct horse battery');
    const lateAccount = page.waitForResponse((response) =>
      Boolean(response.request().postData()?.includes('query Me')),
    );
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/streams$/);
    const header = (await page.locator('header').textContent()) ?? '';
    assert.match(header, /second@example\.com/);
    assert.doesNotMatch(header, /walker@example\.com/);
    await lateAccount;
    await page.unroute(`${server.baseUrl}/graphql`);
    await page.getByRole('link', { name: 'VOD uploads' }).click();
    await page.getByText('No videos yet').waitFor();
    assert.equal(await page.getByText('Private trip').count(), 0, "the first account's upload is not listed");
  });
});
