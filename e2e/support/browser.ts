/**
 * Real players in Debian's Chromium, driven by playwright-core: a local page loads hls.js or
 * dash.js from node_modules and plays a URL; the test reads what the video element did.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { type Browser, chromium } from 'playwright-core';
import { hasCommand } from './processes.js';

const CHROMIUM = '/usr/bin/chromium';

/** Why browser tests skip, or false when Chromium is installed. */
export const chromiumMissing: string | false = hasCommand('chromium')
  ? false
  : 'Debian chromium not installed (apt-get install chromium)';

/** Launches headless Chromium (playwright gives it a fresh temporary profile), with `extraArgs` added. */
export async function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--autoplay-policy=no-user-gesture-required',
      ...extraArgs,
    ],
  });
}

const require = createRequire(import.meta.url);
const scripts = {
  hls: () => readFileSync(require.resolve('hls.js/dist/hls.min.js')),
  /** `require` resolves dash.js's UMD build (its "require" export condition). */
  dash: () => readFileSync(require.resolve('dashjs')),
};

const PAGE = `<!doctype html><html><body><video id="v" muted autoplay playsinline width="640"></video>
<script src="/player.js"></script><script>
const params = new URLSearchParams(location.search);
const src = params.get('src');
const kind = params.get('player');
window.playerErrors = [];
const video = document.getElementById('v');
if (kind === 'hls') {
  const hls = new Hls({ lowLatencyMode: params.get('ll') === '1' });
  hls.on(Hls.Events.ERROR, (_e, data) => { if (data.fatal) window.playerErrors.push(data.type + ':' + data.details); });
  hls.loadSource(src);
  hls.attachMedia(video);
  window.player = hls;
  video.play().catch(() => {});
} else {
  const player = dashjs.MediaPlayer().create();
  player.on('error', (e) => window.playerErrors.push(JSON.stringify(e.error || e)));
  player.initialize(video, src, true);
  window.player = player;
}
</script></body></html>`;

/** A local page server for one player kind. */
export interface PlayerPages {
  /** URL of a page playing `src` with the player. */
  url(player: 'hls' | 'dash', src: string, options?: { lowLatency?: boolean }): string;
  close(): Promise<void>;
}

/** Serves the player page and the player scripts on 127.0.0.1:0. */
export async function startPlayerPages(): Promise<PlayerPages> {
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname === '/player.js') {
      const kind = url.searchParams.get('kind') === 'dash' ? 'dash' : 'hls';
      response.writeHead(200, { 'content-type': 'text/javascript' });
      response.end(scripts[kind]());
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(PAGE.replace('/player.js', `/player.js?kind=${url.searchParams.get('player') ?? 'hls'}`));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url(player, src, options = {}) {
      const query = new URLSearchParams({ player, src, ll: options.lowLatency ? '1' : '0' });
      return `http://127.0.0.1:${port}/?${query}`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Page-side expression reading the video element (a string: the e2e code has no DOM types). */
const READ_VIDEO_STATE = `(() => { const v = document.getElementById('v');
  return { currentTime: v.currentTime, videoWidth: v.videoWidth, videoHeight: v.videoHeight, errors: window.playerErrors }; })()`;

/** What the page's video element did. */
export interface PlaybackReport {
  readonly currentTime: number;
  /** Seconds currentTime advanced since it was first seen (a live player starts far from 0). */
  readonly played: number;
  readonly videoWidth: number;
  readonly videoHeight: number;
  readonly errors: string[];
}

/** Opens `pageUrl` and waits until the video has played `seconds` (or fails with the player's errors). */
export async function playFor(
  browser: Browser,
  pageUrl: string,
  seconds: number,
  timeoutMs = 45_000,
): Promise<PlaybackReport> {
  const page = await browser.newPage();
  try {
    await page.goto(pageUrl);
    const deadline = Date.now() + timeoutMs;
    let report: PlaybackReport = { currentTime: 0, played: 0, videoWidth: 0, videoHeight: 0, errors: [] };
    let start: number | undefined;
    while (Date.now() < deadline) {
      const state = (await page.evaluate(READ_VIDEO_STATE)) as Omit<PlaybackReport, 'played'>;
      if (start === undefined && state.currentTime > 0) {
        start = state.currentTime;
      }
      report = { ...state, played: start === undefined ? 0 : state.currentTime - start };
      if (report.errors.length > 0 || report.played >= seconds) {
        return report;
      }
      await page.waitForTimeout(250);
    }
    return report;
  } finally {
    await page.close();
  }
}
