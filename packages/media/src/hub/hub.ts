/**
 * The registry of live streams on this node. A publish claims a stream; when the publisher
 * drops, the stream waits `reconnectWindowMs` for it (RECONNECTING) before it ends (OFFLINE).
 * Outputs (packagers, recorders) are attached to every stream when it opens.
 */
import { ProtocolError } from '../errors.js';
import type { IngestProtocol, LiveStatus, Logger, PublishGrant, StreamLifecycleSink } from '../ports.js';
import type { MediaUnit } from '../stream/media-unit.js';
import type { StreamDescription } from '../stream/track.js';
import { LiveStream } from './live-stream.js';

/** Something attached to every live stream while it lives (a packager, a recorder). */
export interface StreamOutput {
  /** Releases what the output holds; called when the stream ends. */
  close(): void;
}

/** Builds an output for a newly opened stream. */
export type OutputFactory = (stream: LiveStream) => StreamOutput;

/** Options of a hub. */
export interface HubOptions {
  readonly log: Logger;
  readonly lifecycle?: StreamLifecycleSink;
  /** How long a dropped publisher may return and continue the session (default 30 s). */
  readonly reconnectWindowMs?: number;
  /** Request-based viewer sessions expire after this long without a request (default 30 s). */
  readonly viewerIdleMs?: number;
  /** Wall clock stamped on the units streams keep in their history (default Date.now; tests). */
  readonly now?: () => number;
}

/** Thrown when a stream already has an active publisher. */
export class AlreadyPublishingError extends ProtocolError {
  constructor(streamId: string) {
    super(`stream ${streamId} already has an active publisher`);
  }
}

/** The handle a publisher holds: write units, then close. */
export interface Publisher {
  readonly stream: LiveStream;
  readonly resumed: boolean;
  setDescription(description: StreamDescription): void;
  write(unit: MediaUnit): void;
  /** The publisher left; `clean` means it unpublished on purpose (still reconnectable). */
  close(reason: string): void;
}

interface Entry {
  stream: LiveStream;
  outputs: StreamOutput[];
  publisher: object | undefined;
  timer: NodeJS.Timeout | undefined;
  /** The status last reported to the lifecycle sink. */
  status: LiveStatus | undefined;
}

/** All live streams of this node. */
export class Hub {
  private readonly entries = new Map<string, Entry>();
  private readonly byPlayback = new Map<string, Entry>();
  private readonly outputFactories: OutputFactory[] = [];
  private readonly reconnectWindowMs: number;

  constructor(private readonly options: HubOptions) {
    this.reconnectWindowMs = options.reconnectWindowMs ?? 30_000;
  }

  /** Registers an output attached to every stream opened from now on. */
  addOutput(factory: OutputFactory): void {
    this.outputFactories.push(factory);
  }

  /** The live (or reconnecting) stream with this playback id. */
  getByPlaybackId(playbackId: string): LiveStream | undefined {
    return this.byPlayback.get(playbackId)?.stream;
  }

  /** The live (or reconnecting) stream with this stream UUID. */
  getByStreamId(streamId: string): LiveStream | undefined {
    return this.entries.get(streamId)?.stream;
  }

  /** Every stream on this node. */
  streams(): LiveStream[] {
    return [...this.entries.values()].map((entry) => entry.stream);
  }

  /** Claims a stream for a publisher; resumes it when inside the reconnect window. */
  publish(grant: PublishGrant, protocol: IngestProtocol): Publisher {
    let entry = this.entries.get(grant.streamId);
    let resumed = false;
    if (entry?.publisher) {
      throw new AlreadyPublishingError(grant.streamId);
    }
    if (entry) {
      clearTimeout(entry.timer);
      entry.timer = undefined;
      entry.stream.resume();
      resumed = true;
    } else {
      const stream = new LiveStream(
        grant.streamId,
        grant.playbackId,
        this.options.log.child({ streamId: grant.streamId }),
        this.options.viewerIdleMs,
        this.options.now,
      );
      entry = { stream, outputs: [], publisher: undefined, timer: undefined, status: undefined };
      this.entries.set(grant.streamId, entry);
      this.byPlayback.set(grant.playbackId, entry);
      for (const factory of this.outputFactories) {
        entry.outputs.push(factory(stream));
      }
    }
    const owner = {};
    entry.publisher = owner;
    const current = entry;
    const stream = current.stream;
    this.options.log.info({ streamId: grant.streamId, protocol, resumed }, 'publisher started');
    const publisher: Publisher = {
      stream,
      resumed,
      setDescription: (description) => {
        if (current.publisher === owner) {
          stream.setDescription(description);
          this.notify(current, 'LIVE');
        }
      },
      write: (unit) => {
        if (current.publisher === owner) {
          stream.write(unit);
        }
      },
      close: (reason) => {
        if (current.publisher !== owner) {
          return;
        }
        current.publisher = undefined;
        this.options.log.info({ streamId: grant.streamId, reason }, 'publisher stopped');
        if (this.reconnectWindowMs <= 0) {
          this.finish(current, reason);
          return;
        }
        stream.interrupt();
        this.notify(current, 'RECONNECTING', reason);
        current.timer = setTimeout(
          () => this.finish(current, `${reason}; reconnect window elapsed`),
          this.reconnectWindowMs,
        );
        current.timer.unref();
      },
    };
    if (resumed && stream.description) {
      this.notify(current, 'LIVE');
    }
    return publisher;
  }

  /** Ends a stream at once (deleted stream, shutdown). */
  stop(streamId: string, reason: string): void {
    const entry = this.entries.get(streamId);
    if (entry) {
      this.finish(entry, reason);
    }
  }

  /** Ends every stream (shutdown). */
  close(reason = 'server shutting down'): void {
    for (const entry of [...this.entries.values()]) {
      this.finish(entry, reason);
    }
  }

  private finish(entry: Entry, reason: string): void {
    clearTimeout(entry.timer);
    entry.timer = undefined;
    entry.publisher = undefined;
    const stream = entry.stream;
    if (this.entries.get(stream.streamId) !== entry) {
      return;
    }
    this.entries.delete(stream.streamId);
    this.byPlayback.delete(stream.playbackId);
    stream.end(reason);
    for (const output of entry.outputs) {
      try {
        output.close();
      } catch (error) {
        this.options.log.error({ err: error, streamId: stream.streamId }, 'output failed to close');
      }
    }
    this.notify(entry, 'OFFLINE', reason);
  }

  private notify(entry: Entry, status: LiveStatus, reason?: string): void {
    if (entry.status === status) {
      return;
    }
    entry.status = status;
    const stream = entry.stream;
    try {
      this.options.lifecycle?.onStatus(stream.streamId, status, {
        startedAt: stream.startedAt,
        ...(stream.description ? { description: stream.description } : {}),
        ...(reason ? { reason } : {}),
      });
    } catch (error) {
      this.options.log.error({ err: error, streamId: stream.streamId }, 'lifecycle sink failed');
    }
  }
}
