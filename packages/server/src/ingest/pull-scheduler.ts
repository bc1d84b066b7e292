/**
 * Decides which PULL streams this node pulls and runs one media-plane PullSession for each:
 * always-on sources while enabled, on-demand sources from the first viewer until nobody watched
 * for `idleMs`. A pull is held under a lease in the database (another node takes it once the lease
 * lapses); private sources are pulled only by nodes that allow them. Every attempt's outcome is
 * recorded as a pull-source event and the session's state as the stream's pull status.
 */
import type { Hub, Logger } from '@airwave/media';
import type { PullAddressGuard } from '@airwave/media/protocols/pull/address-guard';
import type { PullInputFactory } from '@airwave/media/protocols/pull/pull-input';
import { type PullEvent, PullSession, type PullState } from '@airwave/media/protocols/pull/pull-session';
import type { RetryPolicy } from '@airwave/media/protocols/shared/retry-delay';
import type { PullCandidate } from '../domain/pull-sources/pull-source.js';
import type { PullSourcesStore } from '../domain/pull-sources/pull-sources.store.js';

/** Options of the scheduler. */
export interface PullSchedulerOptions {
  readonly store: PullSourcesStore;
  readonly hub: Hub;
  readonly nodeId: string;
  /** This node pulls private sources (AIRWAVE_ALLOW_PRIVATE_PULL_SOURCES). */
  readonly allowPrivate: boolean;
  readonly guard: PullAddressGuard;
  readonly open: PullInputFactory;
  readonly log: Logger;
  /** Most pulls this node runs at once. */
  readonly maxPulls: number;
  readonly retry?: RetryPolicy;
  readonly stallMs?: number;
  readonly connectTimeoutMs?: number;
  /** How often the database is read for changes and leases renewed (default 5 s). */
  readonly syncIntervalMs?: number;
  /** How long a lease lasts without renewal (default 30 s). */
  readonly leaseMs?: number;
  /** An on-demand pull nobody watched this long stops (default 60 s). */
  readonly idleMs?: number;
}

interface Running {
  readonly candidate: PullCandidate;
  readonly session: PullSession;
  lastWatchedAt: number;
}

/** Most time a viewer's first request waits for an on-demand pull to deliver tracks. */
export const WAKE_WAIT_MS = 10_000;
/** How long a playback ID found not to be a pullable stream is not looked up again. */
export const WAKE_MISS_TTL_MS = 5_000;
/** Most playback IDs remembered as misses (requests for unknown IDs cannot grow it further). */
const WAKE_MISSES_KEPT = 10_000;

/** The pulls of this node. */
export class PullScheduler {
  private readonly running = new Map<string, Running>();
  /** The last pending state or event write of each stream (writes of one stream stay in order). */
  private readonly writes = new Map<string, Promise<unknown>>();
  /** Playback IDs recently found not pullable here, with when that expires (bounds lookups of unknown IDs). */
  private readonly misses = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private syncing: Promise<void> | undefined;
  private again = false;
  private closed = false;

  constructor(private readonly options: PullSchedulerOptions) {}

  /** Pulls what this node should, now and every sync interval. */
  start(): void {
    this.timer = setInterval(() => this.sync(), this.options.syncIntervalMs ?? 5_000);
    this.timer.unref();
    this.sync();
  }

  /** Number of pulls running here. */
  get size(): number {
    return this.running.size;
  }

  /** A stream's pull source changed (created, enabled, disabled, new URI): re-read soon. */
  changed(_streamId: string): void {
    this.misses.clear();
    this.sync();
  }

  /** A stream was deleted: stop pulling it at once. */
  forget(streamId: string): void {
    const entry = this.running.get(streamId);
    if (entry) {
      this.running.delete(streamId);
      entry.session.stop('stream deleted');
    }
  }

