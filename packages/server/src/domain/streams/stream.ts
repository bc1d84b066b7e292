/**
 * The stream and stream-key records services return, and the inputs they accept.
 */
import type { PullStatusRecord } from '../pull-sources/pull-source.js';

/** Live status of a stream (DESIGN §5). */
export type StreamStatus = 'OFFLINE' | 'LIVE' | 'RECORDING' | 'ENDED' | 'RECONNECTING';

/** How media reaches the stream: an encoder pushes, or the service pulls a source. */
export type IngestMode = 'PUSH' | 'PULL';

/** One track of a live stream as last reported by the media plane. */
export interface TrackInfo {
  readonly id: number;
  readonly kind: 'video' | 'audio';
  readonly codec: string;
  readonly codecString: string;
  readonly width: number | null;
  readonly height: number | null;
  readonly fps: number | null;
  readonly bitrate: number | null;
  readonly channels: number | null;
  readonly sampleRate: number | null;
  /** Video: milliseconds between the last two key frames received (absent until two were seen). */
  readonly keyframeIntervalMs?: number;
}

/** The pull source of a PULL stream, as stored (URI secret: shown redacted only). */
export interface PullSourceRecord {
  readonly sourceUri: string;
  readonly sourceUriRedacted: string;
  readonly enabled: boolean;
  readonly class: 'public' | 'private';
  /** Pulled only while viewers watch (else always, while enabled). */
  readonly onDemand: boolean;
}

/** Live metrics of a stream. */
export interface StreamMetricsRecord {
  readonly status: StreamStatus;
  readonly isLive: boolean;
  readonly currentViewers: number;
  readonly startedAt: Date | null;
  readonly updatedAt: Date | null;
  /** Node that reported the status last. */
  readonly nodeId: string | null;
  /** The pull's state (PULL streams a node has pulled). */
  readonly pull: PullStatusRecord | null;
}

/** A stream as services return it (always within its tenant). */
export interface StreamRecord {
  readonly id: string;
  readonly tenantId: string;
  readonly name: string;
  readonly description: string | null;
  /** Value of the primary stream key. */
  readonly streamKey: string;
  readonly playbackId: string;
  readonly record: boolean;
  readonly ingestMode: IngestMode;
  readonly pullSource: PullSourceRecord | null;
  readonly sourceLocation: string | null;
  readonly metrics: StreamMetricsRecord;
  readonly tracks: readonly TrackInfo[];
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** A stream key as services return it. */
export interface StreamKeyRecord {
  readonly id: string;
  readonly tenantId: string;
  readonly streamId: string;
  readonly keyValue: string;
  readonly keyName: string;
  readonly isActive: boolean;
  readonly isPrimary: boolean;
  readonly lastUsedAt: Date | null;
  readonly createdAt: Date;
}

/** Pull source input. */
export interface PullSourceInput {
  readonly sourceUri?: string | null;
  readonly enabled?: boolean | null;
  readonly onDemand?: boolean | null;
}

/** Input of createStream. */
export interface CreateStreamInput {
  readonly name?: string | null;
  readonly description?: string | null;
  readonly record?: boolean | null;
  readonly ingestMode?: IngestMode | null;
  readonly pullSource?: PullSourceInput | null;
  readonly sourceLocation?: string | null;
}

/** Input of updateStream: every field optional; ingestMode cannot change. */
export type UpdateStreamInput = CreateStreamInput;
