/**
 * The server side of SRT ingest: stream keys authorized with the stream's own SRT passphrase
 * attached (the listener then requires it), and the listener's connection statistics stored on
 * the stream (last report wins) and published as `ingest.connected` / `ingest.disconnected`
 * (liveConnectionEvents). Writes of one stream run in order; periodic reports are coalesced.
 */
import type { IngestConnectionSink, IngestConnectionStats, Logger, PublishAuthorizer } from '@airwave/media';
import type { SrtStore } from '../domain/srt/srt.store.js';
import type { EventPublisher } from '../events/event-bus.js';

/** Adds the stream's SRT passphrase to grants of SRT publishes. */
export function withSrtPassphrases(authorizer: PublishAuthorizer, store: SrtStore): PublishAuthorizer {
  return {
    async authorize(streamKey, protocol) {
      const grant = await authorizer.authorize(streamKey, protocol);
      if (!grant || protocol !== 'srt') {
        return grant;
      }
      const srtPassphrase = await store.passphraseOf(grant.streamId);
      return srtPassphrase === undefined ? grant : { ...grant, srtPassphrase };
    },
  };
}

/** What the sink needs. */
export interface IngestConnectionSinkOptions {
  readonly store: SrtStore;
  readonly nodeId: string;
  readonly log: Logger;
  readonly events?: EventPublisher;
  /** The tenant of a stream (for events); undefined when it no longer exists. */
  readonly tenantOf: (streamId: string) => Promise<string | undefined>;
}

function plainStats(stats: IngestConnectionStats): Record<string, string | number | boolean> {
  return { ...stats, connectedAt: stats.connectedAt.toISOString() };
}

/** Stores and publishes SRT connection statistics. */
export class DatabaseIngestConnectionSink implements IngestConnectionSink {
  private readonly queues = new Map<string, Promise<void>>();
  private readonly pending = new Map<string, IngestConnectionStats>();

  constructor(private readonly options: IngestConnectionSinkOptions) {}

  /** A connection opened: stored and published. */
  connected(streamId: string, stats: IngestConnectionStats): void {
    this.enqueue(streamId, async () => {
      await this.write(streamId, stats, true);
      await this.publish('ingest.connected', streamId, stats);
    });
  }

  /** Periodic statistics: only the latest pending report is written. */
  updated(streamId: string, stats: IngestConnectionStats): void {
    const queued = this.pending.has(streamId);
    this.pending.set(streamId, stats);
    if (queued) {
      return;
    }
    this.enqueue(streamId, async () => {
      const latest = this.pending.get(streamId);
      this.pending.delete(streamId);
      if (latest) {
        await this.write(streamId, latest, true);
      }
    });
  }

  /** A connection closed: final statistics stored and published. */
  disconnected(streamId: string, stats: IngestConnectionStats, reason: string): void {
    this.pending.delete(streamId);
    this.enqueue(streamId, async () => {
      await this.write(streamId, stats, false);
      await this.publish('ingest.disconnected', streamId, stats, reason);
    });
  }

  /** Resolves when every queued write has finished (tests, shutdown). */
  async flush(): Promise<void> {
    while (this.queues.size > 0) {
      await Promise.all([...this.queues.values()]);
    }
  }

  private write(streamId: string, stats: IngestConnectionStats, connected: boolean): Promise<void> {
    return this.options.store.reportConnection({
      streamId,
      nodeId: this.options.nodeId,
      sessionId: stats.sessionId,
      protocol: stats.protocol,
      connected,
      stats: plainStats(stats),
      updatedAt: new Date(),
    });
  }

  private async publish(
    name: 'ingest.connected' | 'ingest.disconnected',
    streamId: string,
    stats: IngestConnectionStats,
    reason?: string,
  ): Promise<void> {
    const tenantId = await this.options.tenantOf(streamId);
    if (!tenantId || !this.options.events) {
      return;
    }
    this.options.events.publish(name, {
      tenantId,
      streamId,
      sessionId: stats.sessionId,
      protocol: 'srt',
      nodeId: this.options.nodeId,
      ...(name === 'ingest.disconnected'
        ? { sessionDurationSeconds: (Date.now() - stats.connectedAt.getTime()) / 1000 }
        : {}),
      stats: { ...plainStats(stats), ...(reason === undefined ? {} : { reason }) },
    });
  }

  private enqueue(streamId: string, write: () => Promise<void>): void {
    const previous = this.queues.get(streamId) ?? Promise.resolve();
    const next = previous
      .then(write)
      .catch((error: unknown) => this.options.log.error({ err: error, streamId }, 'could not store SRT statistics'));
    this.queues.set(streamId, next);
    void next.then(() => {
      if (this.queues.get(streamId) === next) {
        this.queues.delete(streamId);
      }
    });
  }
}
