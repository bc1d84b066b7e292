/**
 * Runs the push targets of the streams that are live on this node: one media-plane PushSession
 * per enabled target while its stream lives (a publisher reconnecting inside the window keeps it),
 * re-read when the API changes a stream's targets, on this node or (through the bus) another one,
 * and every `resyncMs` as a safety net for a missed event. Status changes are written at once; bytes, bitrate and drops of every push
 * together, in one statement, every `flushMs`. The timers run only while there is work for them (the
 * bitrate tick and the flush while a push runs, the re-read while a stream is live), so a node
 * without pushes takes no wake-up for them (ADR 0085).
 * Streams relayed from another node are pushed by their origin, not here.
 */
import type { Hub, LiveStream, Logger } from '@airwave/media';
import { PushSession, type PushSessionState } from '@airwave/media/protocols/push/push-session';
import type { DestinationResolver, PushConnector } from '@airwave/media/protocols/shared/push-output';
import type { RetryPolicy } from '@airwave/media/protocols/shared/retry-delay';
import type { PushStateReport } from '../domain/push-targets/push-target.js';
import type { PushTargetsService } from '../domain/push-targets/push-targets.service.js';

/** Options of the runner. */
export interface PushRunnerOptions {
  readonly hub: Hub;
  readonly targets: PushTargetsService;
  readonly nodeId: string;
  /** Opens a connection for a target URI (by scheme). */
  readonly connect: PushConnector;
  /** The private-range guard, asked at every connect. */
  readonly resolve: DestinationResolver;
  readonly log: Logger;
  readonly retry?: RetryPolicy;
  /** Streams relayed here from their origin (not pushed here). */
  readonly isRelayed?: (streamId: string) => boolean;
  /** How often counters are written (default 5 s). */
  readonly flushMs?: number;
  /** How often live streams' targets are re-read (default 10 s). */
  readonly resyncMs?: number;
}

interface Running {
  readonly streamId: string;
  readonly uri: string;
  readonly session: PushSession;
  lastBytes: number;
  lastAt: number;
  bitrateBps: number;
}

const BITRATE_TICK_MS = 1000;

