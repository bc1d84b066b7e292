/**
 * The seven subscriptions of spec §6 with typed payloads (shapes after research/frameworks.md
 * §1.12). They are served over WebSocket at /graphql/ws (graphql-transport-ws); the WebSocket
 * layer attaches `subscriptionResolvers` to the schema and supplies a `SubscriptionContext`.
 * Every subscription is tenant-scoped and starts from the moment of subscribing (no backfill).
 */
import type { Principal } from '../../auth/principal.js';
import { ValidationError } from '../../domain/errors.js';
import { toGlobalId } from '../../domain/ids.js';
import type { EventFeed } from '../../events/event-feed.js';
import type { AnyBusEvent, EventName } from '../../events/event-map.js';
import type {
  ConnectionEvent,
  DvrLifecycleEvent,
  DvrLifecycleStatus,
  ProcessingEvent,
  ProcessingEventStage,
  StorageEvent,
  StorageEventAction,
  StreamEvent,
  SubscriptionResolvers,
  ViewerMetrics,
  VodLifecycleEvent,
  VodLifecycleStatus,
} from '../generated/resolvers-types.js';
import type { GraphQLModule } from '../module.js';

/** What subscription resolvers receive as their context. */
export interface SubscriptionContext {
  readonly principal: Principal | null;
  readonly feed: EventFeed;
}

/** The schema module (SDL only; resolvers are attached by the WebSocket layer). */
export const subscriptionsModule: GraphQLModule = {
  typeDefs: /* GraphQL */ `
    "Kind of a stream event (the values of research/frameworks.md §1.1; lifecycle changes use the first three)."
    enum StreamEventType {
      "The stream went live."
      STREAM_START
      "The stream ended (offline)."
      STREAM_END
      "Any other lifecycle change (reconnecting)."
      STREAM_LIFECYCLE_UPDATE
      BUFFER_UPDATE
      TRACK_LIST_UPDATE
      PLAY_REWRITE
      STREAM_SOURCE
    }

    "Whether an event was replayed from history or happened after subscribing."
    enum StreamEventSource {
      HISTORICAL
      LIVE
    }

    "A stream lifecycle change."
    type StreamEvent {
      "Global ID of the event."
      id: ID!
      "Unique id of the event; de-duplicate by it."
      eventId: ID!
      "What kind of change this is."
      type: StreamEventType!
      "LIVE: subscriptions start from the moment of subscribing and replay no history."
      source: StreamEventSource!
      "Stream UUID (Stream.streamId)."
      streamId: ID!
      "Lowercase lifecycle state: live, reconnecting or offline."
      state: String!
      "The same state as a stream status."
      status: StreamStatus!
      "When the change happened."
      timestamp: Time!
      "Node that hosts the publisher, when known."
      nodeId: String
      "Why it changed (publisher dropped, reconnect window elapsed, …)."
      reason: String
      "Further facts (tracks, ingest protocol) as JSON."
      details: JSON
    }

    "Viewer metrics of a live stream on one node, sent at a steady interval while it is live."
    type ViewerMetrics {
      eventId: ID!
      streamId: ID!
      nodeId: String!
      "Active playback sessions on that node."
      currentViewers: Int!
      "Bytes per second sent to viewers over the last interval; null when the node does not count them."
      egressBytesPerSecond: Float
      "Payload bytes received from the publisher since the stream started."
      bytesIn: Float!
      timestamp: Time!
    }

    "A viewer session started or ended."
    type ConnectionEvent {
      eventId: ID!
      streamId: ID!
      "Playback session id."
      sessionId: String!
      "Playback protocol: hls, llhls, dash, mp4 or webrtc."
      protocol: String!
      "The output that served the session (the same value as protocol)."
      connector: String!
      "On disconnect: seconds from the session's first to its last request (or connection close); null on connect."
      sessionDurationSeconds: Float
      "connect or disconnect."
      eventType: String!
      nodeId: String
      timestamp: Time!
    }

    "Stage of a recording."
    enum DvrLifecycleStatus {
      STARTED
      RECORDING
      STOPPED
      FAILED
      DELETED
    }

    "A recording (DVR) lifecycle change."
    type DvrLifecycleEvent {
      eventId: ID!
      streamId: ID!
      status: DvrLifecycleStatus!
      dvrHash: String!
      playbackId: String
      manifestPath: String
      startedAt: Time
      endedAt: Time
      sizeBytes: Float
      segmentCount: Int
      error: String
      nodeId: String
      timestamp: Time!
    }

    "What happened to a stored artifact."
    enum StorageEventAction {
      SYNC_STARTED
      SYNCED
      SYNC_FAILED
      CACHE_STARTED
      CACHED
      CACHE_FAILED
      "A recording's chapter or a clip was created (its playback ID plays)."
      ARTIFACT_CREATED
      "A chapter or clip was deleted (deleteClip, deleteDVR, retention)."
      ARTIFACT_DELETED
    }

    "A storage artifact moved to or from object storage."
    type StorageEvent {
      eventId: ID!
      streamId: ID!
      action: StorageEventAction!
      assetHash: String!
      "clip, chapter, dvr, vod or thumbnail."
      assetType: String!
      sizeBytes: Float
      s3Url: String
      localPath: String
      durationMs: Float
      error: String
      nodeId: String
      timestamp: Time!
    }

    "Stage of a VOD asset or upload."
    enum VodLifecycleStatus {
      REQUESTED
      UPLOADING
      PROCESSING
      COMPLETED
      FAILED
      DELETED
    }

    "A VOD asset or upload lifecycle change."
    type VodLifecycleEvent {
      eventId: ID!
      status: VodLifecycleStatus!
      vodHash: String!
      "Stream UUID when the asset was made from a recording."
      streamId: ID
      playbackId: String
      uploadId: String
      filename: String
      contentType: String
      sizeBytes: Float
      error: String
      durationMs: Float
      resolution: String
      videoCodec: String
      audioCodec: String
      timestamp: Time!
    }

    "Stage of processing work."
    enum ProcessingEventStage {
      STARTED
      PROGRESS
      COMPLETED
      FAILED
    }

    "Progress of processing work (transcode, thumbnails, VOD processing) of a stream or an uploaded VOD asset."
    type ProcessingEvent {
      eventId: ID!
      "The stream the work is for; null for VOD uploads."
      streamId: ID
      "The VOD asset being processed (processType vod)."
      vodHash: String
      playbackId: String
      stage: ProcessingEventStage!
      "What runs: transcode, thumbnail, sprite, vod, …"
      processType: String!
      "video or audio."
      trackType: String
      progressPercent: Float
      durationMs: Float
      inputCodec: String
      outputCodec: String
      error: String
      nodeId: String
      timestamp: Time!
    }

    type Subscription {
      "Lifecycle of one stream (state live, reconnecting, offline)."
      liveStreamEvents(streamId: ID!): StreamEvent!
      "Viewer count and egress of one live stream, every 2 s while it is live."
      liveViewerMetrics(streamId: ID!): ViewerMetrics!
      "Each viewer connect and disconnect of one stream."
      liveConnectionEvents(streamId: ID!): ConnectionEvent!
      "Recording lifecycle of one stream."
      liveDvrLifecycle(streamId: ID!): DvrLifecycleEvent!
      "Storage artifact events of one stream."
      liveStorageEvents(streamId: ID!): StorageEvent!
      "VOD asset and upload lifecycle of the tenant, or of one stream's assets."
      liveVodLifecycle(streamId: ID): VodLifecycleEvent!
      "Processing progress of one stream, or of the tenant (VOD uploads included) without streamId."
      liveProcessingEvents(streamId: ID): ProcessingEvent!
    }
  `,
  resolvers: {},
};

