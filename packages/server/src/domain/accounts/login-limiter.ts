/**
 * Limits login attempts per email and per client IP. Attempts are rows in the database, so
 * every process sharing it enforces one limit. Each attempt is recorded before the password
 * is checked and then counted, so concurrent attempts cannot slip past the limit; a successful
 * login forgets the email's attempts and its own IP attempt.
 */
import { RateLimitedError } from '../errors.js';
import type { AccountsStore } from './accounts.store.js';

/** Limits of the login limiter. */
export interface LoginLimits {
  /** Attempts per email within the window. */
  readonly perEmail: number;
  /** Attempts per client IP within the window. */
  readonly perIp: number;
  readonly windowSeconds: number;
}

/** Defaults: 5 per email and 20 per IP in 15 minutes. */
export const DEFAULT_LOGIN_LIMITS: LoginLimits = { perEmail: 5, perIp: 20, windowSeconds: 15 * 60 };

/** An admitted attempt; settle it with `succeeded` when the credentials were right. */
export interface LoginAttempt {
  succeeded(): Promise<void>;
}

/** Counts login attempts in the database. */
export class LoginLimiter {
  constructor(
    private readonly store: AccountsStore,
    private readonly limits: LoginLimits = DEFAULT_LOGIN_LIMITS,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Records an attempt for `email` from `ip`; throws RateLimitedError when over a limit. */
  async admit(email: string, ip: string): Promise<LoginAttempt> {
    const now = this.now();
    const windowMs = this.limits.windowSeconds * 1000;
    const since = new Date(now.getTime() - windowMs);
    const emailKey = `email:${email.trim().toLowerCase()}`;
    const ipKey = `ip:${ip}`;
    await this.store.insertAttempt(emailKey, now);
    const ipAttempt = await this.store.insertAttempt(ipKey, now);
    for (const [key, limit] of [
      [emailKey, this.limits.perEmail],
      [ipKey, this.limits.perIp],
    ] as const) {
      const count = await this.store.attemptsSince(key, since);
      if (count > limit) {
        // The next attempt is admitted once all but limit - 1 of these attempts have aged out.
        const freeing = await this.store.attemptAt(key, since, count - limit);
        const seconds = Math.max(1, Math.ceil(((freeing ?? now).getTime() + windowMs - now.getTime()) / 1000));
        throw new RateLimitedError(seconds, `too many login attempts; retry after ${seconds} s`);
      }
    }
    return {
      succeeded: async () => {
        await this.store.deleteAttempts(emailKey);
        await this.store.deleteAttempt(ipAttempt);
        await this.store.pruneAttempts(since);
      },
    };
  }
}
