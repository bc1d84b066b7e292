/**
 * The typed events of the bus: past-tense names mapped to their payloads. Every payload carries
 * the tenant it belongs to and, where it has one, the stream. Payloads are plain JSON values so
 * they cross processes unchanged (LISTEN/NOTIFY).
 */

/** Fields every event payload carries. */
export interface TenantScoped {
  readonly tenantId: string;
}

/** Fields of every event about one stream. */
export interface StreamScoped extends TenantScoped {
  /** Stream UUID (Stream.streamId). */
  readonly streamId: string;
}

/** Stream lifecycle change as persisted by the ingest lifecycle sink. */
export interface StreamLifecycleData extends StreamScoped {
  /** Node that hosts the publisher. */
  readonly nodeId?: string;
  /** Why it changed (publisher dropped, reconnect window elapsed, …). */
  readonly reason?: string;
  /** Free-form facts (tracks, ingest protocol); JSON only. */
  readonly details?: Readonly<Record<string, unknown>>;
}

/** Playback protocols a viewer can use (mirrors the media plane's list). */
export type ViewerProtocol = 'hls' | 'llhls' | 'dash' | 'mp4' | 'webrtc';

/** A viewer session started or ended on some node. */
export interface ViewerConnectionData extends StreamScoped {
  readonly sessionId: string;
  readonly protocol: ViewerProtocol;
  readonly nodeId: string;
  /** On disconnect: seconds from the session's first to its last request (or close). */
  readonly sessionDurationSeconds?: number;
}

/** An ingest connection (SRT) of a stream opened or closed on some node, with its statistics. */
export interface IngestConnectionData extends StreamScoped {
  readonly sessionId: string;
  readonly protocol: 'srt';
  readonly nodeId: string;
  /** On disconnect: seconds the connection lasted. */
  readonly sessionDurationSeconds?: number;
  /** The connection's statistics (packets, loss, retransmissions, RTT, bitrate, buffer). */
  readonly stats: Readonly<Record<string, string | number | boolean>>;
}

/** Periodic viewer metrics of one live stream on one node. */
export interface ViewerMetricsData extends StreamScoped {
  readonly nodeId: string;
  readonly currentViewers: number;
  /** Egress rate over the last interval; null when the node does not count egress bytes. */
  readonly egressBytesPerSecond: number | null;
  /** Payload bytes received from the publisher since the stream started. */
  readonly bytesIn: number;
}

/** Recording (DVR) lifecycle of a stream. */
export interface DvrData extends StreamScoped {
  readonly dvrHash: string;
  readonly playbackId?: string;
  readonly manifestPath?: string;
  readonly startedAt?: string;
  readonly endedAt?: string;
  readonly sizeBytes?: number;
  readonly segmentCount?: number;
  readonly error?: string;
  readonly nodeId?: string;
}

/** Storage artifact movements (upload to object storage, local cache). */
export interface StorageData extends StreamScoped {
  readonly assetHash: string;
  readonly assetType: 'clip' | 'dvr' | 'vod' | 'thumbnail' | 'chapter';
  readonly sizeBytes?: number;
  readonly s3Url?: string;
  readonly localPath?: string;
  readonly durationMs?: number;
  readonly error?: string;
  readonly nodeId?: string;
}

/** VOD asset and upload lifecycle; `streamId` is set for VOD made from a recording. */
export interface VodData extends TenantScoped {
  readonly streamId?: string;
  readonly vodHash: string;
  readonly playbackId?: string;
  readonly uploadId?: string;
  readonly filename?: string;
  readonly contentType?: string;
  readonly sizeBytes?: number;
  readonly error?: string;
  readonly durationMs?: number;
  readonly resolution?: string;
  readonly videoCodec?: string;
  readonly audioCodec?: string;
}

/** Progress of processing work (transcode, thumbnails, VOD processing); uploads have no stream. */
export interface ProcessingData extends TenantScoped {
  /** The stream the work is for; absent for VOD uploads. */
  readonly streamId?: string;
  /** The VOD asset being processed (its artifact hash). */
  readonly vodHash?: string;
  readonly playbackId?: string;
  /** What runs: e.g. transcode, thumbnail, sprite, vod. */
  readonly processType: string;
  readonly trackType?: 'video' | 'audio';
  readonly progressPercent?: number;
  readonly durationMs?: number;
  readonly inputCodec?: string;
  readonly outputCodec?: string;
  readonly error?: string;
  readonly nodeId?: string;
}

