/**
 * Streams: create, update, delete, read one, list as a connection, rotate the primary key.
 * Queries need `streams:read`, mutations `streams:write` (developer tokens).
 */
import { requirePrincipal } from '../../auth/principal.js';
import { toGlobalId } from '../../domain/ids.js';
import type { StreamRecord, TrackInfo } from '../../domain/streams/stream.js';
import type {
  PullSourceView,
  Resolvers,
  Stream,
  StreamMetrics,
  StreamResolvers,
  StreamTrack,
} from '../generated/resolvers-types.js';
import type { GraphQLModule } from '../module.js';
import { unionResult } from '../results.js';
import { pullStatusToGraphQL } from './pull-sources.js';
import { checkChapterSettings } from './recordings.js';

function trackToGraphQL(track: TrackInfo): StreamTrack {
  return {
    trackId: track.id,
    trackType: track.kind,
    codec: track.codec,
    codecString: track.codecString,
    width: track.width,
    height: track.height,
    fps: track.fps,
    bitrateKbps: track.bitrate === null ? null : Math.round(track.bitrate / 1000),
    channels: track.channels,
    sampleRate: track.sampleRate,
    keyframeIntervalMs: track.keyframeIntervalMs ?? null,
  };
}

/** StreamMetrics as built from the record, with the stream it belongs to (the SRT fields look it up). */
type StreamMetricsParent = Omit<
  StreamMetrics,
  'packetsSent' | 'packetsLost' | 'packetsRetransmitted' | 'reconnects'
> & {
  readonly streamId: string;
};

/** Stream fields whose GraphQL value is derived from the record (the others are read as they are). */
const streamFields = {
  id: (stream: StreamRecord): string => toGlobalId('Stream', stream.id),
  streamId: (stream: StreamRecord): string => stream.id,
  pullSource: (stream: StreamRecord): PullSourceView | null =>
    stream.pullSource
      ? {
          sourceUriRedacted: stream.pullSource.sourceUriRedacted,
          class: stream.pullSource.class,
          enabled: stream.pullSource.enabled,
          onDemand: stream.pullSource.onDemand,
          allowedClusterIds: [],
        }
      : null,
  createdAt: (stream: StreamRecord): string => stream.createdAt.toISOString(),
  updatedAt: (stream: StreamRecord): string => stream.updatedAt.toISOString(),
  metrics: (stream: StreamRecord): StreamMetricsParent => ({
    streamId: stream.id,
    status: stream.metrics.status,
    isLive: stream.metrics.isLive,
    currentViewers: stream.metrics.currentViewers,
    startedAt: stream.metrics.startedAt?.toISOString() ?? null,
    updatedAt: stream.metrics.updatedAt?.toISOString() ?? null,
    nodeId: stream.metrics.nodeId,
    trackCount: stream.tracks.length,
    pull: pullStatusToGraphQL(stream.metrics.pull),
  }),
  tracks: (stream: StreamRecord): readonly StreamTrack[] => stream.tracks.map(trackToGraphQL),
} satisfies StreamResolvers;

/** A stream record as the whole GraphQL object (every field but those resolved by lookups: playbackPolicy, recentPullSourceEvents, the SRT fields); the API bench's bare route answers it. */
export function streamToGraphQL(
  stream: StreamRecord,
): Omit<
  Stream,
  | 'playbackPolicy'
  | 'recentPullSourceEvents'
  | 'srtPassphraseSet'
  | 'ingestConnection'
  | 'retentionOverrides'
  | 'dvrChapterMode'
  | 'dvrChapterIntervalSeconds'
> {
  return {
    id: streamFields.id(stream),
    streamId: streamFields.streamId(stream),
    name: stream.name,
    description: stream.description,
    streamKey: stream.streamKey,
    playbackId: stream.playbackId,
    record: stream.record,
    ingestMode: stream.ingestMode,
    pullSource: streamFields.pullSource(stream),
    sourceLocation: stream.sourceLocation,
    createdAt: streamFields.createdAt(stream),
    updatedAt: streamFields.updatedAt(stream),
    metrics: streamFields.metrics(stream),
    tracks: streamFields.tracks(stream),
    pushTargets: [],
  };
}

