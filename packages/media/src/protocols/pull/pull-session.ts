/**
 * One pulled stream: connection attempts one after another, each through a fresh input, its
 * media published into the hub as the stream's only publisher. An attempt that ends (source gone,
 * stalled, refused) closes the publisher — the stream shows RECONNECTING, then OFFLINE once the
 * hub's reconnect window passes — and the next attempt follows after a capped, jittered,
 * exponential backoff. Every attempt's outcome is reported as an event.
 */
import type { Hub, Publisher } from '../../hub/hub.js';
import type { Logger, PublishGrant } from '../../ports.js';
import type { MediaUnit } from '../../stream/media-unit.js';
import type { StreamDescription } from '../../stream/track.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy, retryDelayMs } from '../shared/retry-delay.js';
import type { PullAddressGuard } from './address-guard.js';
import { HlsHistory } from './hls-history.js';
import type { PullEnd, PullEndKind, PullInput, PullInputFactory } from './pull-input.js';
import { classifyPullUri, isPullTarget, type PullTarget } from './pull-target.js';

/** Kinds of pull event: `connected` (media flowing) or how an attempt ended. */
export type PullEventKind = 'connected' | Exclude<PullEndKind, 'stopped'>;

/** One attempt's outcome. */
export interface PullEvent {
  readonly kind: PullEventKind;
  /** Attempt number since the session started (1-based). */
  readonly attempt: number;
  readonly message: string;
  /** The address dialled, when the attempt got that far. */
  readonly address?: string;
  readonly at: Date;
}

/** States of a pull session. */
export type PullPhase = 'CONNECTING' | 'PULLING' | 'RETRYING' | 'STOPPED';

/** What a session reports about itself. */
export interface PullState {
  readonly phase: PullPhase;
  readonly attempt: number;
  /** Consecutive failed attempts (0 while pulling). */
  readonly failures: number;
  /** When the next attempt starts (RETRYING). */
  readonly nextAttemptAt?: Date;
  /** What ended the last attempt. */
  readonly lastError?: string;
}

/** Options of a pull session. */
export interface PullSessionOptions {
  readonly hub: Hub;
  readonly grant: PublishGrant;
  readonly uri: string;
  /** Opens an attempt for a target (chooses ffmpeg, DTSC, … by kind). */
  readonly open: PullInputFactory;
  readonly guard: PullAddressGuard;
  readonly log: Logger;
  readonly retry?: RetryPolicy;
  /** An attempt without media for this long after it started is ended (default 20 s). */
  readonly connectTimeoutMs?: number;
  /** A source without a unit for this long is stalled and its attempt ended (default 10 s). */
  readonly stallMs?: number;
  /** A source that stayed connected this long starts its backoff over (default 10 s). */
  readonly healthyAfterMs?: number;
  readonly onEvent?: (event: PullEvent) => void;
  readonly onState?: (state: PullState) => void;
  readonly random?: () => number;
}

/** Most redirects followed one after another. */
export const MAX_PULL_REDIRECTS = 5;

/** A supervised pull of one source into one stream. */
export class PullSession {
  private target: PullTarget | undefined;
  private input: PullInput | undefined;
  private publisher: Publisher | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private watchdog: NodeJS.Timeout | undefined;
  private attempt = 0;
  private failures = 0;
  private redirects = 0;
  private stopped = false;
  private current: PullState = { phase: 'CONNECTING', attempt: 0, failures: 0 };
  private readonly log: Logger;
  /** What the attempts delivered from an HLS source: a later attempt does not replay it once the source ended. */
  private readonly history = new HlsHistory();

  constructor(private readonly options: PullSessionOptions) {
    this.log = options.log.child({ streamId: options.grant.streamId, pull: true });
  }

  /** The session's current state. */
  get state(): PullState {
    return this.current;
  }

  /** Starts the first attempt. */
  start(): void {
    const target = classifyPullUri(this.options.uri);
    if (!isPullTarget(target)) {
      this.emit({ kind: 'blocked_uri', attempt: 0, message: `the source URI ${target.message}`, at: new Date() });
      this.setState({ phase: 'STOPPED', attempt: 0, failures: 0, lastError: target.message });
      this.stopped = true;
      return;
    }
    this.target = target;
    this.next();
  }

