/**
 * Long polls on a packager (the blocking playlist reloads and preload hints of RFC 8216bis
 * §6.2.5.2 and §6.2.6, and first-segment waits): a request waits until a condition on the
 * packager holds, the packager's stream ends, its timeout passes or it is aborted. The packager
 * calls `notify()` after every change that could make a condition hold.
 */

/** The requests waiting on one packager. */
export class ChangeWaiters {
  private readonly waiters = new Set<() => void>();

  /** `ended` tells whether the packager's stream ended (no condition can become true any more). */
  constructor(private readonly ended: () => boolean) {}

  /** Resolves true once `ready()` holds (checked at every notify), false on timeout, abort or end. */
  waitFor(ready: () => boolean, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    if (ready()) {
      return Promise.resolve(true);
    }
    if (this.ended() || signal?.aborted) {
      return Promise.resolve(false);
    }
    return new Promise((resolve) => {
      const finish = (value: boolean): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.waiters.delete(check);
        resolve(value);
      };
      const check = (): void => {
        if (ready()) {
          finish(true);
        } else if (this.ended()) {
          finish(false);
        }
      };
      const onAbort = (): void => finish(false);
      const timer = setTimeout(() => finish(ready()), timeoutMs);
      signal?.addEventListener('abort', onAbort);
      this.waiters.add(check);
    });
  }

  /** Re-checks every waiting request. */
  notify(): void {
    for (const check of [...this.waiters]) {
      check();
    }
  }
}
