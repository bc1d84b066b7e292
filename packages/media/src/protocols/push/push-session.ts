/**
 * One push target on one live stream: reads the stream through a bounded hub reader (a slow
 * destination drops to the next keyframe, counted), connects through the given connector at a
 * keyframe, and reconnects after a failure with capped exponential backoff and jitter. Statuses
 * follow ADR 0035: connecting → pushing; after a failure retrying, and failed once `failAfter`
 * attempts in a row failed; idle when the stream ends or the push is stopped. A publisher that
 * drops and returns inside the reconnect window does not end the push: the reader waits. Every
 * connection starts at a video keyframe.
 */
import type { LiveStream } from '../../hub/live-stream.js';
import type { QueuedReader, ReaderLimits } from '../../hub/reader.js';
import type { Logger } from '../../ports.js';
import type { MediaUnit } from '../../stream/media-unit.js';
import type { StreamDescription } from '../../stream/track.js';
import type { DestinationResolver, PushConnector, PushOutput } from '../shared/push-output.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy, retryDelayMs } from '../shared/retry-delay.js';
import { type FanoutMember, fanoutOf } from './push-fanout.js';
import { secretsOf, withoutSecrets } from './uri-secrets.js';

/** Statuses of a push (ADR 0035). */
export type PushSessionStatus = 'idle' | 'connecting' | 'pushing' | 'retrying' | 'failed';

/** What a push reports. */
export interface PushSessionState {
  readonly status: PushSessionStatus;
  /** Why the last attempt failed or ended, secrets removed. */
  readonly lastError: string | null;
  readonly lastPushedAt: Date | null;
  /** Bytes sent over every connection of this push. */
  readonly bytesSent: number;
  /** Units the reader skipped because the destination read too slowly. */
  readonly droppedUnits: number;
  /** Consecutive failed attempts. */
  readonly failures: number;
}

/** Options of one push. */
export interface PushSessionOptions {
  readonly stream: LiveStream;
  /** The destination in the clear (never logged or reported). */
  readonly uri: string;
  readonly connect: PushConnector;
  readonly resolve: DestinationResolver;
  readonly log: Logger;
  readonly retry?: RetryPolicy;
  /** Attempts in a row that fail before the status says `failed` (default 3). */
  readonly failAfter?: number;
  /** The reader's queue bounds (default 1024 units, 8 MiB). */
  readonly reader?: ReaderLimits;
  /** A write the destination has not taken for this long ends the connection (default 10 s). */
  readonly writeStallMs?: number;
  /** Called on every status change. */
  readonly onChange?: (state: PushSessionState) => void;
}

/** How a push left its stream's fan-out: with the write the socket did not take, if that was why. */
interface Parked {
  readonly pending?: Promise<void>;
}

/** A running push of one stream to one destination. */
export class PushSession {
  private status: PushSessionStatus = 'idle';
  private lastError: string | null = null;
  /** When media last left for the destination (ms since the epoch). */
  private lastPushedMs: number | undefined;
  private failures = 0;
  private sentBefore = 0;
  private droppedBefore = 0;
  private output: PushOutput | undefined;
  private reader: QueuedReader | undefined;
  private stopped = false;
  private wakeSleep: (() => void) | undefined;
  private readonly secrets: string[];
  /** Resolves once the push loop has ended. */
  readonly done: Promise<void>;

  constructor(private readonly options: PushSessionOptions) {
    this.secrets = secretsOf(options.uri);
    this.done = this.run();
  }

  /** The push's current state. */
  get state(): PushSessionState {
    return {
      status: this.status,
      lastError: this.lastError,
      lastPushedAt: this.lastPushedMs === undefined ? null : new Date(this.lastPushedMs),
      bytesSent: this.sentBefore + (this.output?.bytesSent ?? 0),
      droppedUnits: this.droppedBefore + (this.reader?.stats.dropped ?? 0),
      failures: this.failures,
    };
  }