  /**
   * A viewer asked for `playbackId`: when it is an enabled PULL stream not pulled here yet, pull
   * it (if its lease is free) and wait until its tracks are known. True when the stream is live.
   */
  async wake(playbackId: string): Promise<boolean> {
    if (this.closed) {
      return false;
    }
    const { hub } = this.options;
    if (!hub.getByPlaybackId(playbackId)?.description) {
      if ((this.misses.get(playbackId) ?? 0) > Date.now()) {
        return false;
      }
      const candidate = await this.options.store.candidateByPlaybackId(playbackId);
      if (!candidate?.enabled || !this.allowed(candidate)) {
        this.missed(playbackId);
        return false;
      }
      if (!this.running.has(candidate.streamId) && !(await this.begin(candidate))) {
        return false;
      }
    }
    const deadline = Date.now() + WAKE_WAIT_MS;
    while (!hub.getByPlaybackId(playbackId)?.description && Date.now() < deadline && !this.closed) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const live = hub.getByPlaybackId(playbackId);
    const entry = live ? this.running.get(live.streamId) : undefined;
    if (entry) {
      entry.lastWatchedAt = Date.now();
    }
    return live?.description !== undefined;
  }

  private missed(playbackId: string): void {
    if (this.misses.size >= WAKE_MISSES_KEPT) {
      const now = Date.now();
      for (const [id, until] of this.misses) {
        if (until <= now) {
          this.misses.delete(id);
        }
      }
      if (this.misses.size >= WAKE_MISSES_KEPT) {
        this.misses.delete(this.misses.keys().next().value as string);
      }
    }
    this.misses.set(playbackId, Date.now() + WAKE_MISS_TTL_MS);
  }

  /** Stops every pull and gives their leases up. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.syncing;
    const at = new Date();
    await Promise.all(
      [...this.running.entries()].map(async ([streamId, entry]) => {
        entry.session.stop('server shutting down');
        await this.settled(streamId);
        await this.options.store.release(streamId, this.options.nodeId, at).catch(() => undefined);
      }),
    );
    this.running.clear();
  }

  private allowed(candidate: PullCandidate): boolean {
    return candidate.sourceClass === 'public' || this.options.allowPrivate;
  }

  /** Runs one sync now, or once more after the current one. */
  private sync(): void {
    if (this.closed) {
      return;
    }
    if (this.syncing) {
      this.again = true;
      return;
    }
    this.syncing = this.syncOnce()
      .catch((error: unknown) => this.options.log.error({ err: error }, 'pull sync failed'))
      .finally(() => {
        this.syncing = undefined;
        if (this.again) {
          this.again = false;
          this.sync();
        }
      });
  }

  private async syncOnce(): Promise<void> {
    const { store, nodeId, hub } = this.options;
    const candidates = new Map((await store.candidates()).map((candidate) => [candidate.streamId, candidate]));
    const now = Date.now();
    for (const [streamId, entry] of [...this.running]) {
      const candidate = candidates.get(streamId);
      const live = hub.getByStreamId(streamId);
      if (live?.watched) {
        entry.lastWatchedAt = now;
      }
      if (!candidate) {
        await this.end(streamId, entry, 'disabled', 'pulling stopped: the source was disabled');
      } else if (candidate.sourceUri !== entry.candidate.sourceUri || !this.allowed(candidate)) {
        await this.end(streamId, entry, undefined, 'the source changed');
      } else if (candidate.onDemand && now - entry.lastWatchedAt > (this.options.idleMs ?? 60_000)) {
        await this.end(streamId, entry, undefined, 'nobody watched the on-demand source');
      }
    }
    if (this.running.size > 0) {
      const leaseUntil = new Date(Date.now() + (this.options.leaseMs ?? 30_000));
      const held = await store.renew(nodeId, [...this.running.keys()], leaseUntil);
      for (const [streamId, entry] of [...this.running]) {
        if (!held.has(streamId)) {
          await this.end(streamId, entry, undefined, 'another node took the pull over');
        }
      }
    }
    for (const candidate of candidates.values()) {
      if (!candidate.onDemand && !this.running.has(candidate.streamId) && this.allowed(candidate)) {
        await this.begin(candidate);
      }
    }
  }

