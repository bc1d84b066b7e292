/**
 * Support for the dashboard browser tests: builds packages/dashboard when its build is missing,
 * runs axe-core in a page, and saves page screenshots at desktop and phone width when
 * AIRWAVE_SCREENSHOTS names a folder (docs/screenshots is refreshed that way).
 */

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { waitFor } from './processes.js';

const root = new URL('../..', import.meta.url).pathname;
const require = createRequire(import.meta.url);

/** Builds the dashboard with Vite unless packages/dashboard/dist/index.html exists (npm test builds it first). */
export function ensureDashboardBuilt(): void {
  if (existsSync(join(root, 'packages/dashboard/dist/index.html'))) {
    return;
  }
  const result = spawnSync('npm', ['run', '--silent', 'build', '-w', '@airwave/dashboard'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    throw new Error(`dashboard build failed: ${result.stderr || result.stdout}`);
  }
}

/** One axe-core violation as the test reports it. */
export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly targets: string[];
}

/** Runs axe-core on the page (only `rules` when given); returns every violation. */
async function axeViolations(
  page: Page,
  rules?: readonly string[],
): Promise<{ id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[]> {
  const source = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  // Evaluated through the DevTools protocol, which the page's CSP does not govern.
  await page.evaluate(source);
  const options = rules ? JSON.stringify({ runOnly: { type: 'rule', values: rules } }) : '{}';
  return page.evaluate(`axe.run(document, ${options}).then((result) => result.violations)`);
}

/** Targets of axe-core's heading-order violations (a moderate rule: a heading level skipped). */
export async function headingOrderViolations(page: Page): Promise<string[]> {
  return (await axeViolations(page, ['heading-order'])).flatMap((violation) =>
    violation.nodes.map((node) => node.target.join(' ')),
  );
}

/** Runs axe-core on the page; returns the serious and critical violations. */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  const violations = await axeViolations(page);
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(' ')),
    }));
}

/** Widths the screenshots are taken at. */
export const SCREENSHOT_SIZES = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 360, height: 780 },
} as const;

/** Saves `<name>-desktop.png` and `<name>-phone.png` of the page when AIRWAVE_SCREENSHOTS is set. */
export async function screenshots(page: Page, name: string): Promise<void> {
  const dir = process.env.AIRWAVE_SCREENSHOTS;
  if (!dir) {
    return;
  }
  mkdirSync(dir, { recursive: true });
  const original = page.viewportSize();
  for (const [label, size] of Object.entries(SCREENSHOT_SIZES)) {
    await page.setViewportSize(size);
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(dir, `${name}-${label}.png`), fullPage: true, animations: 'disabled' });
  }
  if (original) {
    await page.setViewportSize(original);
  }
}

/** Elements reaching past the viewport's right edge (none: usable at 360 px without sideways scrolling). */
export async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(`(() => {
    const width = window.innerWidth;
    const found = [];
    for (const element of document.body.querySelectorAll('*')) {
      const box = element.getBoundingClientRect();
      const hidden = element.closest('.visually-hidden, .table-wrap');
      if (!hidden && box.width > 0 && box.right > width + 1) {
        found.push(element.tagName.toLowerCase() + '.' + element.className + ' (right ' + Math.round(box.right) + ')');
      }
    }
    return found.slice(0, 5);
  })()`);
}

/**
 * Labels of buttons with a short word split across lines ("Rotat" / "e"): a squeezed row must
 * wrap between words. A word wider than a third of the page (a file name) may break.
 */
export async function brokenButtonLabels(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(`(() => {
    const found = [];
    const context = document.createElement('canvas').getContext('2d');
    for (const button of document.querySelectorAll('button, a.button')) {
      context.font = getComputedStyle(button).font;
      const walker = document.createTreeWalker(button, NodeFilter.SHOW_TEXT);
      for (let text = walker.nextNode(); text; text = walker.nextNode()) {
        for (const match of text.data.matchAll(/\\S+/g)) {
          const range = document.createRange();
          range.setStart(text, match.index);
          range.setEnd(text, match.index + match[0].length);
          const lines = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)));
          if (lines.size > 1 && context.measureText(match[0]).width < window.innerWidth / 3) {
            found.push(button.textContent.trim());
          }
        }
      }
    }
    return found;
  })()`);
}

/** Asserts axe-core finds no serious or critical violation, at desktop and at phone width, that the page fits 360 px and no button label breaks inside a word, and saves its screenshots. */
export async function checkPage(page: Page, name: string): Promise<void> {
  for (const size of Object.values(SCREENSHOT_SIZES)) {
    await page.setViewportSize(size);
    assert.deepEqual(await seriousAxeViolations(page), [], `${name} at ${size.width} px: axe violations`);
    assert.deepEqual(
      await brokenButtonLabels(page),
      [],
      `${name} at ${size.width} px: button labels broken inside a word`,
    );
  }
  assert.deepEqual(await overflowing(page), [], `${name} fits 360 px without sideways scrolling`);
  await page.setViewportSize(SCREENSHOT_SIZES.desktop);
  await screenshots(page, name);
}

/** Waits until the video with `testId` plays: its currentTime advances by more than 1 s. */
export async function videoAdvances(page: Page, testId: string): Promise<void> {
  const video = page.getByTestId(testId);
  await video.waitFor({ timeout: 30_000 });
  const time = () => video.evaluate((element) => (element as unknown as { currentTime: number }).currentTime);
  const start = await waitFor('the video to start', async () => Math.max(await time(), 0), 30_000, 250);
  await waitFor('the video to advance', async () => (await time()) > start + 1, 20_000, 250);
}

/** Registers `email` through the sign-up page and waits for the streams list. */
export async function signUp(page: Page, baseUrl: string, email: string): Promise<void> {
  await page.goto(`${baseUrl}/signup`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL(/\/streams$/);
}

/**
 * Moves the pointer over the middle of the seek bar of a recorded-media player, then focuses it and
 * presses a key; answers whether a sprite thumbnail showed each time.
 */
async function scrubThumbnails(page: Page): Promise<{ pointer: boolean; keyboard: boolean }> {
  const bar = page.getByTestId('scrub-bar');
  const thumbnail = page.getByTestId('scrub-thumbnail');
  await page.mouse.move(0, 0);
  await bar.hover();
  const pointer = await thumbnail
    .waitFor({ timeout: 2000 })
    .then(() => true)
    .catch(() => false);
  await page.mouse.move(0, 0);
  await bar.focus();
  await page.keyboard.press('ArrowRight');
  const keyboard = await thumbnail
    .waitFor({ timeout: 2000 })
    .then(() => true)
    .catch(() => false);
  await bar.blur();
  return { pointer, keyboard };
}

/** Waits until the seek bar shows sprite thumbnails by pointer and by keyboard (sheets can come a little after the media). */
export async function thumbnailsShow(page: Page, timeoutMs: number): Promise<void> {
  await waitFor(
    'sprite thumbnails over the seek bar, by pointer and by keyboard',
    async () => {
      const shown = await scrubThumbnails(page);
      return shown.pointer && shown.keyboard;
    },
    timeoutMs,
    500,
  );
}

/** Follows the upload form's "Open it" link to the asset page and waits until its status is READY (processing included). */
export async function openUploadedVodWhenReady(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Open it' }).click();
  await page.waitForURL(/\/vod\/[^/]+$/);
  await page
    .getByTestId('vod-status')
    .filter({ hasText: 'READY' })
    .waitFor({ timeout: 120_000 })
    .catch(async (error: Error) => {
      throw new Error(`${error.message}; status ${await page.getByTestId('vod-status').textContent()}`);
    });
}