/** Fields every payload shares. */
function base(event: AnyBusEvent): { readonly eventId: string; readonly timestamp: string } {
  return { eventId: event.id, timestamp: event.occurredAt };
}

/** Arguments of the Subscription fields: a stream (required by all but liveVodLifecycle and liveProcessingEvents). */
interface SubscriptionArgs {
  readonly streamId?: string | null;
}

/** A field of the Subscription type: where events come from and how each becomes a payload. */
interface SubscriptionField<Payload> {
  subscribe(root: unknown, args: SubscriptionArgs, context: SubscriptionContext): Promise<AsyncIterable<unknown>>;
  resolve(event: unknown): Payload;
}

/** The payload type of each Subscription field (the generated types of the schema). */
interface SubscriptionPayloads {
  readonly liveStreamEvents: StreamEvent;
  readonly liveViewerMetrics: ViewerMetrics;
  readonly liveConnectionEvents: ConnectionEvent;
  readonly liveDvrLifecycle: DvrLifecycleEvent;
  readonly liveStorageEvents: StorageEvent;
  readonly liveVodLifecycle: VodLifecycleEvent;
  readonly liveProcessingEvents: ProcessingEvent;
}

/** A delivered event of one of the names `N`, narrowed by its name. */
type EventOf<N extends EventName> = Extract<AnyBusEvent, { readonly name: N }>;

function field<N extends EventName, Payload>(
  names: readonly N[],
  map: (event: EventOf<N>) => Payload,
  scope: 'stream' | 'tenant-or-stream' = 'stream',
): SubscriptionField<Payload> {
  return {
    async subscribe(_root, args, context) {
      const streamId = args.streamId;
      if (scope === 'tenant-or-stream' && (streamId === undefined || streamId === null)) {
        return context.feed.tenant(context.principal, names);
      }
      if (typeof streamId !== 'string') {
        throw new ValidationError('streamId', 'required', 'streamId is required');
      }
      return context.feed.stream(context.principal, streamId, names);
    },
    resolve(event) {
      if (!isBusEvent(event)) {
        throw new ValidationError('operation', 'transport', 'subscriptions are served over WebSocket at /graphql/ws');
      }
      if (!isOneOf(event, names)) {
        throw new Error(`event ${event.name} does not belong to this subscription`);
      }
      return map(event);
    },
  };
}

