/**
 * The only ways the media plane talks outward. The server implements these with its domain
 * services (stream keys, stream status, playback policies); tests implement them directly.
 */
import type { StreamDescription } from './stream/track.js';

/** Minimal structured logger (pino-compatible). */
export interface Logger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  child(bindings: object): Logger;
}

/** What an accepted publish is bound to. */
export interface PublishGrant {
  /** Stream UUID (Stream.streamId). */
  readonly streamId: string;
  /** Public playback id used in /play URLs. */
  readonly playbackId: string;
  /** SRT only: the stream's own passphrase (overrides the node's), when it has one. */
  readonly srtPassphrase?: string | undefined;
}

/** Ingest protocols the media plane accepts. */
export type IngestProtocol = 'rtmp' | 'rtmps' | 'srt' | 'whip' | 'pull' | 'relay';

/** Decides whether a stream key may publish. */
export interface PublishAuthorizer {
  /** Resolves a stream key to its stream, or null when the key is unknown or inactive. */
  authorize(streamKey: string, protocol: IngestProtocol): Promise<PublishGrant | null>;
}

/** Lifecycle status of a live stream as the media plane sees it. */
export type LiveStatus = 'LIVE' | 'RECONNECTING' | 'OFFLINE';

/** Receives lifecycle changes of live streams (the server persists them and emits events). */
export interface StreamLifecycleSink {
  /** A publisher started (or resumed inside the reconnect window). */
  onStatus(
    streamId: string,
    status: LiveStatus,
    info: { startedAt: Date; description?: StreamDescription; reason?: string },
  ): void;
  /** Viewer count or track statistics changed. */
  onMetrics?(streamId: string, metrics: { currentViewers: number; egressBytes: number }): void;
}

/** A no-op logger for tests and tools. */
export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  child() {
    return silentLogger;
  },
};

/** Statistics of one SRT ingest connection, as reported while it lives and when it ends. */
export interface IngestConnectionStats {
  /** Connection id (unique on this node). */
  readonly sessionId: string;
  readonly protocol: IngestProtocol;
  /** The publisher's address and port. */
  readonly remote: string;
  readonly connectedAt: Date;
  readonly packetsReceived: number;
  /** Packets found missing (before retransmission). */
  readonly packetsLost: number;
  readonly packetsRetransmitted: number;
  /** Packets given up at their delivery time (too late). */
  readonly packetsDropped: number;
  readonly bytesReceived: number;
  readonly rttMs: number;
  readonly bitrateBps: number;
  /** Packets waiting in the receive buffer. */
  readonly receiveBufferPackets: number;
  /** Negotiated latency. */
  readonly latencyMs: number;
  readonly encrypted: boolean;
}

/** Receives ingest connection statistics (the server stores them on the stream's metrics and emits events). */
export interface IngestConnectionSink {
  connected(streamId: string, stats: IngestConnectionStats): void;
  /** Periodic statistics while connected. */
  updated(streamId: string, stats: IngestConnectionStats): void;
  disconnected(streamId: string, stats: IngestConnectionStats, reason: string): void;
}