/** A stream's playback policy changed: every process's playback gate drops what it cached. */
export interface PlaybackPolicyChangedData extends StreamScoped {
  readonly playbackId: string;
}

/** A signing key was revoked: every process's playback gate stops accepting its tokens. */
export interface SigningKeyRevokedData extends TenantScoped {
  readonly kid: string;
  /** Never set: a key is not tied to one stream. */
  readonly streamId?: undefined;
}

/** A stream's push targets changed (created, updated, deleted): the node pushing it re-reads them. */
export type PushTargetsChangedData = StreamScoped;

/** Every event name and its payload. Names are past tense. */
export interface EventMap {
  'stream.live': StreamLifecycleData;
  'stream.reconnecting': StreamLifecycleData;
  'stream.offline': StreamLifecycleData;
  'viewer.connected': ViewerConnectionData;
  'viewer.disconnected': ViewerConnectionData;
  'viewer.metrics': ViewerMetricsData;
  'ingest.connected': IngestConnectionData;
  'ingest.disconnected': IngestConnectionData;
  'dvr.started': DvrData;
  'dvr.updated': DvrData;
  'dvr.stopped': DvrData;
  'dvr.failed': DvrData;
  'dvr.deleted': DvrData;
  'storage.sync_started': StorageData;
  'storage.synced': StorageData;
  'storage.sync_failed': StorageData;
  'storage.cache_started': StorageData;
  'storage.cached': StorageData;
  'storage.cache_failed': StorageData;
  'storage.artifact_created': StorageData;
  'storage.artifact_deleted': StorageData;
  'vod.requested': VodData;
  'vod.upload_started': VodData;
  'vod.processing_started': VodData;
  'vod.completed': VodData;
  'vod.failed': VodData;
  'vod.deleted': VodData;
  'processing.started': ProcessingData;
  'processing.progressed': ProcessingData;
  'processing.completed': ProcessingData;
  'processing.failed': ProcessingData;
  'playback.policy_changed': PlaybackPolicyChangedData;
  'signing_key.revoked': SigningKeyRevokedData;
  'push_targets.changed': PushTargetsChangedData;
}

/** One event name. */
export type EventName = keyof EventMap;

/** Every event name, for validation of events received from other processes. */
export const EVENT_NAMES: readonly EventName[] = [
  'stream.live',
  'stream.reconnecting',
  'stream.offline',
  'viewer.connected',
  'viewer.disconnected',
  'viewer.metrics',
  'ingest.connected',
  'ingest.disconnected',
  'dvr.started',
  'dvr.updated',
  'dvr.stopped',
  'dvr.failed',
  'dvr.deleted',
  'storage.sync_started',
  'storage.synced',
  'storage.sync_failed',
  'storage.cache_started',
  'storage.cached',
  'storage.cache_failed',
  'storage.artifact_created',
  'storage.artifact_deleted',
  'vod.requested',
  'vod.upload_started',
  'vod.processing_started',
  'vod.completed',
  'vod.failed',
  'vod.deleted',
  'processing.started',
  'processing.progressed',
  'processing.completed',
  'processing.failed',
  'playback.policy_changed',
  'signing_key.revoked',
  'push_targets.changed',
];

/** One delivered event: the payload plus an id, a time and the process that published it. */
export interface BusEvent<N extends EventName = EventName> {
  /** Unique id (UUID); subscribers and the cross-process relay de-duplicate by it. */
  readonly id: string;
  readonly name: N;
  /** ISO 8601 time of publishing. */
  readonly occurredAt: string;
  /** Instance id of the publishing process's bus. */
  readonly origin: string;
  readonly data: EventMap[N];
}

/** Any event, discriminated by `name` (narrow with `event.name === 'stream.live'`). */
export type AnyBusEvent = { [N in EventName]: BusEvent<N> }[EventName];

/** The stream an event is about, if any. */
export function streamIdOf(event: AnyBusEvent): string | undefined {
  const data: TenantScoped & { streamId?: string } = event.data;
  return data.streamId;
}
