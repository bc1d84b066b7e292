/**
 * Seeking in a real player: opens a player page (support/browser.ts), waits until the video
 * plays, seeks the video element back (inside what the player reports seekable) and reports
 * whether playback went on from there.
 */
import type { Browser } from 'playwright-core';

/** What a seek did. */
export interface SeekReport {
  /** Seekable range the player exposed before the seek, seconds. */
  readonly seekable: readonly [number, number];
  /** currentTime just before the seek. */
  readonly before: number;
  /** Where the seek went. */
  readonly target: number;
  /** currentTime once the seek completed and playback went on. */
  readonly after: number;
  readonly errors: string[];
}

const STATE = `(() => { const v = document.getElementById('v');
  const s = v.seekable.length > 0 ? [v.seekable.start(0), v.seekable.end(v.seekable.length - 1)] : [0, 0];
  return { currentTime: v.currentTime, seeking: v.seeking, paused: v.paused, seekable: s, errors: window.playerErrors }; })()`;

interface State {
  currentTime: number;
  seeking: boolean;
  paused: boolean;
  seekable: [number, number];
  errors: string[];
}

/**
 * Plays `pageUrl` until `warmup` seconds played, then sets currentTime to `target(state)` and
 * waits until playback has advanced `advance` seconds past it (or `timeoutMs` passes).
 */
export async function seekAndPlay(
  browser: Browser,
  pageUrl: string,
  target: (state: { currentTime: number; seekable: readonly [number, number] }) => number,
  options: { warmup?: number; advance?: number; timeoutMs?: number } = {},
): Promise<SeekReport> {
  const { warmup = 2, advance = 2, timeoutMs = 60_000 } = options;
  const page = await browser.newPage();
  try {
    await page.goto(pageUrl);
    const deadline = Date.now() + timeoutMs;
    const read = async () => (await page.evaluate(STATE)) as State;
    let state = await read();
    let first: number | undefined;
    while (Date.now() < deadline && state.errors.length === 0) {
      if (first === undefined && state.currentTime > 0) {
        first = state.currentTime;
      }
      if (first !== undefined && state.currentTime - first >= warmup) {
        break;
      }
      await page.waitForTimeout(250);
      state = await read();
    }
    const before = state.currentTime;
    const seekable = state.seekable;
    const to = target({ currentTime: before, seekable });
    await page.evaluate(`document.getElementById('v').currentTime = ${to}`);
    let after = to;
    while (Date.now() < deadline) {
      await page.waitForTimeout(250);
      state = await read();
      after = state.currentTime;
      if (state.errors.length > 0 || (!state.seeking && after >= to + advance)) {
        break;
      }
    }
    return { seekable, before, target: to, after, errors: state.errors };
  } finally {
    await page.close();
  }
}
