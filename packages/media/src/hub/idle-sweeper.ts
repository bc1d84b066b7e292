/**
 * A self-stopping interval for idle timeouts: started when there is something to watch, it calls
 * `sweep` every quarter of the idle time (at least 250 ms) and stops itself once `watching()` is
 * false, so an idle process keeps no timer. It never keeps the process alive (unref).
 */

/** Runs `sweep` periodically while `watching()` holds. */
export class IdleSweeper {
  private timer: NodeJS.Timeout | undefined;
  private readonly periodMs: number;

  constructor(
    idleMs: number,
    private readonly sweep: () => void,
    private readonly watching: () => boolean,
  ) {
    this.periodMs = Math.max(250, Math.floor(idleMs / 4));
  }

  /** Starts the interval unless it runs. */
  ensure(): void {
    if (this.timer) {
      return;
    }
    this.timer = setInterval(() => {
      this.sweep();
      if (!this.watching()) {
        this.stop();
      }
    }, this.periodMs);
    this.timer.unref();
  }

  /** Stops the interval. */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