  /** Claims and starts a pull; false when another node holds it or this node is full. */
  private async begin(candidate: PullCandidate): Promise<boolean> {
    const { store, nodeId, hub, log } = this.options;
    if (this.closed || this.running.has(candidate.streamId)) {
      return this.running.has(candidate.streamId);
    }
    if (this.running.size >= this.options.maxPulls) {
      log.warn(
        { streamId: candidate.streamId, maxPulls: this.options.maxPulls },
        'pull not started: node is at its pull limit',
      );
      return false;
    }
    const now = new Date();
    if (
      !(await store.claim(candidate.streamId, nodeId, new Date(now.getTime() + (this.options.leaseMs ?? 30_000)), now))
    ) {
      return false;
    }
    if (this.running.has(candidate.streamId) || this.closed) {
      return this.running.has(candidate.streamId);
    }
    const session = new PullSession({
      hub,
      grant: { streamId: candidate.streamId, playbackId: candidate.playbackId },
      uri: candidate.sourceUri,
      open: this.options.open,
      guard: this.options.guard,
      log,
      ...(this.options.retry ? { retry: this.options.retry } : {}),
      ...(this.options.stallMs ? { stallMs: this.options.stallMs } : {}),
      ...(this.options.connectTimeoutMs ? { connectTimeoutMs: this.options.connectTimeoutMs } : {}),
      onEvent: (event) => this.record(candidate, event),
      onState: (state) => this.report(candidate.streamId, state),
    });
    const entry: Running = { candidate, session, lastWatchedAt: Date.now() };
    this.running.set(candidate.streamId, entry);
    session.start();
    return true;
  }

  /** Stops a pull: the stream goes OFFLINE at once, the lease is given up, an event says why. */
  private async end(streamId: string, entry: Running, kind: 'disabled' | undefined, reason: string): Promise<void> {
    this.running.delete(streamId);
    if (kind) {
      this.record(entry.candidate, { kind, attempt: entry.session.state.attempt, message: reason, at: new Date() });
    }
    entry.session.stop(reason);
    this.options.hub.stop(streamId, reason);
    await this.settled(streamId);
    await this.options.store.release(streamId, this.options.nodeId, new Date());
  }

  /** Runs a write of a stream after the ones already queued for it. */
  private queue(streamId: string, write: () => Promise<unknown>): void {
    const next = (this.writes.get(streamId) ?? Promise.resolve()).then(write);
    this.writes.set(streamId, next);
    void next.then(() => {
      if (this.writes.get(streamId) === next) {
        this.writes.delete(streamId);
      }
    });
  }

  /** Resolves once the writes queued for a stream are done. */
  private async settled(streamId: string): Promise<void> {
    await this.writes.get(streamId);
  }

  private record(
    candidate: PullCandidate,
    event: PullEvent | { kind: 'disabled'; attempt: number; message: string; at: Date },
  ): void {
    this.queue(candidate.streamId, () =>
      this.options.store
        .recordEvent({
          streamId: candidate.streamId,
          tenantId: candidate.tenantId,
          nodeId: this.options.nodeId,
          eventKind: event.kind,
          attempt: event.attempt,
          message: event.message,
          address: 'address' in event ? (event.address ?? null) : null,
          at: event.at,
        })
        .catch((error: unknown) =>
          this.options.log.warn({ err: error, streamId: candidate.streamId }, 'pull event not recorded'),
        ),
    );
  }

  private report(streamId: string, state: PullState): void {
    this.queue(streamId, () =>
      this.options.store
        .report(streamId, this.options.nodeId, {
          phase: state.phase,
          attempt: state.attempt,
          failures: state.failures,
          nextAttemptAt: state.nextAttemptAt ?? null,
          lastError: state.lastError ?? null,
          at: new Date(),
        })
        .catch((error: unknown) => this.options.log.warn({ err: error, streamId }, 'pull state not recorded')),
    );
  }
}
