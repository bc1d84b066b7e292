/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
/** How createClip's range is given (seconds). */
export type ClipCreationMode =
  /** startUnix and stopUnix (epoch seconds). */
  | 'ABSOLUTE'
  /** The last duration seconds before the live edge. */
  | 'CLIP_NOW'
  /** startUnix or startMedia, plus duration. */
  | 'DURATION'
  /** startMedia and stopMedia: seconds from the recording's first frame. */
  | 'RELATIVE';

export type CompleteVodUploadInput = {
  /** Every part, each once. */
  parts: Array<VodUploadPartInput>;
  uploadId: string;
};

/** Page input: first (default 50, max 500) with after, or last with before. */
export type ConnectionInput = {
  after?: string | null | undefined;
  before?: string | null | undefined;
  first?: number | null | undefined;
  last?: number | null | undefined;
};

export type CreateClipInput = {
  description?: string | null | undefined;
  duration?: number | null | undefined;
  expiresAt?: string | null | undefined;
  /** Default ABSOLUTE. */
  mode?: ClipCreationMode | null | undefined;
  startMedia?: number | null | undefined;
  startUnix?: number | null | undefined;
  stopMedia?: number | null | undefined;
  stopUnix?: number | null | undefined;
  streamId: string;
  /** 1 to 255 characters. */
  title: string;
};

export type CreateDeveloperTokenInput = {
  /** Lifetime in days (1 to 3650); null never expires. */
  expiresIn?: number | null | undefined;
  name: string;
  /** Comma-separated scopes: streams:read, streams:write, analytics:read, developer:read, developer:write, account:read, account:write, security:read, security:write. */
  permissions: string;
};

export type CreatePushTargetInput = {
  /** 1 to 255 characters. */
  name: string;
  /** twitch, youtube, facebook, kick, x or custom (default). */
  platform?: string | null | undefined;
  /** rtmp://host[:port]/app/key, rtmps://… or srt://host:port?streamid=…&passphrase=… */
  targetUri: string;
};

export type CreateSigningKeyInput = {
  /** 1 to 100 characters. */
  name: string;
};

export type CreateStreamInput = {
  description?: string | null | undefined;
  /** PUSH (default) or PULL; cannot change later. */
  ingestMode?: IngestMode | null | undefined;
  /** 1 to 255 characters after trimming. */
  name: string;
  /** Required when ingestMode is PULL. */
  pullSource?: PullSourceInput | null | undefined;
  record?: boolean | null | undefined;
  sourceLocation?: string | null | undefined;
};

export type CreateStreamKeyInput = {
  /** 1 to 100 characters after trimming. */
  name: string;
};

export type CreateVodUploadInput = {
  /** video/* or application/octet-stream. */
  contentType?: string | null | undefined;
  description?: string | null | undefined;
  /** The file's name; its extension must be a video container (mp4, mov, mkv, webm, ts, …). */
  filename: string;
  /** Exact size in bytes (at most the deployment's limit, default 20 GiB). */
  sizeBytes: number;
  title?: string | null | undefined;
};

/** Stage of a recording. */
export type DvrLifecycleStatus =
  | 'DELETED'
  | 'FAILED'
  | 'RECORDING'
  | 'STARTED'
  | 'STOPPED';

/** PUSH: an encoder pushes (RTMP, SRT, WHIP). PULL: the service pulls pullSource.sourceUri. */
export type IngestMode =
  | 'PULL'
  | 'PUSH';

export type JwtPlaybackPolicyInput = {
  /** Kids of active signing keys of this account; empty or omitted accepts any active key. */
  allowedKids?: Array<string> | null | undefined;
};

export type LoginInput = {
  email: string;
  password: string;
};

export type PlaybackPolicyInput = {
  jwt?: JwtPlaybackPolicyInput | null | undefined;
  type: PlaybackPolicyType;
  webhook?: WebhookPlaybackPolicyInput | null | undefined;
};

/** PUBLIC: no token needed (the default). JWT: an ES256 token signed by one of your keys. WEBHOOK: your endpoint decides. */
export type PlaybackPolicyType =
  | 'JWT'
  | 'PUBLIC'
  | 'WEBHOOK';

export type PullSourceInput = {
  /** Default true; false stops pulling. */
  enabled?: boolean | null | undefined;
  /** Default false (pull always while enabled); true pulls only when a viewer asks. */
  onDemand?: boolean | null | undefined;
  /** rtsp, rtsps, srt, rist, http(s) (.m3u8, .ts, .mkv, .webm), dtsc or udp (MPEG-TS). RTMP and FLV pull are unsupported. */
  sourceUri?: string | null | undefined;
};

/** Phase of a pull: connecting to the source, pulling media, waiting to retry, or stopped. */
export type PullState =
  | 'CONNECTING'
  | 'PULLING'
  | 'RETRYING'
  | 'STOPPED';

export type RegisterInput = {
  email: string;
  name?: string | null | undefined;
  /** 8 to 1024 characters. */
  password: string;
};

/** Exactly one of streamId and clipId. */
export type SetPlaybackPolicyInput = {
  /** Clip global ID, UUID or clip hash: that clip only (instead of its stream's policy). */
  clipId?: string | null | undefined;
  policy: PlaybackPolicyInput;
  /** Stream global ID (or UUID): its live output, recordings, chapters and clips. */
  streamId?: string | null | undefined;
  /** VodAsset global ID, UUID or artifact hash: that asset only (uploads are public until set). */
  vodAssetId?: string | null | undefined;
};