  /** Stops pulling: ends the attempt and any retry; the publisher closes (the stream may reconnect). */
  stop(reason: string): void {
    if (this.stopped) {
      return;
    }
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.watchdog);
    this.input?.stop(reason);
    this.closePublisher(reason);
    this.setState({ ...this.current, phase: 'STOPPED' });
  }

  private next(): void {
    const target = this.target;
    if (this.stopped || !target) {
      return;
    }
    this.attempt++;
    const attempt = this.attempt;
    const startedAt = Date.now();
    let address: string | undefined;
    let connectedAt: number | undefined;
    let lastUnitAt = startedAt;
    this.setState({ phase: 'CONNECTING', attempt, failures: this.failures });
    const input = this.options.open({
      target,
      guard: this.options.guard,
      log: this.log,
      history: this.history,
      sink: {
        resolved: (dialled) => {
          address = dialled;
        },
        describe: (description) => {
          if (this.input !== input || !this.describe(description, input)) {
            return;
          }
          if (connectedAt === undefined) {
            connectedAt = Date.now();
            lastUnitAt = connectedAt;
            this.redirects = 0;
            this.emit({
              kind: 'connected',
              attempt,
              message: `pulling ${description.tracks.map((track) => track.codec).join(' + ')}`,
              ...(address ? { address } : {}),
              at: new Date(),
            });
            // Reported as 0 from now on; the backoff itself starts over only once the source stays up.
            this.setState({ phase: 'PULLING', attempt, failures: 0 });
          }
        },
        unit: (unit: MediaUnit) => {
          if (this.input === input && this.publisher) {
            lastUnitAt = Date.now();
            this.publisher.write(unit);
          }
        },
        watched: () => this.publisher?.stream.watched ?? true,
      },
    });
    this.input = input;
    const connectTimeoutMs = this.options.connectTimeoutMs ?? 20_000;
    const stallMs = this.options.stallMs ?? 10_000;
    clearInterval(this.watchdog);
    this.watchdog = setInterval(
      () => {
        const now = Date.now();
        if (connectedAt === undefined && now - startedAt >= connectTimeoutMs) {
          input.stop(`no media within ${Math.round(connectTimeoutMs / 1000)} s`, 'stalled');
        } else if (connectedAt !== undefined && now - lastUnitAt >= stallMs) {
          input.stop(`no media for ${Math.round(stallMs / 1000)} s`, 'stalled');
        }
      },
      Math.max(50, Math.min(1000, Math.min(connectTimeoutMs, stallMs) / 4)),
    );
    this.watchdog.unref();
    input.ended.then(
      (end) => this.ended(input, attempt, end, address, connectedAt),
      (error: unknown) => this.ended(input, attempt, { kind: 'failed', message: String(error) }, address, connectedAt),
    );
  }

  /** Publishes (on the first description) and declares the tracks; false when the hub refused. */
  private describe(description: StreamDescription, input: PullInput): boolean {
    if (!this.publisher) {
      try {
        this.publisher = this.options.hub.publish(this.options.grant, 'pull');
      } catch (error) {
        input.stop(
          `the stream cannot be published: ${error instanceof Error ? error.message : String(error)}`,
          'failed',
        );
        return false;
      }
    }
    this.publisher.setDescription(description);
    return true;
  }

  private ended(
    input: PullInput,
    attempt: number,
    end: PullEnd,
    address: string | undefined,
    connectedAt?: number,
  ): void {
    if (this.input !== input) {
      return;
    }
    clearInterval(this.watchdog);
    this.input = undefined;
    this.closePublisher(end.message);
    if (this.stopped || end.kind === 'stopped') {
      return;
    }
    this.emit({ kind: end.kind, attempt, message: end.message, ...(address ? { address } : {}), at: new Date() });
    if (end.kind === 'redirected' && end.redirectTo && this.redirects < MAX_PULL_REDIRECTS) {
      const target = classifyPullUri(end.redirectTo);
      if (isPullTarget(target) && target.kind === this.target?.kind) {
        this.redirects++;
        this.target = target;
        this.next();
        return;
      }
    }
    const healthyAfterMs = this.options.healthyAfterMs ?? 10_000;
    if (connectedAt !== undefined && Date.now() - connectedAt >= healthyAfterMs) {
      this.failures = 0;
    }
    const delay = retryDelayMs(this.failures, this.options.retry ?? DEFAULT_RETRY_POLICY, this.options.random);
    this.failures++;
    this.log.info({ attempt, kind: end.kind, reason: end.message, retryInMs: delay }, 'pull attempt ended');
    this.setState({
      phase: 'RETRYING',
      attempt,
      failures: this.failures,
      nextAttemptAt: new Date(Date.now() + delay),
      lastError: end.message,
    });
    this.retryTimer = setTimeout(() => this.next(), delay);
    this.retryTimer.unref();
  }

  private closePublisher(reason: string): void {
    const publisher = this.publisher;
    this.publisher = undefined;
    publisher?.close(reason);
  }

  private emit(event: PullEvent): void {
    try {
      this.options.onEvent?.(event);
    } catch (error) {
      this.log.error({ err: error }, 'pull event listener failed');
    }
  }

  private setState(state: PullState): void {
    this.current = state;
    try {
      this.options.onState?.(state);
    } catch (error) {
      this.log.error({ err: error }, 'pull state listener failed');
    }
  }
}
