/**
 * A queue of background jobs run with bounded concurrency (ffmpeg children: never more than
 * `concurrency` at once, so recording and playback keep the CPU they need). Stopping the queue
 * (service shutdown) drops the jobs still waiting and kills the children of the running ones:
 * every job of this kind is re-queued from the database at the next start, so a stop never waits
 * for minutes of rendering.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** The signal of the job running in this async context; aborted when its queue stops (children spawned under it are killed). */
export const jobSignal = new AsyncLocalStorage<AbortSignal>();

/** The current job's signal as a spawn option (empty outside a job). */
export function jobSpawnSignal(): { signal?: AbortSignal } {
  const signal = jobSignal.getStore();
  return signal ? { signal } : {};
}

/** Runs queued jobs, at most `concurrency` at a time. */
export class JobQueue<J> {
  private readonly waiting: J[] = [];
  private running = 0;
  private readonly idle = new Set<() => void>();
  private readonly stopping = new AbortController();

  constructor(
    private readonly run: (job: J) => Promise<void>,
    private readonly concurrency = 1,
  ) {}

  /** Whether the queue was stopped: a job failing now was interrupted, not broken. */
  get stopped(): boolean {
    return this.stopping.signal.aborted;
  }

  /** Adds a job (ignored once the queue is stopped). */
  push(job: J): void {
    if (this.stopped) {
      return;
    }
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

  /** Drops the waiting jobs and kills the running jobs' children; resolves with the number of jobs left undone once the running ones returned. */
  async stop(): Promise<number> {
    const undone = this.waiting.length + this.running;
    this.waiting.length = 0;
    this.stopping.abort();
    await this.settled();
    return undone;
  }

  private pump(): void {
    while (this.running < this.concurrency && this.waiting.length > 0) {
      const job = this.waiting.shift() as J;
      this.running++;
      jobSignal
        .run(this.stopping.signal, () => this.run(job))
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