export type SigningKeyStatus =
  | 'ACTIVE'
  | 'REVOKED';

/** What storageArtifactsConnection lists. */
export type StorageArtifactKind =
  | 'CHAPTER'
  | 'CLIP'
  | 'DVR'
  | 'VOD';

export type StorageArtifactsInput = {
  /** Page size, 0..500 (default 25). */
  first?: number | null | undefined;
  /** Default DVR, CLIP and VOD; CHAPTER lists chapters; VOD uploads are not listed for a streamId. */
  kinds?: Array<StorageArtifactKind> | null | undefined;
  offset?: number | null | undefined;
  streamId?: string | null | undefined;
};

/** What happened to a stored artifact. */
export type StorageEventAction =
  /** A recording's chapter or a clip was created (its playback ID plays). */
  | 'ARTIFACT_CREATED'
  /** A chapter or clip was deleted (deleteClip, deleteDVR, retention). */
  | 'ARTIFACT_DELETED'
  | 'CACHED'
  | 'CACHE_FAILED'
  | 'CACHE_STARTED'
  | 'SYNCED'
  | 'SYNC_FAILED'
  | 'SYNC_STARTED';

/** Live status of a stream. RECONNECTING: the encoder dropped and may return within the reconnect window. */
export type StreamStatus =
  | 'ENDED'
  | 'LIVE'
  | 'OFFLINE'
  | 'RECONNECTING'
  | 'RECORDING';

/** A time range of ISO 8601 UTC timestamps; analytics count the UTC days from start's to end's (at most 366). */
export type TimeRangeInput = {
  end: string;
  start: string;
};

export type UpdatePushTargetInput = {
  /** false stops a running push within a second. */
  isEnabled?: boolean | null | undefined;
  name?: string | null | undefined;
  targetUri?: string | null | undefined;
};

/** Life of a VOD asset: uploading parts, processing, ready to play, failed, deleted, or expired unfinished. */
export type VodAssetStatus =
  | 'DELETED'
  | 'EXPIRED'
  | 'FAILED'
  | 'PROCESSING'
  | 'READY'
  | 'UPLOADING';

/** Stage of a VOD asset or upload. */
export type VodLifecycleStatus =
  | 'COMPLETED'
  | 'DELETED'
  | 'FAILED'
  | 'PROCESSING'
  | 'REQUESTED'
  | 'UPLOADING';

export type VodUploadPartInput = {
  /** The ETag the part's PUT answered. */
  etag: string;
  partNumber: number;
};

export type WebhookPlaybackPolicyInput = {
  /** HMAC-SHA256 key, 16 to 512 characters. Write-only; omit it on an update to keep the current one. */
  secret?: string | null | undefined;
  /** 1 to 10000 ms; default 5000. */
  timeoutMs?: number | null | undefined;
  /** http(s) URL; private, loopback, link-local and multicast addresses need AIRWAVE_ALLOW_PRIVATE_WEBHOOKS=true. */
  url: string;
};

type Failure_AuthError_Fragment = { message: string };

type Failure_NotFoundError_Fragment = { message: string };

type Failure_RateLimitError_Fragment = { message: string };

type Failure_ValidationError_Fragment = { field: string | null, message: string };

export type FailureFragment =
  | Failure_AuthError_Fragment
  | Failure_NotFoundError_Fragment
  | Failure_RateLimitError_Fragment
  | Failure_ValidationError_Fragment
;

export type MeQueryVariables = Exact<{ [key: string]: never; }>;


export type MeQuery = { me: { id: string, email: string, name: string | null } };

export type LogoutMutationVariables = Exact<{ [key: string]: never; }>;


export type LogoutMutation = { logout:
    | { __typename: 'AuthError' }
    | { __typename: 'LogoutPayload' }
   };

export type RegisterMutationVariables = Exact<{
  input: RegisterInput;
}>;


export type RegisterMutation = { register:
    | { __typename: 'AuthPayload', expiresAt: string, user: { id: string, email: string, name: string | null } }
    | { __typename: 'ValidationError', field: string | null, message: string }
   };

export type LoginMutationVariables = Exact<{
  input: LoginInput;
}>;


export type LoginMutation = { login:
    | { __typename: 'AuthError', message: string }
    | { __typename: 'AuthPayload', expiresAt: string, user: { id: string, email: string, name: string | null } }
    | { __typename: 'RateLimitError', retryAfter: number | null, message: string }
    | { __typename: 'ValidationError', field: string | null, message: string }
   };

export type CreateStreamMutationVariables = Exact<{
  input: CreateStreamInput;
}>;


export type CreateStreamMutation = { createStream:
    | { __typename: 'AuthError', message: string }
    | { __typename: 'Stream', id: string }
    | { __typename: 'ValidationError', field: string | null, message: string }
   };

export type SigningKeysQueryVariables = Exact<{ [key: string]: never; }>;


export type SigningKeysQuery = { signingKeysConnection: { nodes: Array<{ id: string, kid: string, name: string, status: SigningKeyStatus, createdAt: string, lastUsedAt: string | null }> } };

export type CreateSigningKeyMutationVariables = Exact<{
  input: CreateSigningKeyInput;
}>;


