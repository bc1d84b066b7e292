/**
 * The media plane's StreamLifecycleSink backed by the database: LIVE / RECONNECTING / OFFLINE
 * with startedAt, tracks and the reporting node, the current viewer count, and new tracks when a
 * live publisher changes its description or its key-frame interval changes (measured here,
 * `keyframe-intervals.ts`). Writes of one stream run in order; viewer counts are coalesced (only
 * the latest pending value is written).
 */
import type { LiveStatus, LiveStream, Logger, StreamDescription, StreamLifecycleSink, Track } from '@airwave/media';
import type { TrackInfo } from '../domain/streams/stream.js';
import type { StreamStatusStore } from '../domain/streams/stream-status.store.js';
import type { EventPublisher } from '../events/event-bus.js';
import { KeyframeIntervals } from './keyframe-intervals.js';

/** What the sink needs. */
export interface LifecycleSinkOptions {
  readonly store: StreamStatusStore;
  /** This node's ID, recorded as the reporter of the status. */
  readonly nodeId: string;
  readonly log: Logger;
  /** Finds a live stream of this node (Hub.getByStreamId), to follow its viewer count. */
  readonly liveStream?: (streamId: string) => LiveStream | undefined;
  /** Receives stream.live / stream.reconnecting / stream.offline after each write committed. */
  readonly events?: EventPublisher;
}

/** Converts a media track to what the API reports. */
export function trackInfoOf(track: Track): TrackInfo {
  return track.kind === 'video'
    ? {
        id: track.id,
        kind: 'video',
        codec: track.codec,
        codecString: track.codecString,
        width: track.width,
        height: track.height,
        fps: track.fps ?? null,
        bitrate: track.bitrate ?? null,
        channels: null,
        sampleRate: null,
      }
    : {
        id: track.id,
        kind: 'audio',
        codec: track.codec,
        codecString: track.codecString,
        width: null,
        height: null,
        fps: null,
        bitrate: track.bitrate ?? null,
        channels: track.channels,
        sampleRate: track.sampleRate,
      };
}

/** Persists live status reported by the hub. */
export class DatabaseLifecycleSink implements StreamLifecycleSink {
  private readonly queues = new Map<string, Promise<void>>();
  private readonly pendingViewers = new Map<string, number>();
  private readonly unsubscribers = new Map<string, () => void>();
  private readonly keyframes = new Map<string, KeyframeIntervals>();

  constructor(private readonly options: LifecycleSinkOptions) {}

  /** Records LIVE/RECONNECTING with tracks, or OFFLINE. */
  onStatus(
    streamId: string,
    status: LiveStatus,
    info: { startedAt: Date; description?: StreamDescription; reason?: string },
  ): void {
    const at = new Date();
    const { store, nodeId } = this.options;
    if (status === 'OFFLINE') {
      this.unsubscribers.get(streamId)?.();
      this.unsubscribers.delete(streamId);
      this.keyframes.delete(streamId);
      this.pendingViewers.delete(streamId);
      this.enqueue(streamId, async () => {
        const tenantId = await store.offline(streamId, nodeId, at);
        if (tenantId) {
          this.options.events?.publish('stream.offline', { tenantId, streamId, nodeId, ...reasonOf(info) });
        }
      });
      return;
    }
    const described = (info.description?.tracks ?? []).map(trackInfoOf);
    const tracks = this.keyframes.get(streamId)?.annotate(described) ?? described;
    this.enqueue(streamId, async () => {
      const tenantId = await store.report(streamId, { status, nodeId, startedAt: info.startedAt, tracks, at });
      if (tenantId) {
        this.options.events?.publish(status === 'LIVE' ? 'stream.live' : 'stream.reconnecting', {
          tenantId,
          streamId,
          nodeId,
          ...reasonOf(info),
          details: { startedAt: info.startedAt.toISOString(), tracks },
        });
      }
    });
    this.follow(streamId, described);
  }

  /** Records the current viewer count (coalesced). */
  onMetrics(streamId: string, metrics: { currentViewers: number; egressBytes: number }): void {
    const queued = this.pendingViewers.has(streamId);
    this.pendingViewers.set(streamId, metrics.currentViewers);
    if (queued) {
      return;
    }
    this.enqueue(streamId, async () => {
      const count = this.pendingViewers.get(streamId);
      this.pendingViewers.delete(streamId);
      if (count !== undefined) {
        await this.options.store.viewers(streamId, this.options.nodeId, count, new Date());
      }
    });
  }

  /** Resolves when every write queued so far has finished (tests, shutdown). */
  async flush(): Promise<void> {
    while (this.queues.size > 0) {
      await Promise.all([...this.queues.values()]);
    }
  }

  /** Stops following viewer counts. */
  close(): void {
    for (const unsubscribe of this.unsubscribers.values()) {
      unsubscribe();
    }
    this.unsubscribers.clear();
  }

  /** Follows viewer counts and description changes of a live stream of this node. */
  private follow(streamId: string, reported: readonly TrackInfo[]): void {
    if (this.unsubscribers.has(streamId)) {
      return;
    }
    const stream = this.options.liveStream?.(streamId);
    if (!stream) {
      return;
    }
    const report = () => this.onMetrics(streamId, { currentViewers: stream.viewers.count, egressBytes: 0 });
    const unsubscribe = stream.viewers.subscribe(report);
    const keyframes = new KeyframeIntervals();
    keyframes.describe(stream.description?.tracks ?? []);
    this.keyframes.set(streamId, keyframes);
    let last = JSON.stringify(reported);
    const write = (tracks: TrackInfo[]) =>
      this.enqueue(streamId, () => this.options.store.tracks(streamId, this.options.nodeId, tracks, new Date()));
    const detach = stream.attach(
      {
        onDescription: (description) => {
          keyframes.describe(description.tracks);
          const tracks = description.tracks.map(trackInfoOf);
          const text = JSON.stringify(tracks);
          if (text !== last) {
            last = text;
            write(keyframes.annotate(tracks));
          }
        },
        onUnit: (unit) => {
          if (keyframes.observe(unit)) {
            // Fresh fps and bitrate too: the description's tracks are measured while live.
            write(keyframes.annotate((stream.description?.tracks ?? []).map(trackInfoOf)));
          }
        },
      },
      false,
    );
    this.unsubscribers.set(streamId, () => {
      unsubscribe();
      detach();
    });
    if (stream.viewers.count > 0) {
      report();
    }
  }

  private enqueue(streamId: string, write: () => Promise<void>): void {
    const previous = this.queues.get(streamId) ?? Promise.resolve();
    const next = previous
      .then(write)
      .catch((error: unknown) => this.options.log.error({ err: error, streamId }, 'could not persist stream status'));
    this.queues.set(streamId, next);
    void next.then(() => {
      if (this.queues.get(streamId) === next) {
        this.queues.delete(streamId);
      }
    });
  }
}

function reasonOf(info: { reason?: string }): { reason?: string } {
  return info.reason === undefined ? {} : { reason: info.reason };
}
