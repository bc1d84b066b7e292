/**
 * Per-caller request rate limit: a token bucket per session, developer token or (anonymous)
 * client IP, refilled continuously. In memory: each process limits on its own.
 */
import { RateLimitedError } from '../domain/errors.js';

/** Default requests per minute per caller; generous so benchmarks and dashboards never hit it. */
export const DEFAULT_REQUESTS_PER_MINUTE = 6000;
const MAX_BUCKETS = 50_000;

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/** Token buckets keyed by caller. */
export class RequestRateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;

  /** `perMinute` 0 turns the limit off. */
  constructor(
    private readonly perMinute: number = DEFAULT_REQUESTS_PER_MINUTE,
    private readonly now: () => number = Date.now,
  ) {
    this.perMs = perMinute / 60_000;
  }

  /** Takes one request from `key`'s bucket or throws RateLimitedError with the wait. */
  take(key: string): void {
    if (this.perMinute <= 0) {
      return;
    }
    const now = this.now();
    let bucket = this.buckets.get(key);
    if (bucket) {
      bucket.tokens = Math.min(this.perMinute, bucket.tokens + (now - bucket.updatedAt) * this.perMs);
      bucket.updatedAt = now;
    } else {
      this.prune(now);
      bucket = { tokens: this.perMinute, updatedAt: now };
      this.buckets.set(key, bucket);
    }
    if (bucket.tokens < 1) {
      const seconds = Math.max(1, Math.ceil((1 - bucket.tokens) / this.perMs / 1000));
      throw new RateLimitedError(
        seconds,
        `rate limit of ${this.perMinute} requests per minute exceeded; retry after ${seconds} s`,
      );
    }
    bucket.tokens -= 1;
  }

  /** Drops buckets that have refilled completely (they equal a fresh bucket); bounds memory. */
  private prune(now: number): void {
    if (this.buckets.size < MAX_BUCKETS) {
      return;
    }
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + (now - bucket.updatedAt) * this.perMs >= this.perMinute) {
        this.buckets.delete(key);
      }
    }
    if (this.buckets.size >= MAX_BUCKETS) {
      this.buckets.clear();
    }
  }
}