export type CreateSigningKeyMutation = { createSigningKey:
    | { __typename: 'AuthError', message: string }
    | { __typename: 'CreateSigningKeySuccess', privateKeyPem: string, signingKey: { id: string, kid: string, name: string } }
    | { __typename: 'RateLimitError', message: string }
    | { __typename: 'ValidationError', field: string | null, message: string }
   };

export type RevokeSigningKeyMutationVariables = Exact<{
  id: string;
}>;


export type RevokeSigningKeyMutation = { revokeSigningKey:
    | { __typename: 'AuthError', message: string }
    | { __typename: 'DeleteSuccess', deletedId: string }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'ValidationError', field: string | null, message: string }
   };

export type StreamAnalyticsQueryVariables = Exact<{
  streamId: string;
  timeRange: TimeRangeInput;
}>;


export type StreamAnalyticsQuery = { analytics: { usage: { streaming: { streamAnalyticsDailyConnection: { nodes: Array<{ day: string, totalViews: number, uniqueViewers: number, egressBytes: number, peakConcurrentViewers: number }> } } } } };

export type IngestQueryVariables = Exact<{
  streamKey: string;
}>;


export type IngestQuery = { resolveIngestEndpoint: { primary: { nodeId: string, rtmpUrl: string | null, rtmpsUrl: string | null, srtUrl: string | null, whipUrl: string | null } } | null };

export type StreamKeysQueryVariables = Exact<{
  streamId: string;
}>;


export type StreamKeysQuery = { streamKeysConnection: { nodes: Array<{ id: string, keyName: string, isActive: boolean, isPrimary: boolean, lastUsedAt: string | null, createdAt: string }> } };

export type CreateStreamKeyMutationVariables = Exact<{
  streamId: string;
  input: CreateStreamKeyInput;
}>;


export type CreateStreamKeyMutation = { createStreamKey:
    | { __typename: 'AuthError', message: string }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'StreamKey', id: string, keyName: string, keyValue: string }
    | { __typename: 'ValidationError', field: string | null, message: string }
   };

export type RotateStreamKeyMutationVariables = Exact<{
  id: string;
}>;


export type RotateStreamKeyMutation = { refreshStreamKey:
    | { __typename: 'AuthError', message: string }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'Stream', id: string, streamKey: string }
    | { __typename: 'ValidationError', field: string | null, message: string }
   };

export type DeleteStreamKeyMutationVariables = Exact<{
  streamId: string;
  keyId: string;
}>;


export type DeleteStreamKeyMutation = { deleteStreamKey:
    | { __typename: 'AuthError', message: string }
    | { __typename: 'DeleteSuccess', deletedId: string }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'ValidationError', field: string | null, message: string }
   };

export type ActiveSigningKeysQueryVariables = Exact<{ [key: string]: never; }>;


export type ActiveSigningKeysQuery = { signingKeysConnection: { nodes: Array<{ id: string, kid: string, name: string }> } };

export type SetPlaybackPolicyMutationVariables = Exact<{
  input: SetPlaybackPolicyInput;
}>;


export type SetPlaybackPolicyMutation = { setPlaybackPolicy:
    | { __typename: 'AuthError', message: string }
    | { __typename: 'Clip' }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'Stream', id: string, playbackPolicy: { type: PlaybackPolicyType, jwt: { allowedKids: Array<string> } | null, webhook: { url: string, timeoutMs: number, secretMasked: string } | null } }
    | { __typename: 'ValidationError', field: string | null, message: string }
    | { __typename: 'VodAsset' }
   };

export type PushTargetsQueryVariables = Exact<{
  id: string;
}>;


export type PushTargetsQuery = { stream: { id: string, pushTargets: Array<{ id: string, name: string, platform: string, targetUri: string, isEnabled: boolean, status: string, lastError: string | null, bitrateKbps: number, bytesSent: number, lastPushedAt: string | null }> } | null };

export type CreatePushTargetMutationVariables = Exact<{
  streamId: string;
  input: CreatePushTargetInput;
}>;


export type CreatePushTargetMutation = { createPushTarget:
    | { __typename: 'AuthError', message: string }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'PushTarget', id: string }
    | { __typename: 'ValidationError', field: string | null, message: string }
   };

export type UpdatePushTargetMutationVariables = Exact<{
  id: string;
  input: UpdatePushTargetInput;
}>;


export type UpdatePushTargetMutation = { updatePushTarget:
    | { __typename: 'AuthError', message: string }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'PushTarget', id: string, isEnabled: boolean }
    | { __typename: 'ValidationError', field: string | null, message: string }
   };

export type DeletePushTargetMutationVariables = Exact<{
  id: string;
}>;


export type DeletePushTargetMutation = { deletePushTarget:
    | { __typename: 'AuthError', message: string }
    | { __typename: 'DeleteSuccess', deletedId: string }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'ValidationError', field: string | null, message: string }
   };

export type StreamArtifactsQueryVariables = Exact<{
  id: string;
  input?: StorageArtifactsInput | null | undefined;
}>;


export type StreamArtifactsQuery = { stream: { id: string, name: string, record: boolean, metrics: { status: StreamStatus } } | null, storageArtifactsConnection: { totalCount: number, nodes: Array<{ id: string, kind: StorageArtifactKind, hash: string, playbackId: string, title: string | null, status: string, durationSeconds: number, sizeBytes: number, createdAt: string, errorMessage: string | null }> } };

