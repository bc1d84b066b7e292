/**
 * Capped exponential backoff with jitter for pull and push retries: the n-th consecutive failure waits
 * between half and all of min(max, base × 2ⁿ), so many sources failing together spread out.
 */

/** Backoff settings. */
export interface RetryPolicy {
  /** Wait after the first failure (before jitter). */
  readonly baseMs: number;
  /** Longest wait. */
  readonly maxMs: number;
}

/** Default: 1 s doubling to 30 s. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { baseMs: 1000, maxMs: 30_000 };

/** Milliseconds to wait after `failures` consecutive failures (0-based); `random` is in [0, 1). */
export function retryDelayMs(failures: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(failures, 30));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
