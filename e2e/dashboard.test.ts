/**
 * The dashboard in Debian's Chromium against the real server and a real ffmpeg publish: register,
 * create a stream, copy its RTMP URL from the page, publish to it, see the status turn LIVE without
 * a reload and the LL-HLS and WHEP previews play, rotate the key, record and clip (with sprite
 * thumbnails over the seek bar), protect the stream with a JWT policy and still preview it (owner
 * preview, ADR 0055) while an anonymous viewer is refused, create and revoke a developer token;
 * axe-core on every page; sign out. With AIRWAVE_SCREENSHOTS=<dir> it also saves every page at
 * desktop and phone width.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../packages/server/src/testing/test-server.js';
import { chromiumMissing, launchChromium } from './support/browser.js';
import {
  checkPage as checkPageIn,
  ensureDashboardBuilt,
  SCREENSHOT_SIZES,
  thumbnailsShow,
  videoAdvances as videoAdvancesIn,
} from './support/dashboard.js';
import { ffmpegMissing, publishPattern } from './support/ffmpeg.js';
import { sleep, type Tracked, waitFor } from './support/processes.js';

describe('the dashboard in Chromium', { skip: chromiumMissing || ffmpegMissing }, () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let ffmpeg: Tracked | undefined;
  let streamUrl = '';
  let playbackId = '';

  const checkPage = (name: string) => checkPageIn(page, name);
  const videoAdvances = (testId: string) => videoAdvancesIn(page, testId);

  /** Waits until the live preview plays. */
  const previewPlays = () => videoAdvances('preview-video');

  before(async () => {
    ensureDashboardBuilt();
    // Push targets dial loopback here (a closed port), never the internet.
    server = await startTestServer(undefined, { AIRWAVE_ALLOW_PRIVATE_PUSH_TARGETS: 'true' });
    browser = await launchChromium();
    context = await browser.newContext({ viewport: SCREENSHOT_SIZES.desktop });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
    page = await context.newPage();
    page.on('dialog', (dialog) => void dialog.accept());
  });

  after(async () => {
    await ffmpeg?.stop();
    await browser?.close();
    await server?.close();
  });

  it('redirects to sign-in, registers, and shows the empty streams list', async () => {
    await page.goto(`${server.baseUrl}/`);
    await page.waitForURL(/\/signin$/);
    await checkPage('signin');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByLabel('Email').fill('short');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    const emailError = page.locator('.field-error');
    await emailError.waitFor();
    assert.match((await emailError.textContent()) ?? '', /email/i, 'the ValidationError sits next to the email field');
    await checkPage('signup');
    await page.getByLabel('Email').fill('owner@example.com');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/streams$/);
    await page.getByText('No streams yet').waitFor();
    const cookies = await context.cookies(server.baseUrl);
    const session = cookies.find((cookie) => cookie.name === 'airwave_session');
    assert.ok(session?.httpOnly, 'signed in by an httpOnly cookie');
    assert.equal(session?.sameSite, 'Lax');
    const stored = await page.evaluate(
      () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }),
    );
    assert.equal(stored, '{}{}', 'nothing is kept in web storage');
    await checkPage('streams-empty');
  });

  it('creates a stream, shows a field error, and copies its RTMP URL', async () => {
    await page.getByRole('link', { name: 'Create stream' }).click();
    await page.waitForURL(/\/streams\/new$/);
    await page.getByRole('button', { name: 'Create stream' }).click();
    await page.locator('.field-error').waitFor();
    await checkPage('create-stream');
    await page.getByLabel('Name').fill('Studio A');
    await page.getByRole('button', { name: 'Create stream' }).click();
    await page.waitForURL(/\/streams\/(?!new$)[^/]+$/);
    streamUrl = page.url();
    assert.equal(await page.getByTestId('stream-status').textContent(), 'OFFLINE');
    await page.getByRole('button', { name: 'Copy RTMP URL' }).click();
    await page.getByText('Copied').first().waitFor();
    const rtmpUrl = await page.evaluate<string>('navigator.clipboard.readText()');
    assert.match(rtmpUrl, new RegExp(`^rtmp://127\\.0\\.0\\.1:${server.running.ports.rtmp}/live/\\S+$`));
    assert.ok(!page.url().includes(rtmpUrl.split('/').pop() ?? '-'), 'the key is not in the URL');
    playbackId = (await page.locator('code').first().textContent()) ?? '';
    assert.ok(playbackId.length > 0);
    await checkPage('stream-offline');
    ffmpeg = publishPattern(rtmpUrl, { width: 640, height: 360, fps: 30, gop: 30, bframes: false });
  });

  it('turns LIVE without a reload and the LL-HLS preview plays', async () => {
    await page.getByTestId('stream-status').filter({ hasText: 'LIVE' }).waitFor({ timeout: 30_000 });
    assert.equal(page.url(), streamUrl);
    await previewPlays();
    await page.getByTestId('latency').filter({ hasText: / s$/ }).waitFor({ timeout: 20_000 });
    await page
      .getByRole('cell', { name: /avc1|h264/i })
      .first()
      .waitFor({ timeout: 20_000 });
    await page.getByTestId('keyframe-interval').filter({ hasText: '1.00 s' }).waitFor({ timeout: 20_000 });
    assert.equal(await page.getByTestId('reconnects').textContent(), '0');
    await checkPage('stream-live');
  });

  it('the WebRTC (WHEP) preview plays when chosen, and shows its delay', async () => {
    const whep = page.waitForResponse(
      (response) => response.request().method() === 'POST' && response.url().endsWith(`/play/${playbackId}/webrtc`),
    );
    await page.getByLabel('Player', { exact: true }).selectOption('whep');
    assert.equal((await whep).status(), 201, 'the WHEP offer is answered');
    await page.getByText('WebRTC (WHEP) · behind live').waitFor();
    await previewPlays();
    await page.getByTestId('latency').filter({ hasText: / s$/ }).waitFor({ timeout: 20_000 });
    await checkPage('stream-live-whep');
    await page.getByLabel('Player', { exact: true }).selectOption('llhls');
    await previewPlays();
  });

  it('the streams list shows the stream live, and search filters it', async () => {
    await page.getByRole('link', { name: '← Streams' }).click();
    await page.getByRole('link', { name: 'Studio A' }).waitFor();
    await page.getByTestId('stream-status').filter({ hasText: 'LIVE' }).waitFor();
    await checkPage('streams');
    await page.getByLabel('Search streams by name').fill('nothing-like-this');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('No stream matches').waitFor();
    await page.goto(streamUrl);
  });

  it('rotates the primary key (shown once), the new key publishes, and the health panel counts the reconnect', async () => {
    await page.getByRole('button', { name: 'Rotate' }).click();
    const secret = page.getByTestId('secret-value');
    await secret.waitFor();
    const newKey = ((await secret.textContent()) ?? '').trim();
    assert.ok(newKey.length > 8);
    await page.getByRole('button', { name: 'Done' }).click();
    assert.equal(await page.getByTestId('secret-value').count(), 0, 'the key is gone once dismissed');
    await ffmpeg?.stop();
    ffmpeg = publishPattern(`rtmp://127.0.0.1:${server.running.ports.rtmp}/live/${newKey}`, {
      width: 640,
      height: 360,
      fps: 30,
      gop: 30,
      bframes: false,
    });
    await page.reload();
    await page
      .getByTestId('stream-status')
      .filter({ hasText: 'LIVE' })
      .waitFor({ timeout: 30_000 })
      .catch(async (error: Error) => {
        const status = await page.getByTestId('stream-status').textContent();
        throw new Error(`${error.message}; status ${status}; ffmpeg said: ${ffmpeg?.stderr()}`);
      });
    await previewPlays();
    await page.getByTestId('reconnects').filter({ hasText: /^1 / }).waitFor({ timeout: 20_000 });
  });

  it('records, plays the recording, creates a clip from the player position, plays the clip and the chapter with thumbnails', async () => {
    await page.getByRole('link', { name: 'Recordings and clips' }).click();
    await page.getByText('No recordings yet').waitFor();
    await page.getByRole('button', { name: 'Start recording' }).click();
    await page.getByTestId('artifact-dvr').waitFor();
    await sleep(8000);
    await page.getByRole('button', { name: /^Play dvr / }).click();
    await videoAdvances('recording-video');
    await page.getByLabel('Clip title').fill('Highlight');
    await page.getByLabel('Length (s)').fill('4');
    await page.getByRole('button', { name: /^Create clip from here/ }).click();
    await page.getByTestId('artifact-clip').waitFor({ timeout: 30_000 });
    await checkPage('recordings');
    await page.getByRole('button', { name: 'Play clip Highlight' }).click();
    await videoAdvances('recording-video');
    await thumbnailsShow(page, 120_000);
    await page.getByRole('button', { name: 'Stop recording' }).click();
    const chapter = page.getByTestId('artifact-chapter').filter({ hasText: 'ready' });
    await waitFor(
      "the recording's chapter to be ready",
      async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        return (await chapter.count()) > 0;
      },
      60_000,
      1000,
    );
    await chapter
      .first()
      .getByRole('button', { name: /^Play chapter / })
      .click();
    assert.equal(
      await page.getByRole('button', { name: /^Create clip from here/ }).count(),
      0,
      'clips are cut from the recording',
    );
    await videoAdvances('recording-video');
    await thumbnailsShow(page, 120_000);
    await page.goto(streamUrl);
  });

  it('with a JWT policy the owner still previews (LL-HLS and WHEP) while an anonymous viewer is refused', async () => {
    await page.getByRole('link', { name: 'Signing keys' }).click();
    await page.getByText('No signing keys yet').waitFor();
    await checkPage('signing-keys-empty');
    await page.getByLabel('Key name').fill('web player');
    await page.getByRole('button', { name: 'Create signing key' }).click();
    const pem = page.getByTestId('secret-value');
    await pem.waitFor();
    assert.match((await pem.textContent()) ?? '', /-----BEGIN PRIVATE KEY-----/);
    await page.getByRole('button', { name: /^Download airwave-.*\.pem$/ }).waitFor();
    await checkPage('signing-key-created');
    await page.getByRole('button', { name: 'Done' }).click();
    await page.goto(streamUrl);
    await page.getByLabel('Policy').selectOption('JWT');
    await page.getByRole('button', { name: 'Save policy' }).click();
    await page.getByTestId('policy-type').filter({ hasText: 'JWT' }).waitFor();
    const anonymous = await fetch(`${server.baseUrl}/play/${playbackId}/cmaf/index.m3u8`);
    assert.equal(anonymous.status, 401, 'a viewer without a token is refused');
    await page.reload();
    await previewPlays();
    const whep = page.waitForResponse(
      (response) => response.request().method() === 'POST' && response.url().endsWith(`/play/${playbackId}/webrtc`),
    );
    await page.getByLabel('Player', { exact: true }).selectOption('whep');
    assert.equal((await whep).status(), 201, "the owner's WHEP offer is answered under the JWT policy too");
    await previewPlays();
  });

  it('charts daily views, unique viewers and egress over the chosen range (the owner previews count)', async () => {
    const views = page.getByRole('img', { name: /^Views per day: 7 points, peak [1-9]/ });
    await waitFor(
      'the analytics charts',
      async () => {
        if ((await views.count()) > 0) {
          return true;
        }
        await page.reload();
        await page.getByRole('heading', { name: 'Analytics' }).waitFor();
        return false;
      },
      60_000,
      2000,
    );
    await page.getByRole('img', { name: /^Unique viewers per day: 7 points, peak [1-9]/ }).waitFor();
    await page.getByRole('img', { name: /^Egress per day: 7 points, peak [\d.]+ [KMG]B$/ }).waitFor();
    await page.getByLabel('Range').selectOption('30');
    await page.getByRole('img', { name: /^Views per day: 30 points, peak [1-9]/ }).waitFor();
    await checkPage('stream-analytics');
  });

  it('adds a push target: a bad URL is refused next to its field, a good one is listed masked', async () => {
    await page.getByLabel('Target name').fill('YouTube');
    await page.getByLabel('Destination URL').fill('ftp://example.com/x');
    await page.getByRole('button', { name: 'Add push target' }).click();
    const fieldError = page.locator('#push-heading ~ form .field-error');
    await fieldError.waitFor();
    await page.getByLabel('Platform').selectOption('youtube');
    await page.getByLabel('Destination URL').fill('rtmp://127.0.0.1:9/live2/secret-stream-key-123');
    await page.getByRole('button', { name: 'Add push target' }).click();
    const target = page.getByTestId('push-target');
    await target.waitFor();
    assert.doesNotMatch((await target.textContent()) ?? '', /secret-stream-key-123/, 'the destination key is masked');
    await checkPage('stream-push-target');
  });

  it('creates a developer token (shown once, works), then revokes it', async () => {
    await page.getByRole('link', { name: 'Developer tokens' }).click();
    await page.getByText('No developer tokens yet').waitFor();
    await page.getByLabel('Token name').fill('ci');
    await page.getByRole('button', { name: 'Create token' }).click();
    const secret = page.getByTestId('secret-value');
    await secret.waitFor();
    const token = ((await secret.textContent()) ?? '').trim();
    const listed = await server.graphql<{ streamsConnection: { totalCount: number } }>(
      '{ streamsConnection { totalCount } }',
      undefined,
      token,
    );
    assert.equal(listed.data?.streamsConnection.totalCount, 1, 'the new token reads streams');
    await checkPage('tokens');
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Revoke token ci' }).click();
    await page.getByTestId('token-row').getByText('revoked').waitFor();
    const refused = await server.graphql('{ streamsConnection { totalCount } }', undefined, token);
    assert.equal(refused.errors?.[0]?.extensions?.code, 'UNAUTHORIZED', 'the revoked token is refused');
  });

  it('signs out and the cookie no longer works', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/signin$/);
    await page.goto(streamUrl);
    await page.waitForURL(/\/signin$/);
  });
});