export type StartDvrMutationVariables = Exact<{
  streamId: string;
}>;


export type StartDvrMutation = { startDVR:
    | { __typename: 'AuthError', message: string }
    | { __typename: 'DVRRequest', dvrHash: string, status: string }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'ValidationError', field: string | null, message: string }
   };

export type StopDvrMutationVariables = Exact<{
  dvrHash: string;
}>;


export type StopDvrMutation = { stopDVR:
    | { __typename: 'AuthError', message: string }
    | { __typename: 'DeleteSuccess', deletedId: string }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'ValidationError', field: string | null, message: string }
   };

export type CreateClipMutationVariables = Exact<{
  input: CreateClipInput;
}>;


export type CreateClipMutation = { createClip:
    | { __typename: 'AuthError', message: string }
    | { __typename: 'Clip', id: string, playbackId: string, title: string, status: string }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'ValidationError', field: string | null, message: string }
   };

export type DeleteClipMutationVariables = Exact<{
  id: string;
}>;


export type DeleteClipMutation = { deleteClip:
    | { __typename: 'AuthError', message: string }
    | { __typename: 'DeleteSuccess', deletedId: string }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'ValidationError', field: string | null, message: string }
   };

export type RecordingDvrEventsSubscriptionVariables = Exact<{
  streamId: string;
}>;


export type RecordingDvrEventsSubscription = { liveDvrLifecycle: { eventId: string, status: DvrLifecycleStatus } };

export type RecordingStorageEventsSubscriptionVariables = Exact<{
  streamId: string;
}>;


export type RecordingStorageEventsSubscription = { liveStorageEvents: { eventId: string, action: StorageEventAction } };

export type StreamQueryVariables = Exact<{
  id: string;
}>;


export type StreamQuery = { stream: { id: string, streamId: string, name: string, playbackId: string, streamKey: string, record: boolean, ingestMode: IngestMode, createdAt: string, pullSource: { sourceUriRedacted: string, enabled: boolean, onDemand: boolean } | null, metrics: { status: StreamStatus, isLive: boolean, currentViewers: number, startedAt: string | null, nodeId: string | null, reconnects: number | null, pull: { state: PullState, attempt: number, failures: number, lastError: string | null } | null }, tracks: Array<{ trackId: number, trackType: string, codec: string, codecString: string, width: number | null, height: number | null, fps: number | null, bitrateKbps: number | null, channels: number | null, sampleRate: number | null, keyframeIntervalMs: number | null }>, playbackPolicy: { type: PlaybackPolicyType, jwt: { allowedKids: Array<string> } | null, webhook: { url: string, timeoutMs: number, secretMasked: string } | null } } | null };

export type DeleteStreamMutationVariables = Exact<{
  id: string;
}>;


export type DeleteStreamMutation = { deleteStream:
    | { __typename: 'AuthError', message: string }
    | { __typename: 'DeleteSuccess', deletedId: string }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'ValidationError', field: string | null, message: string }
   };

export type ViewerMetricsSubscriptionVariables = Exact<{
  streamId: string;
}>;


export type ViewerMetricsSubscription = { liveViewerMetrics: { currentViewers: number, egressBytesPerSecond: number | null, timestamp: string } };

export type StreamsQueryVariables = Exact<{
  page?: ConnectionInput | null | undefined;
  search?: string | null | undefined;
}>;


export type StreamsQuery = { streamsConnection: { totalCount: number, pageInfo: { startCursor: string | null, endCursor: string | null, hasNextPage: boolean, hasPreviousPage: boolean }, nodes: Array<{ id: string, name: string, createdAt: string, ingestMode: IngestMode, metrics: { status: StreamStatus, currentViewers: number } }> } };

export type DeveloperTokensQueryVariables = Exact<{ [key: string]: never; }>;


export type DeveloperTokensQuery = { developerTokensConnection: { nodes: Array<{ id: string, tokenName: string, scopes: Array<string>, status: string, lastUsedAt: string | null, expiresAt: string | null, createdAt: string }> } };

export type CreateDeveloperTokenMutationVariables = Exact<{
  input: CreateDeveloperTokenInput;
}>;


export type CreateDeveloperTokenMutation = { createDeveloperToken:
    | { __typename: 'AuthError', message: string }
    | { __typename: 'DeveloperToken', id: string, tokenName: string, tokenValue: string | null }
    | { __typename: 'RateLimitError', message: string }
    | { __typename: 'ValidationError', field: string | null, message: string }
   };

export type RevokeDeveloperTokenMutationVariables = Exact<{
  id: string;
}>;


export type RevokeDeveloperTokenMutation = { revokeDeveloperToken:
    | { __typename: 'AuthError', message: string }
    | { __typename: 'DeleteSuccess', deletedId: string }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'ValidationError', field: string | null, message: string }
   };

export type VodAssetQueryVariables = Exact<{
  id: string;
}>;


export type VodAssetQuery = { vodAsset: { id: string, playbackId: string, filename: string, title: string | null, status: VodAssetStatus, progressPercent: number, sizeBytes: number, storedBytes: number | null, durationMs: number | null, resolution: string | null, videoCodec: string | null, audioCodec: string | null, errorMessage: string | null, outputs: Array<string>, createdAt: string, completedAt: string | null, thumbnailUrl: string | null } | null };

export type VodListQueryVariables = Exact<{
  input?: StorageArtifactsInput | null | undefined;
}>;