/** The pushes of this node. */
export class PushRunner {
  private readonly streams = new Map<string, LiveStream>();
  private readonly running = new Map<string, Running>();
  /** The pending sync of each stream (syncs of one stream run one after the other). */
  private readonly syncs = new Map<string, Promise<void>>();
  /** The last pending write of each target (writes of one target stay in order). */
  private readonly writes = new Map<string, Promise<void>>();
  /** The bitrate tick and the counters' flush, while a push runs. */
  private counterTimers: NodeJS.Timeout[] = [];
  /** The periodic re-read, while a stream is live. */
  private resyncTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly options: PushRunnerOptions) {}

  /** Attaches to the hub (every stream opened from now on); the timers start with the first stream and push. */
  async start(): Promise<void> {
    await this.options.targets.resetNode(this.options.nodeId);
    this.options.hub.addOutput((stream) => {
      this.streams.set(stream.streamId, stream);
      this.startResync();
      this.changed(stream.streamId);
      return { close: () => this.ended(stream) };
    });
  }

  /** A stream's targets changed (created, updated, deleted): re-read them when it is live here. */
  changed(streamId: string): void {
    if (!this.streams.has(streamId) || this.closed) {
      return;
    }
    const previous = this.syncs.get(streamId) ?? Promise.resolve();
    const next = previous
      .then(() => this.sync(streamId))
      .catch((error: unknown) => {
        this.options.log.error({ err: error, streamId }, 'push targets could not be read');
      });
    this.syncs.set(streamId, next);
    next.finally(() => {
      if (this.syncs.get(streamId) === next) {
        this.syncs.delete(streamId);
      }
    });
  }

  /** Live state of a target pushed here (fresher than the last written report). */
  live(targetId: string): PushStateReport | undefined {
    const running = this.running.get(targetId);
    return running ? this.reportOf(running.session.state, running.bitrateBps) : undefined;
  }

  /** Number of pushes running here. */
  get size(): number {
    return this.running.size;
  }

  /** Stops every push and the timers. */
  async close(): Promise<void> {
    this.closed = true;
    this.stopCounters();
    clearInterval(this.resyncTimer);
    this.resyncTimer = undefined;
    await Promise.all([...this.running.keys()].map((id) => this.stopTarget(id)));
    await Promise.all([...this.writes.values()]);
  }

  private async sync(streamId: string): Promise<void> {
    const stream = this.streams.get(streamId);
    const relayed = this.options.isRelayed?.(streamId) ?? false;
    const wanted = new Map<string, string>();
    if (stream && !relayed && !this.closed) {
      for (const target of await this.options.targets.secretsForStream(streamId)) {
        wanted.set(target.id, target.targetUri);
      }
    }
    for (const [id, running] of this.running) {
      if (running.streamId === streamId && wanted.get(id) !== running.uri) {
        await this.stopTarget(id);
      }
    }
    const live = this.streams.get(streamId);
    if (!live || live.endReason !== undefined || this.closed) {
      return;
    }
    for (const [id, uri] of wanted) {
      if (!this.running.has(id)) {
        this.startTarget(live, id, uri);
      }
    }
  }

  private startTarget(stream: LiveStream, id: string, uri: string): void {
    const log = this.options.log.child({ pushTargetId: id, streamId: stream.streamId });
    const session = new PushSession({
      stream,
      uri,
      connect: this.options.connect,
      resolve: this.options.resolve,
      log,
      ...(this.options.retry ? { retry: this.options.retry } : {}),
      onChange: (state) => {
        log.info({ status: state.status, lastError: state.lastError }, 'push status');
        const running = this.running.get(id);
        this.write(id, this.reportOf(state, state.status === 'pushing' ? (running?.bitrateBps ?? 0) : 0));
      },
    });
    this.running.set(id, { streamId: stream.streamId, uri, session, lastBytes: 0, lastAt: Date.now(), bitrateBps: 0 });
    this.startCounters();
  }

  private async stopTarget(id: string): Promise<void> {
    const running = this.running.get(id);
    if (!running) {
      return;
    }
    this.running.delete(id);
    if (this.running.size === 0) {
      this.stopCounters();
    }
    await running.session.stop();
    this.write(id, this.reportOf(running.session.state, 0));
  }

  private ended(stream: LiveStream): void {
    if (this.streams.get(stream.streamId) !== stream) {
      return;
    }
    this.streams.delete(stream.streamId);
    if (this.streams.size === 0) {
      clearInterval(this.resyncTimer);
      this.resyncTimer = undefined;
    }
    for (const [id, running] of this.running) {
      if (running.streamId === stream.streamId) {
        void this.stopTarget(id);
      }
    }
  }

  /** Starts the re-read of live streams' targets unless it runs. */
  private startResync(): void {
    if (this.resyncTimer || this.closed) {
      return;
    }
    this.resyncTimer = setInterval(() => {
      for (const streamId of this.streams.keys()) {
        this.changed(streamId);
      }
    }, this.options.resyncMs ?? 10_000);
    this.resyncTimer.unref();
  }

  /** Starts the bitrate tick and the counters' flush unless they run. */
  private startCounters(): void {
    if (this.counterTimers.length > 0 || this.closed) {
      return;
    }
    this.counterTimers = [
      setInterval(() => this.measure(), BITRATE_TICK_MS),
      setInterval(() => this.flush(), this.options.flushMs ?? 5000),
    ];
    for (const timer of this.counterTimers) {
      timer.unref();
    }
  }

  /** Stops the bitrate tick and the flush (the last push's stop writes its final counters). */
  private stopCounters(): void {
    for (const timer of this.counterTimers) {
      clearInterval(timer);
    }
    this.counterTimers = [];
  }

  private measure(): void {
    const now = Date.now();
    for (const running of this.running.values()) {
      const bytes = running.session.state.bytesSent;
      const seconds = (now - running.lastAt) / 1000;
      if (seconds > 0) {
        const sample = Math.max(0, ((bytes - running.lastBytes) * 8) / seconds);
        running.bitrateBps =
          running.session.state.status === 'pushing' ? Math.round(0.5 * running.bitrateBps + 0.5 * sample) : 0;
      }
      running.lastBytes = bytes;
      running.lastAt = now;
    }
  }

  private flush(): void {
    const reports = [...this.running].map(([id, running]) => {
      const { lastPushedAt, bytesSent, droppedUnits } = running.session.state;
      return { id, lastPushedAt, bytesSent, bitrateBps: running.bitrateBps, droppedUnits };
    });
    this.options.targets
      .reportCounters(this.options.nodeId, reports)
      .catch((error: unknown) => this.options.log.warn({ err: error }, 'push counters not recorded'));
  }

  private reportOf(state: PushSessionState, bitrateBps: number): PushStateReport {
    return {
      status: state.status,
      lastError: state.lastError,
      lastPushedAt: state.lastPushedAt,
      bytesSent: state.bytesSent,
      bitrateBps,
      droppedUnits: state.droppedUnits,
    };
  }

  private write(id: string, report: PushStateReport): void {
    const previous = this.writes.get(id) ?? Promise.resolve();
    const next = previous
      .then(() => this.options.targets.report(id, this.options.nodeId, report))
      .catch((error: unknown) => this.options.log.warn({ err: error, pushTargetId: id }, 'push state not recorded'));
    this.writes.set(id, next);
    next.finally(() => {
      if (this.writes.get(id) === next) {
        this.writes.delete(id);
      }
    });
  }
}