  /** Stops the push at once (the connection is closed, a pending retry cancelled); resolves when it ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.reader?.close();
    this.wakeSleep?.();
    void this.output?.close().catch(() => undefined);
    await this.done;
  }

  private async run(): Promise<void> {
    const { stream } = this.options;
    while (!this.stopped && stream.endReason === undefined) {
      // A push does not make the stream count as watched: ingest may keep batching its reads.
      const reader = stream.openReader({ ...this.options.reader, watches: false });
      this.reader = reader;
      const first = await this.keyframe(reader);
      if (!first || this.stopped) {
        this.retire(reader);
        break;
      }
      try {
        const description = stream.description;
        if (!description) {
          throw new Error('the stream has no tracks yet');
        }
        this.set(this.failures === 0 && this.status === 'idle' ? 'connecting' : this.status);
        const output = await this.options.connect(this.options.uri, description, this.options.resolve, stream);
        if (this.stopped) {
          await output.close().catch(() => undefined);
          this.retire(reader);
          break;
        }
        this.output = output;
        output.ready.then(() => {
          if (this.output === output && !this.stopped) {
            this.failures = 0;
            this.lastPushedMs = Date.now();
            this.set('pushing');
          }
        });
        await this.pump(reader, output, description, first);
        this.retire(reader);
        await this.closeOutput();
        if (this.stopped || stream.endReason !== undefined) {
          break;
        }
        throw new Error('the stream reader closed');
      } catch (error) {
        this.retire(reader);
        await this.closeOutput();
        if (this.stopped) {
          break;
        }
        await this.failed(error);
      }
    }
    this.set('idle');
  }

  /** The reader's first video keyframe (its first unit for a stream without video); null once it closed. */
  private async keyframe(reader: QueuedReader): Promise<MediaUnit | null> {
    for (;;) {
      const unit = await reader.next();
      const video = this.options.stream.description?.tracks.find((track) => track.kind === 'video');
      if (!unit || video === undefined || (unit.trackId === video.id && unit.key)) {
        return unit;
      }
    }
  }

  /**
   * Sends units until the stream ends (resolves) or the connection fails (throws): when the
   * destination closes, or a write it has not taken for `writeStallMs` (a timer armed only while
   * a write waits for the socket, so a run that goes straight out costs no timer).
   */
  private async pump(
    reader: QueuedReader,
    output: PushOutput,
    initial: StreamDescription,
    first: MediaUnit,
  ): Promise<void> {
    const stallMs = this.options.writeStallMs ?? 10_000;
    let failure: string | undefined;
    let interrupt: (error: Error) => void = () => undefined;
    const interrupted = new Promise<never>((_, reject) => {
      interrupt = reject;
    });
    interrupted.catch(() => undefined);
    const fail = (reason: string) => {
      failure ??= reason;
      reader.close();
      interrupt(new Error(failure));
    };
    void output.closed.then(fail);
    // Only a write the destination has not taken yet arms the stall timer: a run that goes straight
    // into the socket (the usual case) costs no timer.
    const wait = async (pending: Promise<void>): Promise<void> => {
      const stall = setTimeout(() => fail(`the destination took no data for ${stallMs / 1000} s`), stallMs);
      try {
        await Promise.race([pending, interrupted]);
      } finally {
        clearTimeout(stall);
      }
    };
    let description = initial;
    await wait(output.describe(description));
    // The units queued when the reader wakes (a burst of ingest) go out as one run.
    const run: MediaUnit[] = [];
    // What the reader holds now: a unit, null once it closed, undefined while it waits for more.
    const queued = (): MediaUnit | null | undefined => reader.shift() ?? (reader.isClosed ? null : undefined);
    let unit: MediaUnit | null | undefined = first;
    while (unit !== null) {
      if (failure !== undefined) {
        throw new Error(failure);
      }
      const current = this.options.stream.description;
      if (current && current !== description) {
        description = current;
        await wait(output.describe(description));
      }
      if (unit === undefined) {
        // Caught up: the stream's fan-out writes this push from now on, until something needs waiting for.
        const { pending } = await this.direct(reader, output, description, run, interrupted);
        if (pending) {
          await wait(pending);
          this.lastPushedMs = Date.now();
        }
        unit = queued();
        continue;
      }
      let pending: Promise<void> | undefined;
      if (output.writeBatch) {
        run.length = 0;
        for (let next: MediaUnit | undefined = unit; next; next = reader.shift()) {
          run.push(next);
        }
        pending = output.writeBatch(run);
      } else {
        pending = output.write(unit);
      }
      if (pending) {
        await wait(pending);
      }
      this.lastPushedMs = Date.now();
      unit = output.writeBatch ? queued() : (reader.shift() ?? (await reader.next()));
    }
    if (failure !== undefined && !this.stopped && this.options.stream.endReason === undefined) {
      throw new Error(failure);
    }
  }