function isBusEvent(value: unknown): value is AnyBusEvent {
  return typeof value === 'object' && value !== null && 'name' in value && 'data' in value && 'id' in value;
}

function isOneOf<N extends EventName>(event: AnyBusEvent, names: readonly N[]): event is EventOf<N> {
  return (names as readonly EventName[]).includes(event.name);
}

const STREAM_STATES = {
  'stream.live': { state: 'live', status: 'LIVE', type: 'STREAM_START' },
  'stream.reconnecting': { state: 'reconnecting', status: 'RECONNECTING', type: 'STREAM_LIFECYCLE_UPDATE' },
  'stream.offline': { state: 'offline', status: 'OFFLINE', type: 'STREAM_END' },
} as const;

const DVR_STATUS = {
  'dvr.started': 'STARTED',
  'dvr.updated': 'RECORDING',
  'dvr.stopped': 'STOPPED',
  'dvr.failed': 'FAILED',
  'dvr.deleted': 'DELETED',
} as const satisfies Partial<Record<EventName, DvrLifecycleStatus>>;

const STORAGE_ACTION = {
  'storage.sync_started': 'SYNC_STARTED',
  'storage.synced': 'SYNCED',
  'storage.sync_failed': 'SYNC_FAILED',
  'storage.cache_started': 'CACHE_STARTED',
  'storage.cached': 'CACHED',
  'storage.cache_failed': 'CACHE_FAILED',
  'storage.artifact_created': 'ARTIFACT_CREATED',
  'storage.artifact_deleted': 'ARTIFACT_DELETED',
} as const satisfies Partial<Record<EventName, StorageEventAction>>;

const VOD_STATUS = {
  'vod.requested': 'REQUESTED',
  'vod.upload_started': 'UPLOADING',
  'vod.processing_started': 'PROCESSING',
  'vod.completed': 'COMPLETED',
  'vod.failed': 'FAILED',
  'vod.deleted': 'DELETED',
} as const satisfies Partial<Record<EventName, VodLifecycleStatus>>;

const PROCESSING_STAGE = {
  'processing.started': 'STARTED',
  'processing.progressed': 'PROGRESS',
  'processing.completed': 'COMPLETED',
  'processing.failed': 'FAILED',
} as const satisfies Partial<Record<EventName, ProcessingEventStage>>;

function namesOf<N extends EventName>(table: Readonly<Record<N, unknown>>): N[] {
  return Object.keys(table) as N[];
}

/** Resolvers of every Subscription field. */
export const subscriptionResolvers: {
  readonly [Name in keyof Required<SubscriptionResolvers>]: SubscriptionField<SubscriptionPayloads[Name]>;
} = {
  liveStreamEvents: field(namesOf(STREAM_STATES), (event) => ({
    ...base(event),
    ...event.data,
    ...STREAM_STATES[event.name],
    id: toGlobalId('StreamEvent', event.id),
    source: 'LIVE' as const,
  })),
  liveViewerMetrics: field(['viewer.metrics'], (event) => ({ ...base(event), ...event.data })),
  liveConnectionEvents: field(
    ['viewer.connected', 'viewer.disconnected', 'ingest.connected', 'ingest.disconnected'],
    (event) => ({
      ...base(event),
      ...event.data,
      eventType: event.name === 'viewer.connected' || event.name === 'ingest.connected' ? 'connect' : 'disconnect',
      connector: event.data.protocol,
      sessionDurationSeconds: event.data.sessionDurationSeconds ?? null,
      ingest: 'stats' in event.data ? event.data.stats : null,
    }),
  ),
  liveDvrLifecycle: field(namesOf(DVR_STATUS), (event) => ({
    ...base(event),
    ...event.data,
    status: DVR_STATUS[event.name],
  })),
  liveStorageEvents: field(namesOf(STORAGE_ACTION), (event) => ({
    ...base(event),
    ...event.data,
    action: STORAGE_ACTION[event.name],
  })),
  liveVodLifecycle: field(
    namesOf(VOD_STATUS),
    (event) => ({ ...base(event), ...event.data, status: VOD_STATUS[event.name] }),
    'tenant-or-stream',
  ),
  liveProcessingEvents: field(
    namesOf(PROCESSING_STAGE),
    (event) => ({ ...base(event), ...event.data, stage: PROCESSING_STAGE[event.name] }),
    'tenant-or-stream',
  ),
};
