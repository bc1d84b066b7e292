/**
 * A queue of background jobs run with bounded concurrency (ffmpeg children: never more than
 * `concurrency` at once, so recording and playback keep the CPU they need).
 */

/** Runs queued jobs, at most `concurrency` at a time. */
export class JobQueue<J> {
  private readonly waiting: J[] = [];
  private running = 0;
  private readonly idle = new Set<() => void>();

  constructor(
    private readonly run: (job: J) => Promise<void>,
    private readonly concurrency = 1,
  ) {}

  /** Adds a job. */
  push(job: J): void {
    this.waiting.push(job);
    this.pump();
  }

  /** Resolves when no job is queued or running. */
  settled(): Promise<void> {
    if (this.running === 0 && this.waiting.length === 0) {
      return Promise.resolve();
    }
    return new Promise((resolve) => this.idle.add(resolve));
  }

  private pump(): void {
    while (this.running < this.concurrency && this.waiting.length > 0) {
      const job = this.waiting.shift() as J;
      this.running++;
      this.run(job)
        .catch(() => undefined)
        .finally(() => {
          this.running--;
          this.pump();
          if (this.running === 0 && this.waiting.length === 0) {
            for (const resolve of this.idle) {
              resolve();
            }
            this.idle.clear();
          }
        });
    }
  }
}