  /**
   * Lets the stream's fan-out write this push (one wake-up per stream for all its pushes): each
   * wake-up sends what the reader holds as one run. Resolves when the push must go on by itself:
   * with the write the socket did not take (or its error), or with nothing once the description
   * changed, the reader closed or the fan-out stopped; rejects when the connection failed.
   */
  private async direct(
    reader: QueuedReader,
    output: PushOutput,
    description: StreamDescription,
    run: MediaUnit[],
    interrupted: Promise<never>,
  ): Promise<Parked> {
    const { stream } = this.options;
    if (reader.isClosed) {
      return {};
    }
    const fanout = fanoutOf(stream);
    // The pending write travels inside an object: resolving with the promise itself would wait for it.
    let settle: (pending?: Promise<void>) => void = () => undefined;
    const parked = new Promise<Parked>((resolve) => {
      settle = (pending) => resolve(pending ? { pending } : {});
    });
    const member: FanoutMember = {
      flush: (nowMs) => {
        const current = stream.description;
        if (reader.isClosed || (current && current !== description)) {
          settle();
          return false;
        }
        run.length = 0;
        for (let next = reader.shift(); next; next = reader.shift()) {
          run.push(next);
        }
        if (run.length === 0) {
          return true;
        }
        let pending: Promise<void> | undefined;
        try {
          pending = output.writeBatch?.(run);
        } catch (error) {
          const failed = Promise.reject(error);
          failed.catch(() => undefined);
          settle(failed);
          return false;
        }
        this.lastPushedMs = nowMs;
        if (pending) {
          settle(pending);
          return false;
        }
        return true;
      },
      release: () => settle(),
    };
    fanout.join(member);
    try {
      return await Promise.race([parked, interrupted]);
    } finally {
      fanout.leave(member);
    }
  }

  private async failed(error: unknown): Promise<void> {
    this.failures++;
    const message = error instanceof Error ? error.message : String(error);
    this.lastError = withoutSecrets(message, this.secrets);
    const failAfter = this.options.failAfter ?? 3;
    this.set(this.failures >= failAfter ? 'failed' : 'retrying', true);
    const delay = retryDelayMs(this.failures - 1, this.options.retry ?? DEFAULT_RETRY_POLICY);
    this.options.log.info({ failures: this.failures, delayMs: delay, reason: this.lastError }, 'push attempt failed');
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, delay);
      this.wakeSleep = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.wakeSleep = undefined;
  }

  private retire(reader: QueuedReader): void {
    if (this.reader !== reader) {
      return;
    }
    this.droppedBefore += reader.stats.dropped;
    reader.close();
    this.reader = undefined;
  }

  private async closeOutput(): Promise<void> {
    const output = this.output;
    if (!output) {
      return;
    }
    this.output = undefined;
    this.sentBefore += output.bytesSent;
    await output.close().catch(() => undefined);
  }

  private set(status: PushSessionStatus, force = false): void {
    if (status === this.status && !force) {
      return;
    }
    this.status = status;
    this.options.onChange?.(this.state);
  }
}