export type VodListQuery = { storageArtifactsConnection: { totalCount: number, nodes: Array<{ id: string, kind: StorageArtifactKind, hash: string, playbackId: string, title: string | null, status: string, durationSeconds: number, sizeBytes: number, createdAt: string, errorMessage: string | null }> } };

export type CreateVodUploadMutationVariables = Exact<{
  input: CreateVodUploadInput;
}>;


export type CreateVodUploadMutation = { createVodUpload:
    | { __typename: 'AuthError', message: string }
    | { __typename: 'ValidationError', field: string | null, message: string }
    | { __typename: 'VodUploadSession', id: string, artifactId: string, partSize: number, parts: Array<{ partNumber: number, presignedUrl: string }> }
   };

export type CompleteVodUploadMutationVariables = Exact<{
  input: CompleteVodUploadInput;
}>;


export type CompleteVodUploadMutation = { completeVodUpload:
    | { __typename: 'AuthError', message: string }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'ValidationError', field: string | null, message: string }
    | { __typename: 'VodAsset', id: string, artifactHash: string, status: VodAssetStatus }
   };

export type AbortVodUploadMutationVariables = Exact<{
  uploadId: string;
}>;


export type AbortVodUploadMutation = { abortVodUpload:
    | { __typename: 'AuthError', message: string }
    | { __typename: 'DeleteSuccess' }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'ValidationError', field: string | null, message: string }
   };

export type DeleteVodAssetMutationVariables = Exact<{
  id: string;
}>;


export type DeleteVodAssetMutation = { deleteVodAsset:
    | { __typename: 'AuthError', message: string }
    | { __typename: 'DeleteSuccess', deletedId: string }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'ValidationError', field: string | null, message: string }
   };

export type VodLifecycleSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type VodLifecycleSubscription = { liveVodLifecycle: { eventId: string, status: VodLifecycleStatus, vodHash: string } };

export type StreamStatusEventsSubscriptionVariables = Exact<{
  streamId: string;
}>;


export type StreamStatusEventsSubscription = { liveStreamEvents: { streamId: string, state: string, status: StreamStatus, timestamp: string } };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}
export const FailureFragmentDoc = new TypedDocumentString(`
    fragment Failure on Error {
  message
  ... on ValidationError {
    field
  }
}
    `, {"fragmentName":"Failure"}) as unknown as TypedDocumentString<FailureFragment, unknown>;
export const MeDocument = new TypedDocumentString(`
    query Me {
  me {
    id
    email
    name
  }
}
    `) as unknown as TypedDocumentString<MeQuery, MeQueryVariables>;
export const LogoutDocument = new TypedDocumentString(`
    mutation Logout {
  logout {
    __typename
  }
}
    `) as unknown as TypedDocumentString<LogoutMutation, LogoutMutationVariables>;
export const RegisterDocument = new TypedDocumentString(`
    mutation Register($input: RegisterInput!) {
  register(input: $input) {
    __typename
    ... on AuthPayload {
      expiresAt
      user {
        id
        email
        name
      }
    }
    ...Failure
  }
}
    fragment Failure on Error {
  message
  ... on ValidationError {
    field
  }
}`) as unknown as TypedDocumentString<RegisterMutation, RegisterMutationVariables>;
export const LoginDocument = new TypedDocumentString(`
    mutation Login($input: LoginInput!) {
  login(input: $input) {
    __typename
    ... on AuthPayload {
      expiresAt
      user {
        id
        email
        name
      }
    }
    ...Failure
    ... on RateLimitError {
      retryAfter
    }
  }
}
    fragment Failure on Error {
  message
  ... on ValidationError {
    field
  }
}`) as unknown as TypedDocumentString<LoginMutation, LoginMutationVariables>;
export const CreateStreamDocument = new TypedDocumentString(`
    mutation CreateStream($input: CreateStreamInput!) {
  createStream(input: $input) {
    __typename
    ... on Stream {
      id
    }
    ...Failure
  }
}
    fragment Failure on Error {
  message
  ... on ValidationError {
    field
  }
}`) as unknown as TypedDocumentString<CreateStreamMutation, CreateStreamMutationVariables>;
export const SigningKeysDocument = new TypedDocumentString(`
    query SigningKeys {
  signingKeysConnection(page: {first: 100}) {
    nodes {
      id
      kid
      name
      status
      createdAt
      lastUsedAt
    }
  }
}
    `) as unknown as TypedDocumentString<SigningKeysQuery, SigningKeysQueryVariables>;
