/**
 * Long polls on a packager (the blocking playlist reloads and preload hints of RFC 8216bis
 * §6.2.5.2 and §6.2.6, and first-segment waits): a request waits until a condition on the
 * packager holds, the packager's stream ends, its timeout passes or it is aborted. The packager
 * calls `notify()` after every change that could make a condition hold.
 *
 * A thousand viewers may wait on one packager for the same part: each waiter is one small record
 * (no timer of its own — one timer serves the earliest deadline; no abort listener of its own —
 * one per signal serves the waiters of every request that signal covers, e.g. the requests of one
 * keep-alive connection), released in arrival order — media waiters (a preload-hinted part or
 * segment) before playlist waiters, so the bytes viewers are waiting for leave first when one
 * change releases both kinds at once.
 */

/** One waiting request. */
interface Waiter {
  readonly ready: () => boolean;
  readonly deadline: number;
  readonly resolve: (value: boolean) => void;
  readonly signal: AbortSignal | undefined;
}

/** Which kind of request waits: media bytes are released before playlists. */
export type WaiterKind = 'media' | 'playlist';

/** The requests waiting on one packager. */
export class ChangeWaiters {
  private readonly waiters = new Set<Waiter>();
  /** The media waiters among `waiters`, checked first on notify. */
  private readonly mediaWaiters = new Set<Waiter>();
  /** The waiters of each signal that has one listener here. */
  private readonly bySignal = new WeakMap<AbortSignal, Set<Waiter>>();
  private timer: NodeJS.Timeout | undefined;
  /** When the armed timer fires (ms, performance.now()). */
  private timerAt = Number.POSITIVE_INFINITY;

  /** `ended` tells whether the packager's stream ended (no condition can become true any more). */
  constructor(private readonly ended: () => boolean) {}

  /** Resolves true once `ready()` holds (checked at every notify), false on timeout, abort or end. */
  waitFor(
    ready: () => boolean,
    timeoutMs: number,
    signal?: AbortSignal,
    kind: WaiterKind = 'playlist',
  ): Promise<boolean> {
    if (ready()) {
      return Promise.resolve(true);
    }
    if (this.ended() || signal?.aborted) {
      return Promise.resolve(false);
    }
    return new Promise((resolve) => {
      const waiter: Waiter = { ready, deadline: performance.now() + timeoutMs, resolve, signal };
      if (signal) {
        this.waitersOf(signal).add(waiter);
      }
      this.waiters.add(waiter);
      if (kind === 'media') {
        this.mediaWaiters.add(waiter);
      }
      if (waiter.deadline < this.timerAt) {
        this.arm(waiter.deadline);
      }
    });
  }

  /** Re-checks every waiting request: media waiters first, each kind in the order they came. */
  notify(): void {
    if (this.waiters.size === 0) {
      return;
    }
    const ended = this.ended();
    this.release(this.mediaWaiters, ended);
    this.release(this.waiters, ended);
  }

  private release(waiters: Set<Waiter>, ended: boolean): void {
    // Deleting the entry being visited is safe while iterating a Set; nothing is added meanwhile.
    for (const waiter of waiters) {
      if (waiter.ready()) {
        this.finish(waiter, true);
      } else if (ended) {
        this.finish(waiter, false);
      }
    }
  }

  private finish(waiter: Waiter, value: boolean): void {
    if (!this.waiters.delete(waiter)) {
      return;
    }
    this.mediaWaiters.delete(waiter);
    if (waiter.signal) {
      this.bySignal.get(waiter.signal)?.delete(waiter);
    }
    waiter.resolve(value);
    if (this.waiters.size === 0 && this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
      this.timerAt = Number.POSITIVE_INFINITY;
    }
  }

  /** The waiters of `signal`, listening for its abort the first time. */
  private waitersOf(signal: AbortSignal): Set<Waiter> {
    let waiters = this.bySignal.get(signal);
    if (!waiters) {
      const aborted = new Set<Waiter>();
      signal.addEventListener(
        'abort',
        () => {
          for (const waiter of aborted) {
            this.finish(waiter, false);
          }
        },
        { once: true },
      );
      this.bySignal.set(signal, aborted);
      waiters = aborted;
    }
    return waiters;
  }

  /** Arms the one timer for `at`; when it fires, every waiter past its deadline is answered. */
  private arm(at: number): void {
    if (this.timer) {
      clearTimeout(this.timer);
    }
    this.timerAt = at;
    this.timer = setTimeout(() => this.expire(), Math.max(0, at - performance.now()));
  }

  private expire(): void {
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
    const now = performance.now();
    let next = Number.POSITIVE_INFINITY;
    for (const waiter of this.waiters) {
      if (waiter.deadline <= now) {
        this.finish(waiter, waiter.ready());
      } else if (waiter.deadline < next) {
        next = waiter.deadline;
      }
    }
    if (next !== Number.POSITIVE_INFINITY) {
      this.arm(next);
    }
  }
}