/** The streams schema module. */
export const streamsModule: GraphQLModule = {
  typeDefs: /* GraphQL */ `
    "Live status of a stream. RECONNECTING: the encoder dropped and may return within the reconnect window."
    enum StreamStatus {
      OFFLINE
      LIVE
      RECORDING
      ENDED
      RECONNECTING
    }

    "PUSH: an encoder pushes (RTMP, SRT, WHIP). PULL: the service pulls pullSource.sourceUri."
    enum IngestMode {
      PUSH
      PULL
    }

    "A pull source as read back: the URI with credentials and query values redacted."
    type PullSourceView {
      sourceUriRedacted: String!
      "public or private (private addresses need AIRWAVE_ALLOW_PRIVATE_PULL_SOURCES)."
      class: String!
      enabled: Boolean!
      "Pulled only while viewers watch; otherwise always while enabled."
      onDemand: Boolean!
      "Clusters allowed to pull it; empty: any. Airwave runs one cluster, so a pull source is never pinned."
      allowedClusterIds: [String!]!
    }

    "Live metrics as reported by the media plane."
    type StreamMetrics {
      status: StreamStatus!
      isLive: Boolean!
      "Viewers of the live stream over every node (the ingesting node and the edges relaying it)."
      currentViewers: Int!
      "When the current (or last) publish started."
      startedAt: Time
      "When the media plane last reported on this stream."
      updatedAt: Time
      "The node that reported last."
      nodeId: String
      trackCount: Int!
      "Times the publisher dropped in the current live session (the stream waited in RECONNECTING for it), as this node's event feed saw them (counted since the node started); null where the node keeps no count."
      reconnects: Int
    }

    "One track of the live stream as last reported."
    type StreamTrack {
      trackId: Int!
      "video or audio."
      trackType: String!
      "h264, h265, av1, vp9, aac or opus."
      codec: String!
      "RFC 6381 codec string, e.g. avc1.64001f."
      codecString: String!
      width: Int
      height: Int
      fps: Float
      bitrateKbps: Int
      channels: Int
      sampleRate: Int
      "Video: milliseconds between the last two key frames the ingest node received (null until two were seen)."
      keyframeIntervalMs: Int
    }

    "A live stream."
    type Stream {
      "Global ID: the argument of every stream operation."
      id: ID!
      "Public UUID, used outside GraphQL."
      streamId: ID!
      name: String!
      description: String
      "Secret primary ingest key (shown to the owner only)."
      streamKey: String!
      "Public viewer ID used in /play URLs."
      playbackId: String!
      record: Boolean!
      ingestMode: IngestMode!
      pullSource: PullSourceView
      sourceLocation: String
      createdAt: Time!
      updatedAt: Time!
      metrics: StreamMetrics!
      tracks: [StreamTrack!]!
      "Restream destinations (push targets), oldest first."
      pushTargets: [PushTarget!]!
    }

    type StreamEdge {
      cursor: String!
      node: Stream!
    }

    type StreamsConnection {
      edges: [StreamEdge!]!
      nodes: [Stream!]!
      pageInfo: PageInfo!
      totalCount: Int!
    }

    input PullSourceInput {
      "rtsp, rtsps, srt, rist, http(s) (.m3u8, .ts, .mkv, .webm), dtsc or udp (MPEG-TS). RTMP and FLV pull are unsupported."
      sourceUri: String
      "Default true; false stops pulling."
      enabled: Boolean
      "Default false (pull always while enabled); true pulls only when a viewer asks."
      onDemand: Boolean
    }

    input CreateStreamInput {
      "1 to 255 characters after trimming."
      name: String!
      description: String
      record: Boolean
      "PUSH (default) or PULL; cannot change later."
      ingestMode: IngestMode
      "Required when ingestMode is PULL."
      pullSource: PullSourceInput
      sourceLocation: String
    }

    input UpdateStreamInput {
      name: String
      description: String
      record: Boolean
      "Immutable: a different value is a ValidationError."
      ingestMode: IngestMode
      pullSource: PullSourceInput
      sourceLocation: String
    }

    union CreateStreamResult = Stream | ValidationError | AuthError
    union UpdateStreamResult = Stream | ValidationError | NotFoundError | AuthError
    union DeleteStreamResult = DeleteSuccess | ValidationError | NotFoundError | AuthError
    union RefreshStreamKeyResult = Stream | ValidationError | NotFoundError | AuthError

    extend type Query {
      "A stream of the caller's tenant by global ID (or UUID); NOT_FOUND otherwise."
      stream(id: ID!): Stream
      "The caller's streams, newest first; search filters by name."
      streamsConnection(page: ConnectionInput, search: String): StreamsConnection!
    }

    extend type Mutation {
      createStream(input: CreateStreamInput!): CreateStreamResult!
      updateStream(id: ID!, input: UpdateStreamInput!): UpdateStreamResult!
      "Deletes the stream and its keys, and ends a live publish."
      deleteStream(id: ID!): DeleteStreamResult!
      "Rotates the primary stream key; the old value stops working at once."
      refreshStreamKey(id: ID!): RefreshStreamKeyResult!
    }
  `,
  resolvers: {
    Query: {
      stream: (_root, { id }, ctx) => {
        const principal = requirePrincipal(ctx.principal, 'streams:read');
        return ctx.services.streams.get(principal.tenantId, id);
      },
      streamsConnection: (_root, { page, search }, ctx) => {
        const principal = requirePrincipal(ctx.principal, 'streams:read');
        return ctx.services.streams.list(principal.tenantId, page, search);
      },
    },
    Mutation: {
      createStream: (_root, { input }, ctx) =>
        unionResult('Stream', ['ValidationError', 'AuthError'], () => {
          const principal = requirePrincipal(ctx.principal, 'streams:write');
          return ctx.services.streams.create(principal.tenantId, input);
        }),
      updateStream: (_root, { id, input }, ctx) =>
        unionResult('Stream', ['ValidationError', 'NotFoundError', 'AuthError'], async () => {
          const principal = requirePrincipal(ctx.principal, 'streams:write');
          // Chapter settings (recordings module) are checked first, written once the stream is.
          const chapters = await checkChapterSettings(ctx, principal.tenantId, id, input);
          const updated = await ctx.services.streams.update(principal.tenantId, id, input);
          await chapters?.apply();
          return updated;
        }),
      deleteStream: (_root, { id }, ctx) =>
        unionResult('DeleteSuccess', ['ValidationError', 'NotFoundError', 'AuthError'], async () => {
          const principal = requirePrincipal(ctx.principal, 'streams:write');
          const deleted = await ctx.services.streams.delete(principal.tenantId, id);
          return { success: true, deletedId: toGlobalId('Stream', deleted), pending: false };
        }),
      refreshStreamKey: (_root, { id }, ctx) =>
        unionResult('Stream', ['ValidationError', 'NotFoundError', 'AuthError'], () => {
          const principal = requirePrincipal(ctx.principal, 'streams:write');
          return ctx.services.streams.refreshKey(principal.tenantId, id);
        }),
    },
    Stream: streamFields,
    StreamMetrics: {
      reconnects: (metrics, _args, ctx) => ctx.services.reconnects?.count(metrics.streamId) ?? null,
    },
  } satisfies Resolvers,
};