export const CreateSigningKeyDocument = new TypedDocumentString(`
    mutation CreateSigningKey($input: CreateSigningKeyInput!) {
  createSigningKey(input: $input) {
    __typename
    ... on CreateSigningKeySuccess {
      privateKeyPem
      signingKey {
        id
        kid
        name
      }
    }
    ...Failure
  }
}
    fragment Failure on Error {
  message
  ... on ValidationError {
    field
  }
}`) as unknown as TypedDocumentString<CreateSigningKeyMutation, CreateSigningKeyMutationVariables>;
export const RevokeSigningKeyDocument = new TypedDocumentString(`
    mutation RevokeSigningKey($id: ID!) {
  revokeSigningKey(id: $id) {
    __typename
    ... on DeleteSuccess {
      deletedId
    }
    ...Failure
  }
}
    fragment Failure on Error {
  message
  ... on ValidationError {
    field
  }
}`) as unknown as TypedDocumentString<RevokeSigningKeyMutation, RevokeSigningKeyMutationVariables>;
export const StreamAnalyticsDocument = new TypedDocumentString(`
    query StreamAnalytics($streamId: ID!, $timeRange: TimeRangeInput!) {
  analytics {
    usage {
      streaming {
        streamAnalyticsDailyConnection(
          streamId: $streamId
          timeRange: $timeRange
          page: {first: 366}
        ) {
          nodes {
            day
            totalViews
            uniqueViewers
            egressBytes
            peakConcurrentViewers
          }
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<StreamAnalyticsQuery, StreamAnalyticsQueryVariables>;
export const IngestDocument = new TypedDocumentString(`
    query Ingest($streamKey: String!) {
  resolveIngestEndpoint(streamKey: $streamKey) {
    primary {
      nodeId
      rtmpUrl
      rtmpsUrl
      srtUrl
      whipUrl
    }
  }
}
    `) as unknown as TypedDocumentString<IngestQuery, IngestQueryVariables>;
export const StreamKeysDocument = new TypedDocumentString(`
    query StreamKeys($streamId: ID!) {
  streamKeysConnection(streamId: $streamId, page: {first: 100}) {
    nodes {
      id
      keyName
      isActive
      isPrimary
      lastUsedAt
      createdAt
    }
  }
}
    `) as unknown as TypedDocumentString<StreamKeysQuery, StreamKeysQueryVariables>;
export const CreateStreamKeyDocument = new TypedDocumentString(`
    mutation CreateStreamKey($streamId: ID!, $input: CreateStreamKeyInput!) {
  createStreamKey(streamId: $streamId, input: $input) {
    __typename
    ... on StreamKey {
      id
      keyName
      keyValue
    }
    ...Failure
  }
}
    fragment Failure on Error {
  message
  ... on ValidationError {
    field
  }
}`) as unknown as TypedDocumentString<CreateStreamKeyMutation, CreateStreamKeyMutationVariables>;
export const RotateStreamKeyDocument = new TypedDocumentString(`
    mutation RotateStreamKey($id: ID!) {
  refreshStreamKey(id: $id) {
    __typename
    ... on Stream {
      id
      streamKey
    }
    ...Failure
  }
}
    fragment Failure on Error {
  message
  ... on ValidationError {
    field
  }
}`) as unknown as TypedDocumentString<RotateStreamKeyMutation, RotateStreamKeyMutationVariables>;
export const DeleteStreamKeyDocument = new TypedDocumentString(`
    mutation DeleteStreamKey($streamId: ID!, $keyId: ID!) {
  deleteStreamKey(streamId: $streamId, keyId: $keyId) {
    __typename
    ... on DeleteSuccess {
      deletedId
    }
    ...Failure
  }
}
    fragment Failure on Error {
  message
  ... on ValidationError {
    field
  }
}`) as unknown as TypedDocumentString<DeleteStreamKeyMutation, DeleteStreamKeyMutationVariables>;
export const ActiveSigningKeysDocument = new TypedDocumentString(`
    query ActiveSigningKeys {
  signingKeysConnection(status: ACTIVE, page: {first: 100}) {
    nodes {
      id
      kid
      name
    }
  }
}
    `) as unknown as TypedDocumentString<ActiveSigningKeysQuery, ActiveSigningKeysQueryVariables>;
export const SetPlaybackPolicyDocument = new TypedDocumentString(`
    mutation SetPlaybackPolicy($input: SetPlaybackPolicyInput!) {
  setPlaybackPolicy(input: $input) {
    __typename
    ... on Stream {
      id
      playbackPolicy {
        type
        jwt {
          allowedKids
        }
        webhook {
          url
          timeoutMs
          secretMasked
        }
      }
    }
    ...Failure
  }
}
    fragment Failure on Error {
  message
  ... on ValidationError {
    field
  }
}`) as unknown as TypedDocumentString<SetPlaybackPolicyMutation, SetPlaybackPolicyMutationVariables>;
export const PushTargetsDocument = new TypedDocumentString(`
    query PushTargets($id: ID!) {
  stream(id: $id) {
    id
    pushTargets {
      id
      name
      platform
      targetUri
      isEnabled
      status
      lastError
      bitrateKbps
      bytesSent
      lastPushedAt
    }
  }
}
    `) as unknown as TypedDocumentString<PushTargetsQuery, PushTargetsQueryVariables>;
export const CreatePushTargetDocument = new TypedDocumentString(`
    mutation CreatePushTarget($streamId: ID!, $input: CreatePushTargetInput!) {
  createPushTarget(streamId: $streamId, input: $input) {
    __typename
    ... on PushTarget {
      id
    }
    ...Failure
  }
}
    fragment Failure on Error {
  message
  ... on ValidationError {
    field
  }
}`) as unknown as TypedDocumentString<CreatePushTargetMutation, CreatePushTargetMutationVariables>;
export const UpdatePushTargetDocument = new TypedDocumentString(`
    mutation UpdatePushTarget($id: ID!, $input: UpdatePushTargetInput!) {
  updatePushTarget(id: $id, input: $input) {
    __typename
    ... on PushTarget {
      id
      isEnabled
    }
    ...Failure
  }
}
    fragment Failure on Error {
  message
  ... on ValidationError {
    field
  }
}`) as unknown as TypedDocumentString<UpdatePushTargetMutation, UpdatePushTargetMutationVariables>;
export const DeletePushTargetDocument = new TypedDocumentString(`
    mutation DeletePushTarget($id: ID!) {
  deletePushTarget(id: $id) {
    __typename
    ... on DeleteSuccess {
      deletedId
    }
    ...Failure
  }
}
    fragment Failure on Error {
  message
  ... on ValidationError {
    field
  }
}`) as unknown as TypedDocumentString<DeletePushTargetMutation, DeletePushTargetMutationVariables>;
export const StreamArtifactsDocument = new TypedDocumentString(`
    query StreamArtifacts($id: ID!, $input: StorageArtifactsInput) {
  stream(id: $id) {
    id
    name
    record
    metrics {
      status
    }
  }
  storageArtifactsConnection(input: $input) {
    totalCount
    nodes {
      id
      kind
      hash
      playbackId
      title
      status
      durationSeconds
      sizeBytes
      createdAt
      errorMessage
    }
  }
}
    `) as unknown as TypedDocumentString<StreamArtifactsQuery, StreamArtifactsQueryVariables>;
export const StartDvrDocument = new TypedDocumentString(`
    mutation StartDvr($streamId: ID!) {
  startDVR(streamId: $streamId) {
    __typename
    ... on DVRRequest {
      dvrHash
      status
    }
    ...Failure
  }
}
    fragment Failure on Error {
  message
  ... on ValidationError {
    field
  }
}`) as unknown as TypedDocumentString<StartDvrMutation, StartDvrMutationVariables>;
export const StopDvrDocument = new TypedDocumentString(`
    mutation StopDvr($dvrHash: ID!) {
  stopDVR(dvrHash: $dvrHash) {
    __typename
    ... on DeleteSuccess {
      deletedId
    }
    ...Failure
  }
}
    fragment Failure on Error {
  message
  ... on ValidationError {
    field
  }
}`) as unknown as TypedDocumentString<StopDvrMutation, StopDvrMutationVariables>;
export const CreateClipDocument = new TypedDocumentString(`
    mutation CreateClip($input: CreateClipInput!) {
  createClip(input: $input) {
    __typename
    ... on Clip {
      id
      playbackId
      title
      status
    }
    ...Failure
  }
}
    fragment Failure on Error {
  message
  ... on ValidationError {
    field
  }
}`) as unknown as TypedDocumentString<CreateClipMutation, CreateClipMutationVariables>;
export const DeleteClipDocument = new TypedDocumentString(`
    mutation DeleteClip($id: ID!) {
  deleteClip(id: $id) {
    __typename
    ... on DeleteSuccess {
      deletedId
    }
    ...Failure
  }
}
    fragment Failure on Error {
  message
  ... on ValidationError {
    field
  }
}`) as unknown as TypedDocumentString<DeleteClipMutation, DeleteClipMutationVariables>;
export const RecordingDvrEventsDocument = new TypedDocumentString(`
    subscription RecordingDvrEvents($streamId: ID!) {
  liveDvrLifecycle(streamId: $streamId) {
    eventId
    status
  }
}
    `) as unknown as TypedDocumentString<RecordingDvrEventsSubscription, RecordingDvrEventsSubscriptionVariables>;
export const RecordingStorageEventsDocument = new TypedDocumentString(`
    subscription RecordingStorageEvents($streamId: ID!) {
  liveStorageEvents(streamId: $streamId) {
    eventId
    action
  }
}
    `) as unknown as TypedDocumentString<RecordingStorageEventsSubscription, RecordingStorageEventsSubscriptionVariables>;
export const StreamDocument = new TypedDocumentString(`
    query Stream($id: ID!) {
  stream(id: $id) {
    id
    streamId
    name
    playbackId
    streamKey
    record
    ingestMode
    createdAt
    pullSource {
      sourceUriRedacted
      enabled
      onDemand
    }
    metrics {
      status
      isLive
      currentViewers
      startedAt
      nodeId
      reconnects
      pull {
        state
        attempt
        failures
        lastError
      }
    }
    tracks {
      trackId
      trackType
      codec
      codecString
      width
      height
      fps
      bitrateKbps
      channels
      sampleRate
      keyframeIntervalMs
    }
    playbackPolicy {
      type
      jwt {
        allowedKids
      }
      webhook {
        url
        timeoutMs
        secretMasked
      }
    }
  }
}
    `) as unknown as TypedDocumentString<StreamQuery, StreamQueryVariables>;
export const DeleteStreamDocument = new TypedDocumentString(`
    mutation DeleteStream($id: ID!) {
  deleteStream(id: $id) {
    __typename
    ... on DeleteSuccess {
      deletedId
    }
    ...Failure
  }
}
    fragment Failure on Error {
  message
  ... on ValidationError {
    field
  }
}`) as unknown as TypedDocumentString<DeleteStreamMutation, DeleteStreamMutationVariables>;
export const ViewerMetricsDocument = new TypedDocumentString(`
    subscription ViewerMetrics($streamId: ID!) {
  liveViewerMetrics(streamId: $streamId) {
    currentViewers
    egressBytesPerSecond
    timestamp
  }
}
    `) as unknown as TypedDocumentString<ViewerMetricsSubscription, ViewerMetricsSubscriptionVariables>;
export const StreamsDocument = new TypedDocumentString(`
    query Streams($page: ConnectionInput, $search: String) {
  streamsConnection(page: $page, search: $search) {
    totalCount
    pageInfo {
      startCursor
      endCursor
      hasNextPage
      hasPreviousPage
    }
    nodes {
      id
      name
      createdAt
      ingestMode
      metrics {
        status
        currentViewers
      }
    }
  }
}
    `) as unknown as TypedDocumentString<StreamsQuery, StreamsQueryVariables>;
export const DeveloperTokensDocument = new TypedDocumentString(`
    query DeveloperTokens {
  developerTokensConnection(page: {first: 100}) {
    nodes {
      id
      tokenName
      scopes
      status
      lastUsedAt
      expiresAt
      createdAt
    }
  }
}
    `) as unknown as TypedDocumentString<DeveloperTokensQuery, DeveloperTokensQueryVariables>;
export const CreateDeveloperTokenDocument = new TypedDocumentString(`
    mutation CreateDeveloperToken($input: CreateDeveloperTokenInput!) {
  createDeveloperToken(input: $input) {
    __typename
    ... on DeveloperToken {
      id
      tokenName
      tokenValue
    }
    ...Failure
  }
}
    fragment Failure on Error {
  message
  ... on ValidationError {
    field
  }
}`) as unknown as TypedDocumentString<CreateDeveloperTokenMutation, CreateDeveloperTokenMutationVariables>;
export const RevokeDeveloperTokenDocument = new TypedDocumentString(`
    mutation RevokeDeveloperToken($id: ID!) {
  revokeDeveloperToken(id: $id) {
    __typename
    ... on DeleteSuccess {
      deletedId
    }
    ...Failure
  }
}
    fragment Failure on Error {
  message
  ... on ValidationError {
    field
  }
}`) as unknown as TypedDocumentString<RevokeDeveloperTokenMutation, RevokeDeveloperTokenMutationVariables>;
export const VodAssetDocument = new TypedDocumentString(`
    query VodAsset($id: ID!) {
  vodAsset(id: $id) {
    id
    playbackId
    filename
    title
    status
    progressPercent
    sizeBytes
    storedBytes
    durationMs
    resolution
    videoCodec
    audioCodec
    errorMessage
    outputs
    createdAt
    completedAt
    thumbnailUrl
  }
}
    `) as unknown as TypedDocumentString<VodAssetQuery, VodAssetQueryVariables>;
export const VodListDocument = new TypedDocumentString(`
    query VodList($input: StorageArtifactsInput) {
  storageArtifactsConnection(input: $input) {
    totalCount
    nodes {
      id
      kind
      hash
      playbackId
      title
      status
      durationSeconds
      sizeBytes
      createdAt
      errorMessage
    }
  }
}
    `) as unknown as TypedDocumentString<VodListQuery, VodListQueryVariables>;
export const CreateVodUploadDocument = new TypedDocumentString(`
    mutation CreateVodUpload($input: CreateVodUploadInput!) {
  createVodUpload(input: $input) {
    __typename
    ... on VodUploadSession {
      id
      artifactId
      partSize
      parts {
        partNumber
        presignedUrl
      }
    }
    ...Failure
  }
}
    fragment Failure on Error {
  message
  ... on ValidationError {
    field
  }
}`) as unknown as TypedDocumentString<CreateVodUploadMutation, CreateVodUploadMutationVariables>;
export const CompleteVodUploadDocument = new TypedDocumentString(`
    mutation CompleteVodUpload($input: CompleteVodUploadInput!) {
  completeVodUpload(input: $input) {
    __typename
    ... on VodAsset {
      id
      artifactHash
      status
    }
    ...Failure
  }
}
    fragment Failure on Error {
  message
  ... on ValidationError {
    field
  }
}`) as unknown as TypedDocumentString<CompleteVodUploadMutation, CompleteVodUploadMutationVariables>;
export const AbortVodUploadDocument = new TypedDocumentString(`
    mutation AbortVodUpload($uploadId: ID!) {
  abortVodUpload(uploadId: $uploadId) {
    __typename
    ...Failure
  }
}
    fragment Failure on Error {
  message
  ... on ValidationError {
    field
  }
}`) as unknown as TypedDocumentString<AbortVodUploadMutation, AbortVodUploadMutationVariables>;
export const DeleteVodAssetDocument = new TypedDocumentString(`
    mutation DeleteVodAsset($id: ID!) {
  deleteVodAsset(id: $id) {
    __typename
    ... on DeleteSuccess {
      deletedId
    }
    ...Failure
  }
}
    fragment Failure on Error {
  message
  ... on ValidationError {
    field
  }
}`) as unknown as TypedDocumentString<DeleteVodAssetMutation, DeleteVodAssetMutationVariables>;
export const VodLifecycleDocument = new TypedDocumentString(`
    subscription VodLifecycle {
  liveVodLifecycle {
    eventId
    status
    vodHash
  }
}
    `) as unknown as TypedDocumentString<VodLifecycleSubscription, VodLifecycleSubscriptionVariables>;
export const StreamStatusEventsDocument = new TypedDocumentString(`
    subscription StreamStatusEvents($streamId: ID!) {
  liveStreamEvents(streamId: $streamId) {
    streamId
    state
    status
    timestamp
  }
}
    `) as unknown as TypedDocumentString<StreamStatusEventsSubscription, StreamStatusEventsSubscriptionVariables>;