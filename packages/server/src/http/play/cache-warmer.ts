/**
 * Warms the cache in front of this node's playback (AIRWAVE_PLAYBACK_CACHE_URL, ADR 0083): a new
 * LL-HLS part is fetched through the cache once, and the blocking reloads that list it are
 * answered after that fetch, so the viewers they release all find the part cached instead of
 * waiting on the cache's lock (nginx re-checks a lock on a timer, ADRs 0043 and 0044).
 */

/**
 * Longest a playlist answer waits for the cache. A fetch through a working cache takes a few ms;
 * this only bounds what a wedged cache costs the viewers, who fetch their parts through it anyway.
 */
export const WARM_TIMEOUT_MS = 200;
/** Paths whose fetch is remembered: the newest parts of every stream and track. */
const REMEMBERED = 256;
/** A failing cache is logged at most once per this many ms. */
const LOG_EVERY_MS = 60_000;

/**
 * A function that GETs a path under `baseUrl` once (every caller of the same path shares that
 * fetch), resolving when its body arrived, it failed (reported to `onError`, rate-limited) or
 * WARM_TIMEOUT_MS passed.
 */
export function cacheWarmer(
  baseUrl: string,
  onError: (path: string, error: unknown) => void,
): (path: string) => Promise<void> {
  const fetches = new Map<string, Promise<void>>();
  let loggedAt = Number.NEGATIVE_INFINITY;
  return (path) => {
    let done = fetches.get(path);
    if (!done) {
      done = fetchThrough(`${baseUrl}${path}`).catch((error: unknown) => {
        if (performance.now() - loggedAt >= LOG_EVERY_MS) {
          loggedAt = performance.now();
          onError(path, error);
        }
      });
      fetches.set(path, done);
      const oldest = fetches.keys().next().value;
      if (fetches.size > REMEMBERED && oldest !== undefined) {
        fetches.delete(oldest);
      }
    }
    return done;
  };
}

async function fetchThrough(url: string): Promise<void> {
  const response = await fetch(url, { signal: AbortSignal.timeout(WARM_TIMEOUT_MS) });
  await response.arrayBuffer();
  if (response.status !== 200) {
    throw new Error(`the cache answered ${response.status}`);
  }
}
