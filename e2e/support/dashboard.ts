/**
 * Support for the dashboard browser tests: builds packages/dashboard when its build is missing,
 * runs axe-core in a page, and saves page screenshots at desktop and phone width when
 * AIRWAVE_SCREENSHOTS names a folder (docs/screenshots is refreshed that way).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

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

/** Runs axe-core on the page; returns the serious and critical violations. */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  const source = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  // Evaluated through the DevTools protocol, which the page's CSP does not govern.
  await page.evaluate(source);
  const violations = await page.evaluate<
    { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[]
  >('axe.run(document).then((result) => result.violations)');
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
