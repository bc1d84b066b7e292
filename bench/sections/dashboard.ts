/**
 * Dashboard (issue 21): JavaScript shipped for the first page (the sign-in page a new user lands
 * on, and the streams list a signed-in user lands on), gzip as the service serves it, against the
 * 250 KB target; the player chunk (hls.js), loaded only on pages with video, is listed apart.
 * Time to interactive in Debian's Chromium over loopback: from navigation start to the page's
 * first usable control rendered with its data, median of cold loads (new browser context each,
 * so nothing is cached) and of warm reloads (hashed files come from the HTTP cache).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../../e2e/support/browser.js';
import { ensureDashboardBuilt } from '../../e2e/support/dashboard.js';
import { type AirwaveProcess, graphql, registerBenchAccount, startAirwave } from '../lib/airwave-server.js';
import { percentile } from '../lib/percentile.js';

/** Section title. */
export const title = 'Dashboard: first-page JavaScript and time to interactive (Chromium, loopback)';

const RUNS = 7;
const TARGET_KB = 250;
const dist = new URL('../../packages/dashboard/dist/', import.meta.url).pathname;

/** Gzip size (level 9, as served) of a built file. */
function gzipKb(file: string): number {
  return gzipSync(readFileSync(join(dist, file)), { level: 9 }).length / 1024;
}

/** Files index.html loads at once (entry script, preloads, CSS), and the lazy chunks. */
function chunks(): { initial: string[]; lazy: string[] } {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const initial = [...html.matchAll(/(?:src|href)="\/(_app\/[^"]+)"/g)].map((m) => m[1] ?? '');
  const all = readdirSync(join(dist, '_app')).map((name) => `_app/${name}`);
  return { initial, lazy: all.filter((file) => !initial.includes(file) && file.endsWith('.js')) };
}

/** Milliseconds from navigation start until `selector` is in the page (polled every animation frame). */
async function timeToInteractive(
  browser: Browser,
  url: string,
  selector: string,
  cookie?: { name: string; value: string; url: string },
): Promise<{ cold: number; warm: number }> {
  const context = await browser.newContext();
  try {
    if (cookie) {
      await context.addCookies([cookie]);
    }
    const page = await context.newPage();
    const measure = async () => {
      // A function predicate, not a string: the dashboard's CSP forbids string evaluation.
      const handle = await page.waitForFunction(
        (wanted: string) => {
          const dom = globalThis as unknown as { document: { querySelector(selector: string): unknown } };
          return dom.document.querySelector(wanted) ? performance.now() : 0;
        },
        selector,
        { polling: 'raf', timeout: 30_000 },
      );
      return Number(await handle.jsonValue());
    };
    await page.goto(url, { waitUntil: 'commit' });
    const cold = await measure();
    await page.reload({ waitUntil: 'commit' });
    const warm = await measure();
    return { cold, warm };
  } finally {
    await context.close();
  }
}

/** Runs the section. */
export async function run(): Promise<string> {
  ensureDashboardBuilt();
  const { initial, lazy } = chunks();
  const initialJs = initial.filter((file) => file.endsWith('.js'));
  const jsKb = initialJs.reduce((sum, file) => sum + gzipKb(file), 0);
  const cssKb = initial.filter((file) => file.endsWith('.css')).reduce((sum, file) => sum + gzipKb(file), 0);
  let server: AirwaveProcess | undefined;
  let browser: Browser | undefined;
  try {
    server = await startAirwave();
    const token = await registerBenchAccount(server);
    await graphql(server, 'mutation { createStream(input: {name: "bench"}) { __typename } }', {}, token);
    browser = await launchChromium();
    const cookie = { name: 'airwave_session', value: token, url: server.baseUrl };
    const signin: { cold: number; warm: number }[] = [];
    const streams: { cold: number; warm: number }[] = [];
    for (let i = 0; i < RUNS; i++) {
      signin.push(await timeToInteractive(browser, `${server.baseUrl}/signin`, 'form button[type=submit]'));
      streams.push(await timeToInteractive(browser, `${server.baseUrl}/streams`, 'table a[href^="/streams/"]', cookie));
    }
    const median = (values: number[]) => percentile(values, 50).toFixed(0);
    const rows = [
      ['sign-in page (new user)', signin],
      ['streams list (signed in; me + streamsConnection + live status socket)', streams],
    ] as const;
    return [
      `First page: ${initialJs.length} JS file(s), **${jsKb.toFixed(1)} KB gzip** (${((jsKb / TARGET_KB) * 100).toFixed(0)} % of the ${TARGET_KB} KB target; CSS ${cssKb.toFixed(1)} KB gzip). Loaded only on pages with video: ${lazy.map((file) => `\`${file.replace(/-[\w-]{8}\.js$/, '')}\` ${gzipKb(file).toFixed(1)} KB gzip`).join(', ')}.`,
      '',
      `| page | time to interactive, cold (median of ${RUNS}) | warm reload (median) |`,
      '|---|---|---|',
      ...rows.map(
        ([name, list]) => `| ${name} | ${median(list.map((r) => r.cold))} ms | ${median(list.map((r) => r.warm))} ms |`,
      ),
      '',
      'Time to interactive: navigation start to the first usable control rendered with its data (the sign-in',
      "button; the first stream's link), polled every animation frame. One Airwave process (`airwave start`),",
      'Debian Chromium headless, both on this machine; the files are served gzip from memory with',
      '`cache-control: immutable` (warm reloads revalidate only index.html). The machine is shared (see the',
      'load average above); times are upper bounds of what an idle machine gives.',
    ].join('\n');
  } finally {
    await browser?.close();
    await server?.stop();
  }
}
