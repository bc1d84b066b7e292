import type { GraphQLResolveInfo, GraphQLScalarType, GraphQLScalarTypeConfig } from 'graphql';
import type { AuthPayload as AuthPayloadModel, UserView as UserViewModel } from '../../domain/accounts/accounts.service.js';
import type { DeveloperTokenView as DeveloperTokenViewModel } from '../../domain/tokens/developer-tokens.service.js';
import type { StreamRecord as StreamRecordModel, StreamKeyRecord as StreamKeyRecordModel } from '../../domain/streams/stream.js';
import type { PushTargetRecord as PushTargetRecordModel } from '../../domain/push-targets/push-target.js';
import type { SigningKeyView as SigningKeyViewModel } from '../../domain/signing-keys/signing-keys.service.js';
import type { ServiceInstanceView as ServiceInstanceViewModel, NetworkStatusView as NetworkStatusViewModel } from '../../domain/node-status/public-info.service.js';
import type { AnalyticsGroup as AnalyticsGroupModel } from '../modules/analytics.js';
import type { StreamMetricsParent as StreamMetricsParentModel } from '../../domain/srt/srt.js';
import type { ClipParent as ClipParentModel, DvrRequestParent as DvrRequestParentModel } from '../modules/media-parents.js';
import type { VodAssetParent as VodAssetParentModel } from '../modules/vod-parent.js';
import type { GraphQLContext } from '../context.js';
export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
export type Omit<T, K extends keyof T> = Pick<T, Exclude<keyof T, K>>;
export type RequireFields<T, K extends keyof T> = Omit<T, K> & { [P in K]-?: NonNullable<T[P]> };
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  /** Arbitrary JSON value. */
  JSON: { input: unknown; output: unknown; }
  /** ISO 8601 UTC timestamp. */
  Time: { input: string; output: string; }
};

export type AbortVodUploadResult = AuthError | DeleteSuccess | NotFoundError | ValidationError;

/** Analytics of the caller's tenant (analytics:read). */
export type Analytics = {
  readonly __typename?: 'Analytics';
  readonly usage: AnalyticsUsage;
};

/** Usage analytics by area. */
export type AnalyticsUsage = {
  readonly __typename?: 'AnalyticsUsage';
  readonly streaming: StreamingUsage;
};

/** The caller is not signed in, or its token lacks a scope. */
export type AuthError = Error & {
  readonly __typename?: 'AuthError';
  readonly code: Scalars['String']['output'];
  readonly message: Scalars['String']['output'];
};

/** A new sign-in session. Send token as Authorization: Bearer <token>; browsers also get an httpOnly cookie. */
export type AuthPayload = {
  readonly __typename?: 'AuthPayload';
  readonly expiresAt: Scalars['Time']['output'];
  readonly token: Scalars['String']['output'];
  readonly user: User;
};

/** A GOP-aligned cut of a stream's recording with its own playback ID (HLS over CMAF and TS, DASH, MP4). */
export type Clip = {
  readonly __typename?: 'Clip';
  readonly clipHash: Scalars['String']['output'];
  readonly clipMode: ClipCreationMode;
  readonly createdAt: Scalars['Time']['output'];
  readonly description?: Maybe<Scalars['String']['output']>;
  /** Snapped duration, seconds (ends at the segment boundary after the requested end). */
  readonly duration: Scalars['Float']['output'];
  readonly effectiveRetention: EffectiveRetention;
  readonly endUnixMs: Scalars['Float']['output'];
  readonly errorMessage?: Maybe<Scalars['String']['output']>;
  readonly expiresAt?: Maybe<Scalars['Time']['output']>;
  readonly id: Scalars['ID']['output'];
  readonly isExpired: Scalars['Boolean']['output'];
  readonly playbackId: Scalars['String']['output'];
  /** Who may play the clip: its own policy (setPlaybackPolicy with clipId), else its stream's. */
  readonly playbackPolicy: PlaybackPolicy;
  readonly sizeBytes: Scalars['Float']['output'];
  /** 10 × 10 sprite sheet path. */
  readonly spriteUrl: Scalars['String']['output'];
  /** WebVTT cues (#xywh) of the sprite sheet. */
  readonly spriteVttUrl: Scalars['String']['output'];
  /** Snapped start, seconds from the recording's first frame. */
  readonly startMediaSeconds: Scalars['Float']['output'];
  /** Snapped start, epoch seconds (the keyframe at or before the requested start). */
  readonly startTime: Scalars['Float']['output'];
  readonly startUnixMs: Scalars['Float']['output'];
  /** processing (HLS over CMAF and DASH already play), ready (MP4 and TS too) or failed. */
  readonly status: Scalars['String']['output'];
  readonly streamId: Scalars['ID']['output'];
  /** Poster JPEG path (refreshed every few seconds while recording). */
  readonly thumbnailUrl: Scalars['String']['output'];
  readonly title: Scalars['String']['output'];
  readonly updatedAt: Scalars['Time']['output'];
};

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

export type ClusterStatus = {
  readonly __typename?: 'ClusterStatus';
  readonly clusterId: Scalars['String']['output'];
  readonly clusterType: Scalars['String']['output'];
  readonly currentStreams: Scalars['Int']['output'];
  readonly currentViewers: Scalars['Int']['output'];
  readonly egressCapacityMbps?: Maybe<Scalars['Float']['output']>;
  readonly egressMbps?: Maybe<Scalars['Float']['output']>;
  readonly healthyNodeCount: Scalars['Int']['output'];
  readonly ingressMbps?: Maybe<Scalars['Float']['output']>;
  readonly latitude?: Maybe<Scalars['Float']['output']>;
  readonly longitude?: Maybe<Scalars['Float']['output']>;
  readonly name: Scalars['String']['output'];
  readonly nodeCount: Scalars['Int']['output'];
  readonly peerCount: Scalars['Int']['output'];
  readonly region?: Maybe<Scalars['String']['output']>;
  readonly services: ReadonlyArray<Scalars['String']['output']>;
  readonly shortDescription?: Maybe<Scalars['String']['output']>;
  readonly status: NodeStatus;
};

export type CompleteVodUploadInput = {
  /** Every part, each once. */
  readonly parts: ReadonlyArray<VodUploadPartInput>;
  readonly uploadId: Scalars['ID']['input'];
};

export type CompleteVodUploadResult = AuthError | NotFoundError | ValidationError | VodAsset;

/** A viewer session started or ended. */
export type ConnectionEvent = {
  readonly __typename?: 'ConnectionEvent';
  /** The output that served the session (the same value as protocol). */
  readonly connector: Scalars['String']['output'];
  readonly eventId: Scalars['ID']['output'];
  /** connect or disconnect. */
  readonly eventType: Scalars['String']['output'];
  /** SRT ingest connections (connector srt): the publisher's connection statistics; null for viewers. */
  readonly ingest?: Maybe<Scalars['JSON']['output']>;
  readonly nodeId?: Maybe<Scalars['String']['output']>;
  /** Playback protocol: hls, llhls, dash, mp4 or webrtc. */
  readonly protocol: Scalars['String']['output'];
  /** On disconnect: seconds from the session's first to its last request (or connection close); null on connect. */
  readonly sessionDurationSeconds?: Maybe<Scalars['Float']['output']>;
  /** Playback session id. */
  readonly sessionId: Scalars['String']['output'];
  readonly streamId: Scalars['ID']['output'];
  readonly timestamp: Scalars['Time']['output'];
};

/** Page input: first (default 50, max 500) with after, or last with before. */
export type ConnectionInput = {
  readonly after?: InputMaybe<Scalars['String']['input']>;
  readonly before?: InputMaybe<Scalars['String']['input']>;
  readonly first?: InputMaybe<Scalars['Int']['input']>;
  readonly last?: InputMaybe<Scalars['Int']['input']>;
};

export type CreateClipInput = {
  readonly description?: InputMaybe<Scalars['String']['input']>;
  readonly duration?: InputMaybe<Scalars['Float']['input']>;
  readonly expiresAt?: InputMaybe<Scalars['Time']['input']>;
  /** Default ABSOLUTE. */
  readonly mode?: InputMaybe<ClipCreationMode>;
  readonly startMedia?: InputMaybe<Scalars['Float']['input']>;
  readonly startUnix?: InputMaybe<Scalars['Float']['input']>;
  readonly stopMedia?: InputMaybe<Scalars['Float']['input']>;
  readonly stopUnix?: InputMaybe<Scalars['Float']['input']>;
  readonly streamId: Scalars['ID']['input'];
  /** 1 to 255 characters. */
  readonly title: Scalars['String']['input'];
};

export type CreateClipResult = AuthError | Clip | NotFoundError | ValidationError;

export type CreateDeveloperTokenInput = {
  /** Lifetime in days (1 to 3650); null never expires. */
  readonly expiresIn?: InputMaybe<Scalars['Int']['input']>;
  readonly name: Scalars['String']['input'];
  /** Comma-separated scopes: streams:read, streams:write, analytics:read, developer:read, developer:write, account:read, account:write, security:read, security:write. */
  readonly permissions: Scalars['String']['input'];
};

export type CreateDeveloperTokenResult = AuthError | DeveloperToken | RateLimitError | ValidationError;

export type CreatePushTargetInput = {
  /** 1 to 255 characters. */
  readonly name: Scalars['String']['input'];
  /** twitch, youtube, facebook, kick, x or custom (default). */
  readonly platform?: InputMaybe<Scalars['String']['input']>;
  /** rtmp://host[:port]/app/key, rtmps://… or srt://host:port?streamid=…&passphrase=… */
  readonly targetUri: Scalars['String']['input'];
};

export type CreatePushTargetResult = AuthError | NotFoundError | PushTarget | ValidationError;

export type CreateSigningKeyInput = {
  /** 1 to 100 characters. */
  readonly name: Scalars['String']['input'];
};

export type CreateSigningKeyResult = AuthError | CreateSigningKeySuccess | RateLimitError | ValidationError;

/** A new signing key and its private key: returned this once, never stored. */
export type CreateSigningKeySuccess = {
  readonly __typename?: 'CreateSigningKeySuccess';
  /** PKCS#8 PEM of the private key. Keep it: it cannot be retrieved again. */
  readonly privateKeyPem: Scalars['String']['output'];
  readonly signingKey: SigningKey;
};

export type CreateStreamInput = {
  readonly description?: InputMaybe<Scalars['String']['input']>;
  /** PUSH (default) or PULL; cannot change later. */
  readonly ingestMode?: InputMaybe<IngestMode>;
  /** 1 to 255 characters after trimming. */
  readonly name: Scalars['String']['input'];
  /** Required when ingestMode is PULL. */
  readonly pullSource?: InputMaybe<PullSourceInput>;
  readonly record?: InputMaybe<Scalars['Boolean']['input']>;
  readonly sourceLocation?: InputMaybe<Scalars['String']['input']>;
};

export type CreateStreamKeyInput = {
  /** 1 to 100 characters after trimming. */
  readonly name: Scalars['String']['input'];
};

export type CreateStreamKeyResult = AuthError | NotFoundError | StreamKey | ValidationError;

export type CreateStreamResult = AuthError | Stream | ValidationError;

export type CreateVodUploadInput = {
  /** video/* or application/octet-stream. */
  readonly contentType?: InputMaybe<Scalars['String']['input']>;
  readonly description?: InputMaybe<Scalars['String']['input']>;
  /** The file's name; its extension must be a video container (mp4, mov, mkv, webm, ts, …). */
  readonly filename: Scalars['String']['input'];
  /** Exact size in bytes (at most the deployment's limit, default 20 GiB). */
  readonly sizeBytes: Scalars['Float']['input'];
  readonly title?: InputMaybe<Scalars['String']['input']>;
};

export type CreateVodUploadResult = AuthError | ValidationError | VodUploadSession;

/** A chapter of a recording: a VOD with its own playback ID (HLS over TS and CMAF, DASH, MP4). */
export type DvrChapter = {
  readonly __typename?: 'DVRChapter';
  readonly chapterId: Scalars['ID']['output'];
  readonly durationMs: Scalars['Float']['output'];
  /** A publisher reconnect lies inside the chapter. */
  readonly hasGaps: Scalars['Boolean']['output'];
  readonly isCurrent: Scalars['Boolean']['output'];
  readonly lastFailureReason?: Maybe<Scalars['String']['output']>;
  readonly playableNow: Scalars['Boolean']['output'];
  readonly playbackId: Scalars['String']['output'];
  readonly segmentCount: Scalars['Int']['output'];
  readonly sizeBytes: Scalars['Float']['output'];
  /** 10 × 10 sprite sheet path. */
  readonly spriteUrl: Scalars['String']['output'];
  /** WebVTT cues (#xywh) of the sprite sheet. */
  readonly spriteVttUrl: Scalars['String']['output'];
  readonly state: DvrChapterState;
  /** Poster JPEG path (refreshed every few seconds while recording). */
  readonly thumbnailUrl: Scalars['String']['output'];
  readonly wallClockEndUnixMs: Scalars['Float']['output'];
  readonly wallClockStartUnixMs: Scalars['Float']['output'];
};

/** How a recording is cut into chapters: WINDOW_SIZED (at its end and every node-configured interval), FIXED_INTERVAL (the stream's dvrChapterIntervalSeconds), NONE (one chapter, at its end). */
export type DvrChapterMode =
  | 'FIXED_INTERVAL'
  | 'NONE'
  | 'WINDOW_SIZED';

/** A page of chapters. */
export type DvrChapterPage = {
  readonly __typename?: 'DVRChapterPage';
  readonly chapters: ReadonlyArray<DvrChapterRef>;
  readonly nextPageToken?: Maybe<Scalars['String']['output']>;
};

/** A chapter as listed by dvrChapters. */
export type DvrChapterRef = {
  readonly __typename?: 'DVRChapterRef';
  readonly chapterId: Scalars['ID']['output'];
  readonly durationMs: Scalars['Float']['output'];
  readonly endMs: Scalars['Float']['output'];
  readonly hasGaps: Scalars['Boolean']['output'];
  readonly intervalSeconds?: Maybe<Scalars['Int']['output']>;
  readonly mode: DvrChapterMode;
  readonly playbackId: Scalars['String']['output'];
  readonly segmentCount: Scalars['Int']['output'];
  readonly sizeBytes: Scalars['Float']['output'];
  /** 10 × 10 sprite sheet path. */
  readonly spriteUrl: Scalars['String']['output'];
  /** WebVTT cues (#xywh) of the sprite sheet. */
  readonly spriteVttUrl: Scalars['String']['output'];
  readonly startMs: Scalars['Float']['output'];
  readonly state: DvrChapterState;
  /** Poster JPEG path (refreshed every few seconds while recording). */
  readonly thumbnailUrl: Scalars['String']['output'];
};

/** Where a chapter is in its life; it plays at FINALIZED (HLS over CMAF and DASH play from FINALIZING on). */
export type DvrChapterState =
  | 'CLOSED'
  | 'FAILED_PERMANENT'
  | 'FAILED_SOURCE_MISSING'
  | 'FINALIZED'
  | 'FINALIZING'
  | 'FROZEN'
  | 'OPEN'
  | 'RECLAIMED';

/** A recording (DVR) of a live stream. */
export type DvrRequest = {
  readonly __typename?: 'DVRRequest';
  readonly createdAt: Scalars['Time']['output'];
  readonly durationSeconds: Scalars['Float']['output'];
  readonly dvrHash: Scalars['String']['output'];
  /** How long the recording is kept (null while it records). */
  readonly effectiveRetention?: Maybe<EffectiveRetention>;
  readonly endedAt?: Maybe<Scalars['Time']['output']>;
  readonly errorMessage?: Maybe<Scalars['String']['output']>;
  readonly expiresAt?: Maybe<Scalars['Time']['output']>;
  readonly id: Scalars['ID']['output'];
  readonly isExpired: Scalars['Boolean']['output'];
  readonly isFinalized: Scalars['Boolean']['output'];
  /** Playlist path of the whole recording under the playback origin. */
  readonly manifestPath: Scalars['String']['output'];
  /** Plays the whole recording (HLS over CMAF, DASH), growing while it records. */
  readonly playbackId: Scalars['String']['output'];
  readonly segmentCount: Scalars['Int']['output'];
  readonly sizeBytes: Scalars['Float']['output'];
  /** 10 × 10 sprite sheet path. */
  readonly spriteUrl: Scalars['String']['output'];
  /** WebVTT cues (#xywh) of the sprite sheet. */
  readonly spriteVttUrl: Scalars['String']['output'];
  readonly startedAt?: Maybe<Scalars['Time']['output']>;
  /** requested, starting, recording, finalizing, completed, completed_partial, failed or deleted. */
  readonly status: Scalars['String']['output'];
  /** local or s3. */
  readonly storageLocation: Scalars['String']['output'];
  readonly streamId: Scalars['ID']['output'];
  /** Poster JPEG path (refreshed every few seconds while recording). */
  readonly thumbnailUrl: Scalars['String']['output'];
  readonly updatedAt: Scalars['Time']['output'];
};

export type DeleteClipResult = AuthError | DeleteSuccess | NotFoundError | ValidationError;

export type DeleteDvrResult = AuthError | DeleteSuccess | NotFoundError | ValidationError;

export type DeletePushTargetResult = AuthError | DeleteSuccess | NotFoundError | ValidationError;

export type DeleteStreamKeyResult = AuthError | DeleteSuccess | NotFoundError | ValidationError;

export type DeleteStreamResult = AuthError | DeleteSuccess | NotFoundError | ValidationError;

/** A deletion (or revocation) was accepted. */
export type DeleteSuccess = {
  readonly __typename?: 'DeleteSuccess';
  readonly deletedId: Scalars['ID']['output'];
  /** True when the deletion was accepted and finishes in the background; false when it is already complete. */
  readonly pending: Scalars['Boolean']['output'];
  readonly success: Scalars['Boolean']['output'];
};

export type DeleteVodAssetResult = AuthError | DeleteSuccess | NotFoundError | ValidationError;

/** A developer API token. Its value appears only in the createDeveloperToken result. */
export type DeveloperToken = {
  readonly __typename?: 'DeveloperToken';
  readonly createdAt: Scalars['Time']['output'];
  /** Null: never expires. */
  readonly expiresAt?: Maybe<Scalars['Time']['output']>;
  readonly id: Scalars['ID']['output'];
  readonly lastUsedAt?: Maybe<Scalars['Time']['output']>;
  /** Comma-separated scopes, e.g. streams:read,streams:write. */
  readonly permissions: Scalars['String']['output'];
  /** The same scopes as a list. */
  readonly scopes: ReadonlyArray<Scalars['String']['output']>;
  /** active, revoked or expired. */
  readonly status: Scalars['String']['output'];
  readonly tokenName: Scalars['String']['output'];
  /** The secret value: only in the createDeveloperToken result, null everywhere else. */
  readonly tokenValue?: Maybe<Scalars['String']['output']>;
};

export type DeveloperTokenConnection = {
  readonly __typename?: 'DeveloperTokenConnection';
  readonly edges: ReadonlyArray<DeveloperTokenEdge>;
  readonly nodes: ReadonlyArray<DeveloperToken>;
  readonly pageInfo: PageInfo;
  readonly totalCount: Scalars['Int']['output'];
};

export type DeveloperTokenEdge = {
  readonly __typename?: 'DeveloperTokenEdge';
  readonly cursor: Scalars['String']['output'];
  readonly node: DeveloperToken;
};

/** A recording (DVR) lifecycle change. */
export type DvrLifecycleEvent = {
  readonly __typename?: 'DvrLifecycleEvent';
  readonly dvrHash: Scalars['String']['output'];
  readonly endedAt?: Maybe<Scalars['Time']['output']>;
  readonly error?: Maybe<Scalars['String']['output']>;
  readonly eventId: Scalars['ID']['output'];
  readonly manifestPath?: Maybe<Scalars['String']['output']>;
  readonly nodeId?: Maybe<Scalars['String']['output']>;
  readonly playbackId?: Maybe<Scalars['String']['output']>;
  readonly segmentCount?: Maybe<Scalars['Int']['output']>;
  readonly sizeBytes?: Maybe<Scalars['Float']['output']>;
  readonly startedAt?: Maybe<Scalars['Time']['output']>;
  readonly status: DvrLifecycleStatus;
  readonly streamId: Scalars['ID']['output'];
  readonly timestamp: Scalars['Time']['output'];
};

/** Stage of a recording. */
export type DvrLifecycleStatus =
  | 'DELETED'
  | 'FAILED'
  | 'RECORDING'
  | 'STARTED'
  | 'STOPPED';

/** How long an asset is kept. */
export type EffectiveRetention = {
  readonly __typename?: 'EffectiveRetention';
  /** Days that apply (0: kept until deleted); for an asset's own end, whole days left. */
  readonly retentionDays: Scalars['Int']['output'];
  /** When it is deleted; null: not before it is deleted by hand (or while it is still recording). */
  readonly retentionUntil?: Maybe<Scalars['Time']['output']>;
  readonly source: RetentionSource;
};

/** An expected failure returned as a union member of a mutation result. */
export type Error = {
  readonly code: Scalars['String']['output'];
  readonly message: Scalars['String']['output'];
};

/** Statistics of an ingest connection (SRT) as its node last reported them (every 5 s and at the end). */
export type IngestConnection = {
  readonly __typename?: 'IngestConnection';
  /** Receive rate over the last second, bits per second. */
  readonly bitrateBps: Scalars['Float']['output'];
  readonly bytesReceived: Scalars['Float']['output'];
  /** False once the connection ended (the numbers are its totals). */
  readonly connected: Scalars['Boolean']['output'];
  readonly connectedAt: Scalars['Time']['output'];
  readonly encrypted: Scalars['Boolean']['output'];
  /** Negotiated TSBPD latency. */
  readonly latencyMs: Scalars['Int']['output'];
  readonly nodeId: Scalars['String']['output'];
  /** Packets given up at their delivery time (too late). */
  readonly packetsDropped: Scalars['Float']['output'];
  /** Packets found missing before retransmission. */
  readonly packetsLost: Scalars['Float']['output'];
  readonly packetsReceived: Scalars['Float']['output'];
  /** Packets that arrived retransmitted. */
  readonly packetsRetransmitted: Scalars['Float']['output'];
  /** srt. */
  readonly protocol: Scalars['String']['output'];
  /** Packets waiting in the receive buffer. */
  readonly receiveBufferPackets: Scalars['Int']['output'];
  /** The publisher's address and port. */
  readonly remote: Scalars['String']['output'];
  /** Smoothed round-trip time (ACK to ACKACK). */
  readonly rttMs: Scalars['Float']['output'];
  readonly sessionId: Scalars['String']['output'];
  readonly updatedAt: Scalars['Time']['output'];
};

/** Where an encoder pushes: RTMP(S), SRT and WHIP URLs of one node, each carrying the stream key. */
export type IngestEndpoint = {
  readonly __typename?: 'IngestEndpoint';
  readonly baseUrl: Scalars['String']['output'];
  readonly clusterId: Scalars['String']['output'];
  readonly kind: IngestEndpointKind;
  /** Lower is less loaded (live streams on the node). */
  readonly loadScore?: Maybe<Scalars['Float']['output']>;
  readonly nodeId: Scalars['String']['output'];
  readonly region?: Maybe<Scalars['String']['output']>;
  /** rtmp://host:port/live/<streamKey> */
  readonly rtmpUrl?: Maybe<Scalars['String']['output']>;
  /** rtmps://host:port/live/<streamKey> when RTMPS is configured. */
  readonly rtmpsUrl?: Maybe<Scalars['String']['output']>;
  /** srt://host:port?streamid=<streamKey> (SRT caller, MPEG-TS; #!::r=<streamKey>,m=publish also works). */
  readonly srtUrl?: Maybe<Scalars['String']['output']>;
  /** <baseUrl>/webrtc/<streamKey> (WHIP); null when the node does not serve WHIP. */
  readonly whipUrl?: Maybe<Scalars['String']['output']>;
};

export type IngestEndpointKind =
  | 'INGEST_ENDPOINT_KIND_CLUSTER_POOL'
  | 'INGEST_ENDPOINT_KIND_NODE_SPECIFIC'
  | 'INGEST_ENDPOINT_KIND_ROOT_POOL'
  | 'INGEST_ENDPOINT_KIND_TENANT_ALIAS'
  | 'INGEST_ENDPOINT_KIND_UNSPECIFIED';

export type IngestEndpointResponse = {
  readonly __typename?: 'IngestEndpointResponse';
  readonly fallbacks: ReadonlyArray<IngestEndpoint>;
  readonly metadata?: Maybe<IngestMetadata>;
  readonly primary: IngestEndpoint;
};

export type IngestMetadata = {
  readonly __typename?: 'IngestMetadata';
  readonly recordingEnabled: Scalars['Boolean']['output'];
  /** UUID of the stream the key publishes to. */
  readonly streamId: Scalars['ID']['output'];
  readonly title?: Maybe<Scalars['String']['output']>;
};

/** PUSH: an encoder pushes (RTMP, SRT, WHIP). PULL: the service pulls pullSource.sourceUri. */
export type IngestMode =
  | 'PULL'
  | 'PUSH';

export type InstanceStatus =
  | 'ERROR'
  | 'RUNNING'
  | 'STARTING'
  | 'STOPPED'
  | 'STOPPING'
  | 'UNKNOWN';

export type JwtPlaybackPolicy = {
  readonly __typename?: 'JwtPlaybackPolicy';
  /** Kids accepted; empty accepts any active signing key of the account. */
  readonly allowedKids: ReadonlyArray<Scalars['String']['output']>;
};

export type JwtPlaybackPolicyInput = {
  /** Kids of active signing keys of this account; empty or omitted accepts any active key. */
  readonly allowedKids?: InputMaybe<ReadonlyArray<Scalars['String']['input']>>;
};

export type LoginInput = {
  readonly email: Scalars['String']['input'];
  readonly password: Scalars['String']['input'];
};

export type LoginResult = AuthError | AuthPayload | RateLimitError | ValidationError;

/** The session ended. */
export type LogoutPayload = {
  readonly __typename?: 'LogoutPayload';
  readonly success: Scalars['Boolean']['output'];
};

export type LogoutResult = AuthError | LogoutPayload;

/** The account's default retention per class (days from an asset's completion; 0: kept until deleted). */
export type MediaRetentionPolicy = {
  readonly __typename?: 'MediaRetentionPolicy';
  readonly defaultClipRetentionDays?: Maybe<Scalars['Int']['output']>;
  readonly defaultDvrRetentionDays?: Maybe<Scalars['Int']['output']>;
  /** Null: the service default applies. */
  readonly defaultVodRetentionDays?: Maybe<Scalars['Int']['output']>;
  readonly effectiveClipRetentionDays: Scalars['Int']['output'];
  readonly effectiveDvrRetentionDays: Scalars['Int']['output'];
  readonly effectiveVodRetentionDays: Scalars['Int']['output'];
  readonly updatedAt?: Maybe<Scalars['Time']['output']>;
};

/** Classes of stored media with a retention of their own (chapters go with their recording). */
export type MediaRetentionTarget =
  | 'CLIP'
  | 'DVR'
  | 'VOD';

export type Mutation = {
  readonly __typename?: 'Mutation';
  /** Aborts an upload; the store drops its parts. */
  readonly abortVodUpload: AbortVodUploadResult;
  /** Joins the uploaded parts and starts processing. */
  readonly completeVodUpload: CompleteVodUploadResult;
  /** Cuts a GOP-aligned clip of a stream's recording (live or finished) without re-encoding. */
  readonly createClip: CreateClipResult;
  /** Creates a developer token; its value is returned this once (developer tokens need developer:write). */
  readonly createDeveloperToken: CreateDeveloperTokenResult;
  /** Adds a push target to one of the caller's streams (enabled; pushed while the stream is live). */
  readonly createPushTarget: CreatePushTargetResult;
  /** Generates an ES256 key pair; the private key is returned this once (security:write). */
  readonly createSigningKey: CreateSigningKeyResult;
  readonly createStream: CreateStreamResult;
  /** Adds an active key (at most 20 per stream). */
  readonly createStreamKey: CreateStreamKeyResult;
  /** Starts a multipart upload: a presigned URL for every part. */
  readonly createVodUpload: CreateVodUploadResult;
  /** Deletes a clip and its renditions (the recording stays). */
  readonly deleteClip: DeleteClipResult;
  /** Deletes a recording with its chapters, clips and stored bytes. */
  readonly deleteDVR: DeleteDvrResult;
  /** Deletes a push target; a running push stops within a second. */
  readonly deletePushTarget: DeletePushTargetResult;
  /** Deletes the stream and its keys, and ends a live publish. */
  readonly deleteStream: DeleteStreamResult;
  /** Deletes a non-primary key; it stops working at once. */
  readonly deleteStreamKey: DeleteStreamKeyResult;
  /** Deletes an asset and every object it owns. */
  readonly deleteVodAsset: DeleteVodAssetResult;
  /** Signs in with email and password. Repeated failures are rate limited per email and per IP. */
  readonly login: LoginResult;
  /** Ends the current session (token and cookie). */
  readonly logout: LogoutResult;
  /** Always true. */
  readonly noop?: Maybe<Scalars['Boolean']['output']>;
  /** Rotates the primary stream key; the old value stops working at once. */
  readonly refreshStreamKey: RefreshStreamKeyResult;
  /** Creates an account (a new tenant and its first user) and signs it in. */
  readonly register: RegisterResult;
  /** Drops an asset's own retention (and a clip's creation-time expiresAt). */
  readonly resetMediaRetentionOverride: UpdateMediaRetentionResult;
  /** Revokes a developer token at once (developer tokens need developer:write). */
  readonly revokeDeveloperToken: RevokeDeveloperTokenResult;
  /** Revokes a signing key; its tokens stop playing at once (security:write). */
  readonly revokeSigningKey: RevokeSigningKeyResult;
  /** Sets or clears the account's default retention of a class (account:write). */
  readonly setMediaRetentionPolicy: SetMediaRetentionPolicyResult;
  /** Sets who may play a stream (and what was recorded of it) or one clip; takes effect at once (security:write). */
  readonly setPlaybackPolicy: SetPlaybackPolicyResult;
  /** Sets or clears a stream's retention of its recordings and clips. */
  readonly setStreamRetentionOverrides: SetStreamRetentionOverridesResult;
  /** Sets the stream's own SRT passphrase (10 to 79 printable ASCII characters; overrides the node's), or clears it with null. Write-only. SRT publishers must then encrypt with it (AES-128/192/256); a wrong one is refused. */
  readonly setStreamSrtPassphrase: SetStreamSrtPassphraseResult;
  /** Starts recording a live stream that is not recording. */
  readonly startDVR: StartDvrResult;
  /** Stops a recording; its last chapter is cut and it is finalized. */
  readonly stopDVR: StopDvrResult;
  /** What the playback gate would decide for a playback ID and token, without serving media (security:read). */
  readonly testPlaybackAccess: TestPlaybackAccessResult;
  /** Gives one recording, clip or VOD asset its own retention. */
  readonly updateMediaRetention: UpdateMediaRetentionResult;
  /** Renames, re-points, enables or disables a push target. */
  readonly updatePushTarget: UpdatePushTargetResult;
  readonly updateStream: UpdateStreamResult;
};


export type MutationAbortVodUploadArgs = {
  uploadId: Scalars['ID']['input'];
};


export type MutationCompleteVodUploadArgs = {
  input: CompleteVodUploadInput;
};


export type MutationCreateClipArgs = {
  input: CreateClipInput;
};


export type MutationCreateDeveloperTokenArgs = {
  input: CreateDeveloperTokenInput;
};


export type MutationCreatePushTargetArgs = {
  input: CreatePushTargetInput;
  streamId: Scalars['ID']['input'];
};


export type MutationCreateSigningKeyArgs = {
  input: CreateSigningKeyInput;
};


export type MutationCreateStreamArgs = {
  input: CreateStreamInput;
};


export type MutationCreateStreamKeyArgs = {
  input: CreateStreamKeyInput;
  streamId: Scalars['ID']['input'];
};


export type MutationCreateVodUploadArgs = {
  input: CreateVodUploadInput;
};


export type MutationDeleteClipArgs = {
  id: Scalars['ID']['input'];
};


export type MutationDeleteDvrArgs = {
  dvrHash: Scalars['ID']['input'];
};


export type MutationDeletePushTargetArgs = {
  id: Scalars['ID']['input'];
};


export type MutationDeleteStreamArgs = {
  id: Scalars['ID']['input'];
};


export type MutationDeleteStreamKeyArgs = {
  keyId: Scalars['ID']['input'];
  streamId: Scalars['ID']['input'];
};


export type MutationDeleteVodAssetArgs = {
  id: Scalars['ID']['input'];
};


export type MutationLoginArgs = {
  input: LoginInput;
};


export type MutationRefreshStreamKeyArgs = {
  id: Scalars['ID']['input'];
};


export type MutationRegisterArgs = {
  input: RegisterInput;
};


export type MutationResetMediaRetentionOverrideArgs = {
  input: ResetMediaRetentionOverrideInput;
};


export type MutationRevokeDeveloperTokenArgs = {
  id: Scalars['ID']['input'];
};


export type MutationRevokeSigningKeyArgs = {
  id: Scalars['ID']['input'];
};


export type MutationSetMediaRetentionPolicyArgs = {
  input: SetMediaRetentionPolicyInput;
};


export type MutationSetPlaybackPolicyArgs = {
  input: SetPlaybackPolicyInput;
};


export type MutationSetStreamRetentionOverridesArgs = {
  input: SetStreamRetentionOverridesInput;
};


export type MutationSetStreamSrtPassphraseArgs = {
  passphrase?: InputMaybe<Scalars['String']['input']>;
  streamId: Scalars['ID']['input'];
};


export type MutationStartDvrArgs = {
  streamId: Scalars['ID']['input'];
};


export type MutationStopDvrArgs = {
  dvrHash: Scalars['ID']['input'];
};


export type MutationTestPlaybackAccessArgs = {
  input: TestPlaybackAccessInput;
};


export type MutationUpdateMediaRetentionArgs = {
  input: UpdateMediaRetentionInput;
};


export type MutationUpdatePushTargetArgs = {
  id: Scalars['ID']['input'];
  input: UpdatePushTargetInput;
};


export type MutationUpdateStreamArgs = {
  id: Scalars['ID']['input'];
  input: UpdateStreamInput;
};

/** A node of the deployment with its health and the load of its last heartbeat. */
export type NetworkNode = {
  readonly __typename?: 'NetworkNode';
  readonly baseUrl: Scalars['String']['output'];
  readonly clusterId: Scalars['String']['output'];
  /** CPU of the node process, % of its machine. */
  readonly cpuPercent: Scalars['Float']['output'];
  readonly egressCapacityMbps: Scalars['Float']['output'];
  readonly egressMbps: Scalars['Float']['output'];
  readonly lastHeartbeat: Scalars['Time']['output'];
  readonly latitude?: Maybe<Scalars['Float']['output']>;
  readonly longitude?: Maybe<Scalars['Float']['output']>;
  /** NORMAL or DRAINING (never chosen for new viewers). */
  readonly mode: Scalars['String']['output'];
  readonly name: Scalars['String']['output'];
  readonly nodeId: Scalars['String']['output'];
  /** all-in-one (control plane and media) or media (ingest and playback only). */
  readonly nodeType: Scalars['String']['output'];
  readonly region?: Maybe<Scalars['String']['output']>;
  /** HEALTHY; DEGRADED when draining or at its egress capacity; UNHEALTHY when stopped or silent for three heartbeats. */
  readonly status: NodeStatus;
  /** Live streams held (ingested or relayed). */
  readonly streams: Scalars['Int']['output'];
  readonly viewers: Scalars['Int']['output'];
};

export type NetworkStatus = {
  readonly __typename?: 'NetworkStatus';
  readonly clusters: ReadonlyArray<ClusterStatus>;
  readonly healthyNodes: Scalars['Int']['output'];
  readonly nodes: ReadonlyArray<NetworkNode>;
  readonly peerConnections: ReadonlyArray<PeerConnection>;
  /** This node's listening services (what serviceInstancesHealth answers). */
  readonly serviceInstances: ReadonlyArray<ServiceInstance>;
  readonly totalNodes: Scalars['Int']['output'];
  readonly updatedAt: Scalars['Time']['output'];
};

export type NodeStatus =
  | 'DEGRADED'
  | 'HEALTHY'
  | 'UNHEALTHY';

/** The resource does not exist for this tenant. */
export type NotFoundError = Error & {
  readonly __typename?: 'NotFoundError';
  readonly code: Scalars['String']['output'];
  readonly message: Scalars['String']['output'];
  readonly resourceId?: Maybe<Scalars['String']['output']>;
  readonly resourceType?: Maybe<Scalars['String']['output']>;
};

/** Relay page info. */
export type PageInfo = {
  readonly __typename?: 'PageInfo';
  readonly endCursor?: Maybe<Scalars['String']['output']>;
  readonly hasNextPage: Scalars['Boolean']['output'];
  readonly hasPreviousPage: Scalars['Boolean']['output'];
  readonly startCursor?: Maybe<Scalars['String']['output']>;
};

export type PeerConnection = {
  readonly __typename?: 'PeerConnection';
  readonly connected: Scalars['Boolean']['output'];
  readonly connectionType: Scalars['String']['output'];
  readonly sourceCluster: Scalars['String']['output'];
  readonly targetCluster: Scalars['String']['output'];
};

/** What the playback gate decides for a request. */
export type PlaybackAccessDecision = {
  readonly __typename?: 'PlaybackAccessDecision';
  readonly allowed: Scalars['Boolean']['output'];
  /** The verified token's claims as a JSON object (JWT policy, when allowed). */
  readonly claimsJson?: Maybe<Scalars['String']['output']>;
  readonly detail: Scalars['String']['output'];
  /** The kid the token named. */
  readonly kid?: Maybe<Scalars['String']['output']>;
  readonly policyType: PlaybackPolicyType;
  /** public, jwt-valid, webhook-allow, or a deny reason such as missing-token, jwt-expired, webhook-deny-403, webhook-timeout. */
  readonly reason: Scalars['String']['output'];
  readonly webhookLatencyMs?: Maybe<Scalars['Int']['output']>;
  readonly webhookStatus?: Maybe<Scalars['Int']['output']>;
};

/** What is being played. */
export type PlaybackMetadata = {
  readonly __typename?: 'PlaybackMetadata';
  readonly contentId: Scalars['String']['output'];
  /** live, vod, dvr (a recording) or clip (a chapter or clip). */
  readonly contentType: Scalars['String']['output'];
  readonly description?: Maybe<Scalars['String']['output']>;
  readonly isLive: Scalars['Boolean']['output'];
  /** The content's status (a live stream: OFFLINE, LIVE, RECONNECTING). */
  readonly status: Scalars['String']['output'];
  readonly title?: Maybe<Scalars['String']['output']>;
  readonly tracks: ReadonlyArray<PlaybackTrack>;
  /** Viewers over every node. */
  readonly viewers: Scalars['Int']['output'];
};

/** Who may play a stream. */
export type PlaybackPolicy = {
  readonly __typename?: 'PlaybackPolicy';
  readonly jwt?: Maybe<JwtPlaybackPolicy>;
  readonly type: PlaybackPolicyType;
  readonly webhook?: Maybe<WebhookPlaybackPolicy>;
};

export type PlaybackPolicyInput = {
  readonly jwt?: InputMaybe<JwtPlaybackPolicyInput>;
  readonly type: PlaybackPolicyType;
  readonly webhook?: InputMaybe<WebhookPlaybackPolicyInput>;
};

/** PUBLIC: no token needed (the default). JWT: an ES256 token signed by one of your keys. WEBHOOK: your endpoint decides. */
export type PlaybackPolicyType =
  | 'JWT'
  | 'PUBLIC'
  | 'WEBHOOK';

/** One track of the content. */
export type PlaybackTrack = {
  readonly __typename?: 'PlaybackTrack';
  readonly bitrateKbps?: Maybe<Scalars['Int']['output']>;
  readonly channels?: Maybe<Scalars['Int']['output']>;
  readonly codec: Scalars['String']['output'];
  readonly height?: Maybe<Scalars['Int']['output']>;
  readonly sampleRate?: Maybe<Scalars['Int']['output']>;
  /** video or audio. */
  readonly type: Scalars['String']['output'];
  readonly width?: Maybe<Scalars['Int']['output']>;
};

/** Progress of processing work (transcode, thumbnails, VOD processing) of a stream or an uploaded VOD asset. */
export type ProcessingEvent = {
  readonly __typename?: 'ProcessingEvent';
  readonly durationMs?: Maybe<Scalars['Float']['output']>;
  readonly error?: Maybe<Scalars['String']['output']>;
  readonly eventId: Scalars['ID']['output'];
  readonly inputCodec?: Maybe<Scalars['String']['output']>;
  readonly nodeId?: Maybe<Scalars['String']['output']>;
  readonly outputCodec?: Maybe<Scalars['String']['output']>;
  readonly playbackId?: Maybe<Scalars['String']['output']>;
  /** What runs: transcode, thumbnail, sprite, vod, … */
  readonly processType: Scalars['String']['output'];
  readonly progressPercent?: Maybe<Scalars['Float']['output']>;
  readonly stage: ProcessingEventStage;
  /** The stream the work is for; null for VOD uploads. */
  readonly streamId?: Maybe<Scalars['ID']['output']>;
  readonly timestamp: Scalars['Time']['output'];
  /** video or audio. */
  readonly trackType?: Maybe<Scalars['String']['output']>;
  /** The VOD asset being processed (processType vod). */
  readonly vodHash?: Maybe<Scalars['String']['output']>;
};

/** Stage of processing work. */
export type ProcessingEventStage =
  | 'COMPLETED'
  | 'FAILED'
  | 'PROGRESS'
  | 'STARTED';

/** One connection attempt's outcome. */
export type PullSourceEvent = {
  readonly __typename?: 'PullSourceEvent';
  /** The address dialled, when the attempt got that far. */
  readonly address?: Maybe<Scalars['String']['output']>;
  readonly attempt: Scalars['Int']['output'];
  readonly createdAt: Scalars['Time']['output'];
  /** connected, failed, stalled, source_ended, not_found, private_not_allowed, blocked_uri, redirected or disabled. */
  readonly eventKind: Scalars['String']['output'];
  readonly id: Scalars['ID']['output'];
  readonly message: Scalars['String']['output'];
  readonly nodeId: Scalars['String']['output'];
};

export type PullSourceInput = {
  /** Default true; false stops pulling. */
  readonly enabled?: InputMaybe<Scalars['Boolean']['input']>;
  /** Default false (pull always while enabled); true pulls only when a viewer asks. */
  readonly onDemand?: InputMaybe<Scalars['Boolean']['input']>;
  /** rtsp, rtsps, srt, rist, http(s) (.m3u8, .ts, .mkv, .webm), dtsc or udp (MPEG-TS). RTMP and FLV pull are unsupported. */
  readonly sourceUri?: InputMaybe<Scalars['String']['input']>;
};

/** A pull source as read back: the URI with credentials and query values redacted. */
export type PullSourceView = {
  readonly __typename?: 'PullSourceView';
  /** Clusters allowed to pull it; empty: any. Airwave runs one cluster, so a pull source is never pinned. */
  readonly allowedClusterIds: ReadonlyArray<Scalars['String']['output']>;
  /** public or private (private addresses need AIRWAVE_ALLOW_PRIVATE_PULL_SOURCES). */
  readonly class: Scalars['String']['output'];
  readonly enabled: Scalars['Boolean']['output'];
  /** Pulled only while viewers watch; otherwise always while enabled. */
  readonly onDemand: Scalars['Boolean']['output'];
  readonly sourceUriRedacted: Scalars['String']['output'];
};

/** Phase of a pull: connecting to the source, pulling media, waiting to retry, or stopped. */
export type PullState =
  | 'CONNECTING'
  | 'PULLING'
  | 'RETRYING'
  | 'STOPPED';

/** The pull of a PULL stream as the node pulling it reports it. */
export type PullStatus = {
  readonly __typename?: 'PullStatus';
  /** Attempts since the pull started on that node. */
  readonly attempt: Scalars['Int']['output'];
  /** Consecutive failed attempts (the backoff grows with them). */
  readonly failures: Scalars['Int']['output'];
  /** What ended the last attempt (credentials redacted). */
  readonly lastError?: Maybe<Scalars['String']['output']>;
  /** When the next attempt starts (RETRYING). */
  readonly nextAttemptAt?: Maybe<Scalars['Time']['output']>;
  /** The node pulling (holding the pull's lease). */
  readonly nodeId: Scalars['String']['output'];
  readonly state: PullState;
  readonly updatedAt: Scalars['Time']['output'];
};

/** A restream destination of a stream: while the stream is live and the target enabled, its default output is pushed there. */
export type PushTarget = {
  readonly __typename?: 'PushTarget';
  /** Bitrate sent over the last seconds, in kbit/s (0 when not pushing). */
  readonly bitrateKbps: Scalars['Int']['output'];
  /** Bytes sent to the destination since the stream went live. */
  readonly bytesSent: Scalars['Float']['output'];
  readonly createdAt: Scalars['Time']['output'];
  /** Media units skipped because the destination read too slowly (the push resumes at the next keyframe). */
  readonly droppedUnits: Scalars['Float']['output'];
  /** Global ID. */
  readonly id: Scalars['ID']['output'];
  readonly isEnabled: Scalars['Boolean']['output'];
  /** Why the last attempt failed or ended (no secrets). */
  readonly lastError?: Maybe<Scalars['String']['output']>;
  /** When media was last sent. */
  readonly lastPushedAt?: Maybe<Scalars['Time']['output']>;
  readonly name: Scalars['String']['output'];
  /** twitch, youtube, facebook, kick, x or custom. */
  readonly platform: Scalars['String']['output'];
  /** idle, connecting, pushing, retrying (the last attempt failed; the next one is scheduled) or failed (several attempts in a row failed; retries go on). */
  readonly status: Scalars['String']['output'];
  /** UUID of the stream it belongs to. */
  readonly streamId: Scalars['ID']['output'];
  /** The destination with credentials, query and fragment stripped and the stream key cut to a short prefix. */
  readonly targetUri: Scalars['String']['output'];
  readonly updatedAt: Scalars['Time']['output'];
};

export type Query = {
  readonly __typename?: 'Query';
  /** Analytics of the caller's tenant; needs analytics:read. */
  readonly analytics: Analytics;
  /** A clip of the caller's tenant by ID or clip hash. */
  readonly clip?: Maybe<Clip>;
  /** The tenant's developer tokens, oldest first (developer tokens need developer:read). */
  readonly developerTokensConnection: DeveloperTokenConnection;
  /** The chapter of a recording covering a wall-clock range (epoch ms), or null. */
  readonly dvrChapter?: Maybe<DvrChapter>;
  /** Chapters of a recording (dvrHash or UUID) overlapping a wall-clock range (epoch ms). */
  readonly dvrChapters: DvrChapterPage;
  /** The signed-in user (developer tokens need account:read). */
  readonly me: User;
  /** The account's default retention per class (account:read). */
  readonly mediaRetentionPolicy: MediaRetentionPolicy;
  /** Public. Clusters and nodes of this deployment. */
  readonly networkStatus: NetworkStatus;
  /** Always true; a cheap liveness probe. */
  readonly ping: Scalars['Boolean']['output'];
  /** Public. Ingest URLs for a stream key; NOT_FOUND for an unknown or inactive key; 60 lookups per minute per client IP. */
  readonly resolveIngestEndpoint?: Maybe<IngestEndpointResponse>;
  /** Public. Where to play contentId (a playback id), for the caller's IP (from a trusted proxy's X-Forwarded-For or Forwarded, else the connection); gated content needs its playback token in X-Airwave-Playback-JWT. VALIDATION_ERROR (field viewerIp) when the IP cannot be determined. */
  readonly resolveViewerEndpoint: ViewerEndpointResponse;
  /** Public. The listening services of every node (optionally one serviceId). */
  readonly serviceInstancesHealth: ReadonlyArray<ServiceInstance>;
  /** A signing key of the account (developer tokens need security:read). */
  readonly signingKey?: Maybe<SigningKey>;
  /** The account's signing keys, oldest first (developer tokens need security:read). */
  readonly signingKeysConnection: SigningKeysConnection;
  /** Recordings, chapters, clips and VOD uploads of the caller's tenant. */
  readonly storageArtifactsConnection: StorageArtifactsConnection;
  /** A stream of the caller's tenant by global ID (or UUID); NOT_FOUND otherwise. */
  readonly stream?: Maybe<Stream>;
  /** Keys of one of the caller's streams, newest first. */
  readonly streamKeysConnection: StreamKeysConnection;
  /** The caller's streams, newest first; search filters by name. */
  readonly streamsConnection: StreamsConnection;
  /** One of the caller's VOD assets (global ID, UUID or artifact hash). */
  readonly vodAsset?: Maybe<VodAsset>;
  /** An upload's state and the parts the store holds. */
  readonly vodUploadStatus: VodUploadStatusResult;
};


export type QueryClipArgs = {
  id: Scalars['ID']['input'];
};


export type QueryDeveloperTokensConnectionArgs = {
  page?: InputMaybe<ConnectionInput>;
};


export type QueryDvrChapterArgs = {
  dvrId: Scalars['ID']['input'];
  endMs: Scalars['Float']['input'];
  intervalSeconds?: InputMaybe<Scalars['Int']['input']>;
  mode?: InputMaybe<DvrChapterMode>;
  startMs: Scalars['Float']['input'];
};


export type QueryDvrChaptersArgs = {
  dvrId: Scalars['ID']['input'];
  intervalSeconds?: InputMaybe<Scalars['Int']['input']>;
  mode?: InputMaybe<DvrChapterMode>;
  pageSize?: InputMaybe<Scalars['Int']['input']>;
  pageToken?: InputMaybe<Scalars['String']['input']>;
  rangeEndMs?: InputMaybe<Scalars['Float']['input']>;
  rangeStartMs?: InputMaybe<Scalars['Float']['input']>;
};


export type QueryResolveIngestEndpointArgs = {
  streamKey: Scalars['String']['input'];
};


export type QueryResolveViewerEndpointArgs = {
  contentId: Scalars['String']['input'];
};


export type QueryServiceInstancesHealthArgs = {
  serviceId?: InputMaybe<Scalars['String']['input']>;
};


export type QuerySigningKeyArgs = {
  id: Scalars['ID']['input'];
};


export type QuerySigningKeysConnectionArgs = {
  page?: InputMaybe<ConnectionInput>;
  status?: InputMaybe<SigningKeyStatus>;
};


export type QueryStorageArtifactsConnectionArgs = {
  input?: InputMaybe<StorageArtifactsInput>;
};


export type QueryStreamArgs = {
  id: Scalars['ID']['input'];
};


export type QueryStreamKeysConnectionArgs = {
  page?: InputMaybe<ConnectionInput>;
  streamId: Scalars['ID']['input'];
};


export type QueryStreamsConnectionArgs = {
  page?: InputMaybe<ConnectionInput>;
  search?: InputMaybe<Scalars['String']['input']>;
};


export type QueryVodAssetArgs = {
  id: Scalars['ID']['input'];
};


export type QueryVodUploadStatusArgs = {
  uploadId: Scalars['ID']['input'];
};

/** Too many requests. */
export type RateLimitError = Error & {
  readonly __typename?: 'RateLimitError';
  readonly code: Scalars['String']['output'];
  readonly message: Scalars['String']['output'];
  /** Seconds to wait before retrying. */
  readonly retryAfter?: Maybe<Scalars['Int']['output']>;
};

export type RefreshStreamKeyResult = AuthError | NotFoundError | Stream | ValidationError;

export type RegisterInput = {
  readonly email: Scalars['String']['input'];
  readonly name?: InputMaybe<Scalars['String']['input']>;
  /** 8 to 1024 characters. */
  readonly password: Scalars['String']['input'];
};

export type RegisterResult = AuthPayload | ValidationError;

export type ResetMediaRetentionOverrideInput = {
  readonly targetId: Scalars['ID']['input'];
  readonly targetType: MediaRetentionTarget;
};

/** Where an effective retention comes from; TIER_ENTITLEMENT is the service default (DVR and clips 30 days, VOD kept). */
export type RetentionSource =
  | 'PER_ASSET_OVERRIDE'
  | 'PER_STREAM_OVERRIDE'
  | 'TENANT_DEFAULT'
  | 'TIER_ENTITLEMENT';

export type RevokeDeveloperTokenResult = AuthError | DeleteSuccess | NotFoundError | ValidationError;

export type RevokeSigningKeyResult = AuthError | DeleteSuccess | NotFoundError | ValidationError;

/** One listening service of a node. */
export type ServiceInstance = {
  readonly __typename?: 'ServiceInstance';
  readonly clusterId: Scalars['String']['output'];
  readonly healthEndpoint?: Maybe<Scalars['String']['output']>;
  readonly host: Scalars['String']['output'];
  readonly instanceId: Scalars['String']['output'];
  /** The node's last heartbeat. */
  readonly lastHealthCheck?: Maybe<Scalars['Time']['output']>;
  /** The node it runs on. */
  readonly nodeId: Scalars['String']['output'];
  readonly port: Scalars['Int']['output'];
  readonly protocol: Scalars['String']['output'];
  /** graphql (control-plane nodes), playback (media-only nodes), rtmp or rtmps. */
  readonly serviceId: Scalars['String']['output'];
  /** RUNNING while its node heartbeats; STOPPED once the node stopped cleanly; UNKNOWN when it went silent. */
  readonly status: InstanceStatus;
};

export type SetMediaRetentionPolicyInput = {
  /** true: back to the service default. */
  readonly clear?: InputMaybe<Scalars['Boolean']['input']>;
  /** 0 to 3650; 0 keeps assets until deleted. Required unless clear. */
  readonly days?: InputMaybe<Scalars['Int']['input']>;
  readonly targetType: MediaRetentionTarget;
};

export type SetMediaRetentionPolicyResult = AuthError | MediaRetentionPolicy | ValidationError;

/** Exactly one of streamId and clipId. */
export type SetPlaybackPolicyInput = {
  /** Clip global ID, UUID or clip hash: that clip only (instead of its stream's policy). */
  readonly clipId?: InputMaybe<Scalars['ID']['input']>;
  readonly policy: PlaybackPolicyInput;
  /** Stream global ID (or UUID): its live output, recordings, chapters and clips. */
  readonly streamId?: InputMaybe<Scalars['ID']['input']>;
  /** VodAsset global ID, UUID or artifact hash: that asset only (uploads are public until set). */
  readonly vodAssetId?: InputMaybe<Scalars['ID']['input']>;
};

export type SetPlaybackPolicyResult = AuthError | Clip | NotFoundError | Stream | ValidationError | VodAsset;

export type SetStreamRetentionOverridesInput = {
  readonly clearClipRetentionOverride?: InputMaybe<Scalars['Boolean']['input']>;
  /** true: the account default applies again (wins over a value). */
  readonly clearDvrRetentionOverride?: InputMaybe<Scalars['Boolean']['input']>;
  readonly clipRetentionDaysOverride?: InputMaybe<Scalars['Int']['input']>;
  /** 0 to 3650 days; 0 keeps until deleted; omitted: unchanged. */
  readonly dvrRetentionDaysOverride?: InputMaybe<Scalars['Int']['input']>;
  /** Stream global ID (or UUID). */
  readonly streamId: Scalars['ID']['input'];
};

export type SetStreamRetentionOverridesResult = AuthError | NotFoundError | StreamRetentionOverrides | ValidationError;

export type SetStreamSrtPassphraseResult = AuthError | NotFoundError | StreamSrtSettings | ValidationError;

/** An ES256 (ECDSA P-256) key that signs playback tokens. Only its public half is stored. */
export type SigningKey = {
  readonly __typename?: 'SigningKey';
  /** Always ES256. */
  readonly algorithm: Scalars['String']['output'];
  readonly createdAt: Scalars['Time']['output'];
  readonly id: Scalars['ID']['output'];
  /** Goes in the JWT header of every token this key signs. */
  readonly kid: Scalars['String']['output'];
  /** Last time a token signed by this key was accepted (minute resolution). */
  readonly lastUsedAt?: Maybe<Scalars['Time']['output']>;
  readonly name: Scalars['String']['output'];
  /** SPKI PEM of the public key. */
  readonly publicKeyPem: Scalars['String']['output'];
  readonly revokedAt?: Maybe<Scalars['Time']['output']>;
  readonly status: SigningKeyStatus;
};

export type SigningKeyEdge = {
  readonly __typename?: 'SigningKeyEdge';
  readonly cursor: Scalars['String']['output'];
  readonly node: SigningKey;
};

export type SigningKeyStatus =
  | 'ACTIVE'
  | 'REVOKED';

export type SigningKeysConnection = {
  readonly __typename?: 'SigningKeysConnection';
  readonly edges: ReadonlyArray<SigningKeyEdge>;
  readonly nodes: ReadonlyArray<SigningKey>;
  readonly pageInfo: PageInfo;
  readonly totalCount: Scalars['Int']['output'];
};

export type StartDvrResult = AuthError | DvrRequest | NotFoundError | ValidationError;

export type StopDvrResult = AuthError | DeleteSuccess | NotFoundError | ValidationError;

/** A recording, chapter or clip in storage. */
export type StorageArtifact = {
  readonly __typename?: 'StorageArtifact';
  readonly createdAt: Scalars['Time']['output'];
  readonly durationSeconds: Scalars['Float']['output'];
  /** How long it is kept; null for chapters (they go with their recording) and recordings still recording. */
  readonly effectiveRetention?: Maybe<EffectiveRetention>;
  readonly errorMessage?: Maybe<Scalars['String']['output']>;
  readonly expiresAt?: Maybe<Scalars['Time']['output']>;
  readonly hash: Scalars['String']['output'];
  readonly id: Scalars['ID']['output'];
  readonly key: Scalars['String']['output'];
  readonly kind: StorageArtifactKind;
  readonly playbackId: Scalars['String']['output'];
  readonly sizeBytes: Scalars['Float']['output'];
  /** Recordings: their status; chapters and clips: processing, ready or failed; VOD: uploading, processing, ready or failed. */
  readonly status: Scalars['String']['output'];
  /** The stream it was recorded from; null for VOD uploads. */
  readonly streamId?: Maybe<Scalars['ID']['output']>;
  /** Poster JPEG path. */
  readonly thumbnailUrl: Scalars['String']['output'];
  readonly title?: Maybe<Scalars['String']['output']>;
};

/** What storageArtifactsConnection lists. */
export type StorageArtifactKind =
  | 'CHAPTER'
  | 'CLIP'
  | 'DVR'
  | 'VOD';

/** Storage artifacts, offset-paged. */
export type StorageArtifactsConnection = {
  readonly __typename?: 'StorageArtifactsConnection';
  readonly hasNextPage: Scalars['Boolean']['output'];
  readonly limit: Scalars['Int']['output'];
  readonly nodes: ReadonlyArray<StorageArtifact>;
  readonly offset: Scalars['Int']['output'];
  readonly totalCount: Scalars['Int']['output'];
};

export type StorageArtifactsInput = {
  /** Page size, 0..500 (default 25). */
  readonly first?: InputMaybe<Scalars['Int']['input']>;
  /** Default DVR, CLIP and VOD; CHAPTER lists chapters; VOD uploads are not listed for a streamId. */
  readonly kinds?: InputMaybe<ReadonlyArray<StorageArtifactKind>>;
  readonly offset?: InputMaybe<Scalars['Int']['input']>;
  readonly streamId?: InputMaybe<Scalars['ID']['input']>;
};

/** A storage artifact moved to or from object storage. */
export type StorageEvent = {
  readonly __typename?: 'StorageEvent';
  readonly action: StorageEventAction;
  readonly assetHash: Scalars['String']['output'];
  /** clip, chapter, dvr, vod or thumbnail. */
  readonly assetType: Scalars['String']['output'];
  readonly durationMs?: Maybe<Scalars['Float']['output']>;
  readonly error?: Maybe<Scalars['String']['output']>;
  readonly eventId: Scalars['ID']['output'];
  readonly localPath?: Maybe<Scalars['String']['output']>;
  readonly nodeId?: Maybe<Scalars['String']['output']>;
  readonly s3Url?: Maybe<Scalars['String']['output']>;
  readonly sizeBytes?: Maybe<Scalars['Float']['output']>;
  readonly streamId: Scalars['ID']['output'];
  readonly timestamp: Scalars['Time']['output'];
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

/** A live stream. */
export type Stream = {
  readonly __typename?: 'Stream';
  readonly createdAt: Scalars['Time']['output'];
  readonly description?: Maybe<Scalars['String']['output']>;
  /** FIXED_INTERVAL: the chapter length in seconds; null otherwise. */
  readonly dvrChapterIntervalSeconds?: Maybe<Scalars['Int']['output']>;
  /** How the stream's recordings are cut into chapters (read when a recording starts). */
  readonly dvrChapterMode: DvrChapterMode;
  /** Global ID: the argument of every stream operation. */
  readonly id: Scalars['ID']['output'];
  /** The current or last SRT connection of the stream; null before any. */
  readonly ingestConnection?: Maybe<IngestConnection>;
  readonly ingestMode: IngestMode;
  readonly metrics: StreamMetrics;
  readonly name: Scalars['String']['output'];
  /** Public viewer ID used in /play URLs. */
  readonly playbackId: Scalars['String']['output'];
  /** Who may play this stream (PUBLIC unless setPlaybackPolicy changed it). */
  readonly playbackPolicy: PlaybackPolicy;
  readonly pullSource?: Maybe<PullSourceView>;
  /** Restream destinations (push targets), oldest first. */
  readonly pushTargets: ReadonlyArray<PushTarget>;
  /** Newest connection attempts of the pull source first (empty for PUSH streams); limit 0..100. */
  readonly recentPullSourceEvents: ReadonlyArray<PullSourceEvent>;
  readonly record: Scalars['Boolean']['output'];
  /** The stream's own retention of its recordings and clips. */
  readonly retentionOverrides: StreamRetentionOverrides;
  readonly sourceLocation?: Maybe<Scalars['String']['output']>;
  /** Whether SRT publishers need the stream's own passphrase. */
  readonly srtPassphraseSet: Scalars['Boolean']['output'];
  /** Public UUID, used outside GraphQL. */
  readonly streamId: Scalars['ID']['output'];
  /** Secret primary ingest key (shown to the owner only). */
  readonly streamKey: Scalars['String']['output'];
  readonly tracks: ReadonlyArray<StreamTrack>;
  readonly updatedAt: Scalars['Time']['output'];
};


/** A live stream. */
export type StreamRecentPullSourceEventsArgs = {
  limit?: InputMaybe<Scalars['Int']['input']>;
};

/** Playback of one stream on one UTC day, over every node and protocol. */
export type StreamAnalyticsDaily = {
  readonly __typename?: 'StreamAnalyticsDaily';
  /** The UTC day, YYYY-MM-DD. */
  readonly day: Scalars['String']['output'];
  /** Media bytes sent to viewers that day. */
  readonly egressBytes: Scalars['Float']['output'];
  readonly id: Scalars['ID']['output'];
  /** Most viewers at once (per-minute peaks summed over nodes). */
  readonly peakConcurrentViewers: Scalars['Int']['output'];
  /** Global ID of the stream. */
  readonly streamId: Scalars['ID']['output'];
  /** Playback sessions started that day. */
  readonly totalViews: Scalars['Int']['output'];
  /** Distinct viewers that day (a salted hash of IP and user agent; the salt changes every UTC day). */
  readonly uniqueViewers: Scalars['Int']['output'];
  /** Seconds watched, summed over sessions. */
  readonly viewerSeconds: Scalars['Float']['output'];
};

export type StreamAnalyticsDailyConnection = {
  readonly __typename?: 'StreamAnalyticsDailyConnection';
  readonly edges: ReadonlyArray<StreamAnalyticsDailyEdge>;
  readonly nodes: ReadonlyArray<StreamAnalyticsDaily>;
  readonly pageInfo: PageInfo;
  readonly totalCount: Scalars['Int']['output'];
};

export type StreamAnalyticsDailyEdge = {
  readonly __typename?: 'StreamAnalyticsDailyEdge';
  readonly cursor: Scalars['String']['output'];
  readonly node: StreamAnalyticsDaily;
};

export type StreamEdge = {
  readonly __typename?: 'StreamEdge';
  readonly cursor: Scalars['String']['output'];
  readonly node: Stream;
};

/** A stream lifecycle change. */
export type StreamEvent = {
  readonly __typename?: 'StreamEvent';
  /** Further facts (tracks, ingest protocol) as JSON. */
  readonly details?: Maybe<Scalars['JSON']['output']>;
  /** Unique id of the event; de-duplicate by it. */
  readonly eventId: Scalars['ID']['output'];
  /** Global ID of the event. */
  readonly id: Scalars['ID']['output'];
  /** Node that hosts the publisher, when known. */
  readonly nodeId?: Maybe<Scalars['String']['output']>;
  /** Why it changed (publisher dropped, reconnect window elapsed, …). */
  readonly reason?: Maybe<Scalars['String']['output']>;
  /** LIVE: subscriptions start from the moment of subscribing and replay no history. */
  readonly source: StreamEventSource;
  /** Lowercase lifecycle state: live, reconnecting or offline. */
  readonly state: Scalars['String']['output'];
  /** The same state as a stream status. */
  readonly status: StreamStatus;
  /** Stream UUID (Stream.streamId). */
  readonly streamId: Scalars['ID']['output'];
  /** When the change happened. */
  readonly timestamp: Scalars['Time']['output'];
  /** What kind of change this is. */
  readonly type: StreamEventType;
};

/** Whether an event was replayed from history or happened after subscribing. */
export type StreamEventSource =
  | 'HISTORICAL'
  | 'LIVE';

/** Kind of a stream event (the values of research/frameworks.md §1.1; lifecycle changes use the first three). */
export type StreamEventType =
  | 'BUFFER_UPDATE'
  | 'PLAY_REWRITE'
  /** The stream ended (offline). */
  | 'STREAM_END'
  /** Any other lifecycle change (reconnecting). */
  | 'STREAM_LIFECYCLE_UPDATE'
  | 'STREAM_SOURCE'
  /** The stream went live. */
  | 'STREAM_START'
  | 'TRACK_LIST_UPDATE';

/** An ingest key of a stream. Any active key may publish to its stream. */
export type StreamKey = {
  readonly __typename?: 'StreamKey';
  readonly createdAt: Scalars['Time']['output'];
  /** Global ID. */
  readonly id: Scalars['ID']['output'];
  /** False once rotated out by refreshStreamKey. */
  readonly isActive: Scalars['Boolean']['output'];
  /** The key shown as Stream.streamKey. */
  readonly isPrimary: Scalars['Boolean']['output'];
  readonly keyName: Scalars['String']['output'];
  /** Secret key value (shown to the owner only). */
  readonly keyValue: Scalars['String']['output'];
  readonly lastUsedAt?: Maybe<Scalars['Time']['output']>;
  /** UUID of the stream it belongs to. */
  readonly streamId: Scalars['ID']['output'];
};

export type StreamKeyEdge = {
  readonly __typename?: 'StreamKeyEdge';
  readonly cursor: Scalars['String']['output'];
  readonly node: StreamKey;
};

export type StreamKeysConnection = {
  readonly __typename?: 'StreamKeysConnection';
  readonly edges: ReadonlyArray<StreamKeyEdge>;
  readonly nodes: ReadonlyArray<StreamKey>;
  readonly pageInfo: PageInfo;
  readonly totalCount: Scalars['Int']['output'];
};

/** Live metrics as reported by the media plane. */
export type StreamMetrics = {
  readonly __typename?: 'StreamMetrics';
  /** Viewers of the live stream over every node (the ingesting node and the edges relaying it). */
  readonly currentViewers: Scalars['Int']['output'];
  readonly isLive: Scalars['Boolean']['output'];
  /** The node that reported last. */
  readonly nodeId?: Maybe<Scalars['String']['output']>;
  /** SRT: packets found missing before retransmission (current or last connection). */
  readonly packetsLost?: Maybe<Scalars['Float']['output']>;
  /** SRT: packets that arrived retransmitted (current or last connection). */
  readonly packetsRetransmitted?: Maybe<Scalars['Float']['output']>;
  /** SRT: packets the publisher sent, as received on the current or last connection; null without one. */
  readonly packetsSent?: Maybe<Scalars['Float']['output']>;
  /** The pull's state (PULL streams); null before any node pulled it. */
  readonly pull?: Maybe<PullStatus>;
  /** Times the publisher dropped in the current live session (the stream waited in RECONNECTING for it), as this node's event feed saw them (counted since the node started); null where the node keeps no count. */
  readonly reconnects?: Maybe<Scalars['Int']['output']>;
  /** When the current (or last) publish started. */
  readonly startedAt?: Maybe<Scalars['Time']['output']>;
  readonly status: StreamStatus;
  readonly trackCount: Scalars['Int']['output'];
  /** When the media plane last reported on this stream. */
  readonly updatedAt?: Maybe<Scalars['Time']['output']>;
};

/** A stream's own retention of its recordings and clips (null: the account default). */
export type StreamRetentionOverrides = {
  readonly __typename?: 'StreamRetentionOverrides';
  readonly clipRetentionDaysOverride?: Maybe<Scalars['Int']['output']>;
  readonly dvrRetentionDaysOverride?: Maybe<Scalars['Int']['output']>;
  /** Stream UUID. */
  readonly streamId: Scalars['ID']['output'];
};

/** A stream's SRT settings after a change. */
export type StreamSrtSettings = {
  readonly __typename?: 'StreamSrtSettings';
  /** True when SRT publishers must use the stream's own passphrase (write-only: never shown). */
  readonly passphraseSet: Scalars['Boolean']['output'];
  /** Stream UUID. */
  readonly streamId: Scalars['ID']['output'];
};

/** Live status of a stream. RECONNECTING: the encoder dropped and may return within the reconnect window. */
export type StreamStatus =
  | 'ENDED'
  | 'LIVE'
  | 'OFFLINE'
  | 'RECONNECTING'
  | 'RECORDING';

/** One track of the live stream as last reported. */
export type StreamTrack = {
  readonly __typename?: 'StreamTrack';
  readonly bitrateKbps?: Maybe<Scalars['Int']['output']>;
  readonly channels?: Maybe<Scalars['Int']['output']>;
  /** h264, h265, av1, vp9, aac or opus. */
  readonly codec: Scalars['String']['output'];
  /** RFC 6381 codec string, e.g. avc1.64001f. */
  readonly codecString: Scalars['String']['output'];
  readonly fps?: Maybe<Scalars['Float']['output']>;
  readonly height?: Maybe<Scalars['Int']['output']>;
  /** Video: milliseconds between the last two key frames the ingest node received (null until two were seen). */
  readonly keyframeIntervalMs?: Maybe<Scalars['Int']['output']>;
  readonly sampleRate?: Maybe<Scalars['Int']['output']>;
  readonly trackId: Scalars['Int']['output'];
  /** video or audio. */
  readonly trackType: Scalars['String']['output'];
  readonly width?: Maybe<Scalars['Int']['output']>;
};

/** Streaming usage analytics. */
export type StreamingUsage = {
  readonly __typename?: 'StreamingUsage';
  /** Days of a stream with viewers in timeRange, oldest first. streamId is the Stream global ID; timeRange is required and spans at most a year. */
  readonly streamAnalyticsDailyConnection: StreamAnalyticsDailyConnection;
};


/** Streaming usage analytics. */
export type StreamingUsageStreamAnalyticsDailyConnectionArgs = {
  page?: InputMaybe<ConnectionInput>;
  streamId: Scalars['ID']['input'];
  timeRange: TimeRangeInput;
};

export type StreamsConnection = {
  readonly __typename?: 'StreamsConnection';
  readonly edges: ReadonlyArray<StreamEdge>;
  readonly nodes: ReadonlyArray<Stream>;
  readonly pageInfo: PageInfo;
  readonly totalCount: Scalars['Int']['output'];
};

export type Subscription = {
  readonly __typename?: 'Subscription';
  /** Each viewer connect and disconnect of one stream. */
  readonly liveConnectionEvents: ConnectionEvent;
  /** Recording lifecycle of one stream. */
  readonly liveDvrLifecycle: DvrLifecycleEvent;
  /** Processing progress of one stream, or of the tenant (VOD uploads included) without streamId. */
  readonly liveProcessingEvents: ProcessingEvent;
  /** Storage artifact events of one stream. */
  readonly liveStorageEvents: StorageEvent;
  /** Lifecycle of one stream (state live, reconnecting, offline). */
  readonly liveStreamEvents: StreamEvent;
  /** Viewer count and egress of one live stream, every 2 s while it is live. */
  readonly liveViewerMetrics: ViewerMetrics;
  /** VOD asset and upload lifecycle of the tenant, or of one stream's assets. */
  readonly liveVodLifecycle: VodLifecycleEvent;
};


export type SubscriptionLiveConnectionEventsArgs = {
  streamId: Scalars['ID']['input'];
};


export type SubscriptionLiveDvrLifecycleArgs = {
  streamId: Scalars['ID']['input'];
};


export type SubscriptionLiveProcessingEventsArgs = {
  streamId?: InputMaybe<Scalars['ID']['input']>;
};


export type SubscriptionLiveStorageEventsArgs = {
  streamId: Scalars['ID']['input'];
};


export type SubscriptionLiveStreamEventsArgs = {
  streamId: Scalars['ID']['input'];
};


export type SubscriptionLiveViewerMetricsArgs = {
  streamId: Scalars['ID']['input'];
};


export type SubscriptionLiveVodLifecycleArgs = {
  streamId?: InputMaybe<Scalars['ID']['input']>;
};

export type TestPlaybackAccessInput = {
  /** The output the request would come through (hls, llhls, dash, mp4, webrtc; default test), as the webhook sees it; at most 32 characters. */
  readonly connector?: InputMaybe<Scalars['String']['input']>;
  /** false: do not call the webhook (reason webhook-test-skipped). Default true. */
  readonly fireWebhook?: InputMaybe<Scalars['Boolean']['input']>;
  readonly playbackId: Scalars['String']['input'];
  readonly requestUrl?: InputMaybe<Scalars['String']['input']>;
  /** The viewer session id the webhook sees (default a new test-… id); at most 128 characters. */
  readonly sessionId?: InputMaybe<Scalars['String']['input']>;
  /** The viewer token (JWT policy). */
  readonly token?: InputMaybe<Scalars['String']['input']>;
  readonly viewerIp?: InputMaybe<Scalars['String']['input']>;
};

export type TestPlaybackAccessResult = AuthError | NotFoundError | PlaybackAccessDecision | ValidationError;

/** A time range of ISO 8601 UTC timestamps; analytics count the UTC days from start's to end's (at most 366). */
export type TimeRangeInput = {
  readonly end: Scalars['Time']['input'];
  readonly start: Scalars['Time']['input'];
};

export type UpdateMediaRetentionInput = {
  /** Kept this many days from now (0: until deleted). Exactly one of retentionDays and retentionUntil. */
  readonly retentionDays?: InputMaybe<Scalars['Int']['input']>;
  /** Deleted at this time (in the future). */
  readonly retentionUntil?: InputMaybe<Scalars['Time']['input']>;
  /** The recording (DVRRequest ID or dvrHash), clip or VOD asset. */
  readonly targetId: Scalars['ID']['input'];
  readonly targetType: MediaRetentionTarget;
};

export type UpdateMediaRetentionResult = AuthError | EffectiveRetention | NotFoundError | ValidationError;

export type UpdatePushTargetInput = {
  /** false stops a running push within a second. */
  readonly isEnabled?: InputMaybe<Scalars['Boolean']['input']>;
  readonly name?: InputMaybe<Scalars['String']['input']>;
  readonly targetUri?: InputMaybe<Scalars['String']['input']>;
};

export type UpdatePushTargetResult = AuthError | NotFoundError | PushTarget | ValidationError;

export type UpdateStreamInput = {
  readonly description?: InputMaybe<Scalars['String']['input']>;
  /** FIXED_INTERVAL only: chapter length, 3600 to 604800 seconds. */
  readonly dvrChapterIntervalSeconds?: InputMaybe<Scalars['Int']['input']>;
  /** How the stream's recordings are cut into chapters; WINDOW_SIZED (default) uses the node's interval. */
  readonly dvrChapterMode?: InputMaybe<DvrChapterMode>;
  /** Immutable: a different value is a ValidationError. */
  readonly ingestMode?: InputMaybe<IngestMode>;
  readonly name?: InputMaybe<Scalars['String']['input']>;
  readonly pullSource?: InputMaybe<PullSourceInput>;
  readonly record?: InputMaybe<Scalars['Boolean']['input']>;
  readonly sourceLocation?: InputMaybe<Scalars['String']['input']>;
};

export type UpdateStreamResult = AuthError | NotFoundError | Stream | ValidationError;

/** A person who signs in. Each user belongs to exactly one tenant. */
export type User = {
  readonly __typename?: 'User';
  readonly createdAt: Scalars['Time']['output'];
  readonly email: Scalars['String']['output'];
  readonly id: Scalars['ID']['output'];
  readonly name?: Maybe<Scalars['String']['output']>;
};

/** An input field is invalid. */
export type ValidationError = Error & {
  readonly __typename?: 'ValidationError';
  readonly code: Scalars['String']['output'];
  /** What rule it broke, e.g. required, length, format. */
  readonly constraint?: Maybe<Scalars['String']['output']>;
  /** The offending input field, e.g. input.name. */
  readonly field?: Maybe<Scalars['String']['output']>;
  readonly message: Scalars['String']['output'];
};

/** One node to play from. */
export type ViewerEndpoint = {
  readonly __typename?: 'ViewerEndpoint';
  readonly baseUrl: Scalars['String']['output'];
  /** Great-circle km between the viewer and the node; null when either position is unknown. */
  readonly geoDistance?: Maybe<Scalars['Float']['output']>;
  /** The node's load, 0 (idle) to 1 (saturated): CPU and egress against its capacity. */
  readonly loadScore: Scalars['Float']['output'];
  readonly nodeId: Scalars['String']['output'];
  /** Every output of the node: {HLS|HLS_CMAF|DASH|MP4|WHEP: {protocol, url, capabilities {supportsSeek supportsQualitySwitch hasAudio hasVideo}}}; URLs carry the playback token of gated content. */
  readonly outputs: Scalars['JSON']['output'];
  /** hls: url is the LL-HLS playlist (CMAF), played by hls.js and Apple players. */
  readonly protocol: Scalars['String']['output'];
  readonly url: Scalars['String']['output'];
};

export type ViewerEndpointResponse = {
  readonly __typename?: 'ViewerEndpointResponse';
  /** The next best nodes (at most four), to try in order when the primary fails. */
  readonly fallbacks: ReadonlyArray<ViewerEndpoint>;
  readonly metadata: PlaybackMetadata;
  /** The best healthy node by distance and load; null when no node is healthy. */
  readonly primary?: Maybe<ViewerEndpoint>;
};

/** Viewer metrics of a live stream on one node, sent at a steady interval while it is live. */
export type ViewerMetrics = {
  readonly __typename?: 'ViewerMetrics';
  /** Payload bytes received from the publisher since the stream started. */
  readonly bytesIn: Scalars['Float']['output'];
  /** Active playback sessions on that node. */
  readonly currentViewers: Scalars['Int']['output'];
  /** Bytes per second sent to viewers over the last interval; null when the node does not count them. */
  readonly egressBytesPerSecond?: Maybe<Scalars['Float']['output']>;
  readonly eventId: Scalars['ID']['output'];
  readonly nodeId: Scalars['String']['output'];
  readonly streamId: Scalars['ID']['output'];
  readonly timestamp: Scalars['Time']['output'];
};

/** An uploaded video with its own playback ID (HLS, CMAF HLS, DASH, MP4). */
export type VodAsset = {
  readonly __typename?: 'VodAsset';
  readonly artifactHash: Scalars['String']['output'];
  readonly audioCodec?: Maybe<Scalars['String']['output']>;
  readonly bitrateKbps?: Maybe<Scalars['Int']['output']>;
  /** When the upload was completed. */
  readonly completedAt?: Maybe<Scalars['Time']['output']>;
  readonly contentType: Scalars['String']['output'];
  readonly createdAt: Scalars['Time']['output'];
  readonly description?: Maybe<Scalars['String']['output']>;
  readonly durationMs?: Maybe<Scalars['Float']['output']>;
  /** Why processing failed. */
  readonly errorMessage?: Maybe<Scalars['String']['output']>;
  /** When an unfinished upload expires (UPLOADING only). */
  readonly expiresAt?: Maybe<Scalars['Time']['output']>;
  readonly filename: Scalars['String']['output'];
  /** Global ID. */
  readonly id: Scalars['ID']['output'];
  readonly isFinalized: Scalars['Boolean']['output'];
  /** CMAF HLS playlist path under the playback origin, once READY. */
  readonly manifestPath?: Maybe<Scalars['String']['output']>;
  /** user_upload. */
  readonly originType: Scalars['String']['output'];
  /** Outputs made: cmaf, dash, hls, mp4, poster, sprite. */
  readonly outputs: ReadonlyArray<Scalars['String']['output']>;
  readonly playbackId: Scalars['String']['output'];
  /** Who may play this asset (PUBLIC unless setPlaybackPolicy changed it). */
  readonly playbackPolicy: PlaybackPolicy;
  /** Processing progress, 0–100. */
  readonly progressPercent: Scalars['Float']['output'];
  /** WIDTHxHEIGHT. */
  readonly resolution?: Maybe<Scalars['String']['output']>;
  /** Bytes of the uploaded original. */
  readonly sizeBytes: Scalars['Float']['output'];
  /** READY once the streaming outputs (CMAF HLS, DASH, HLS) play; MP4 and images may follow until progressPercent is 100. */
  readonly status: VodAssetStatus;
  /** local or s3. */
  readonly storageLocation: Scalars['String']['output'];
  /** Bytes of every object the asset owns (original and outputs), once processed. */
  readonly storedBytes?: Maybe<Scalars['Float']['output']>;
  /** Poster path under the playback origin, once made (shortly after READY). */
  readonly thumbnailUrl?: Maybe<Scalars['String']['output']>;
  readonly title?: Maybe<Scalars['String']['output']>;
  readonly updatedAt: Scalars['Time']['output'];
  readonly videoCodec?: Maybe<Scalars['String']['output']>;
};

/** Life of a VOD asset: uploading parts, processing, ready to play, failed, deleted, or expired unfinished. */
export type VodAssetStatus =
  | 'DELETED'
  | 'EXPIRED'
  | 'FAILED'
  | 'PROCESSING'
  | 'READY'
  | 'UPLOADING';

/** A VOD asset or upload lifecycle change. */
export type VodLifecycleEvent = {
  readonly __typename?: 'VodLifecycleEvent';
  readonly audioCodec?: Maybe<Scalars['String']['output']>;
  readonly contentType?: Maybe<Scalars['String']['output']>;
  readonly durationMs?: Maybe<Scalars['Float']['output']>;
  readonly error?: Maybe<Scalars['String']['output']>;
  readonly eventId: Scalars['ID']['output'];
  readonly filename?: Maybe<Scalars['String']['output']>;
  readonly playbackId?: Maybe<Scalars['String']['output']>;
  readonly resolution?: Maybe<Scalars['String']['output']>;
  readonly sizeBytes?: Maybe<Scalars['Float']['output']>;
  readonly status: VodLifecycleStatus;
  /** Stream UUID when the asset was made from a recording. */
  readonly streamId?: Maybe<Scalars['ID']['output']>;
  readonly timestamp: Scalars['Time']['output'];
  readonly uploadId?: Maybe<Scalars['String']['output']>;
  readonly videoCodec?: Maybe<Scalars['String']['output']>;
  readonly vodHash: Scalars['String']['output'];
};

/** Stage of a VOD asset or upload. */
export type VodLifecycleStatus =
  | 'COMPLETED'
  | 'DELETED'
  | 'FAILED'
  | 'PROCESSING'
  | 'REQUESTED'
  | 'UPLOADING';

/** Where to PUT one part. */
export type VodUploadPart = {
  readonly __typename?: 'VodUploadPart';
  /** 1-based. */
  readonly partNumber: Scalars['Int']['output'];
  /** PUT the part's bytes here; keep the ETag header of the answer. */
  readonly presignedUrl: Scalars['String']['output'];
};

export type VodUploadPartInput = {
  /** The ETag the part's PUT answered. */
  readonly etag: Scalars['String']['input'];
  readonly partNumber: Scalars['Int']['input'];
};

/** A multipart upload session: PUT each part to its URL, then completeVodUpload with the ETags. */
export type VodUploadSession = {
  readonly __typename?: 'VodUploadSession';
  readonly artifactHash: Scalars['String']['output'];
  /** Global ID of the VodAsset. */
  readonly artifactId: Scalars['ID']['output'];
  /** The asset the upload becomes (UPLOADING until completed). */
  readonly asset: VodAsset;
  /** The URLs stop working and the session is cleaned up after this. */
  readonly expiresAt: Scalars['Time']['output'];
  /** The upload ID (the store's multipart upload). */
  readonly id: Scalars['ID']['output'];
  /** Bytes per part (the last part holds the rest). */
  readonly partSize: Scalars['Float']['output'];
  readonly parts: ReadonlyArray<VodUploadPart>;
  readonly playbackId: Scalars['String']['output'];
};

/** An upload's state and its parts. */
export type VodUploadStatus = {
  readonly __typename?: 'VodUploadStatus';
  readonly artifactHash: Scalars['String']['output'];
  readonly expiresAt: Scalars['Time']['output'];
  /** Why the asset failed. */
  readonly lastErrorCode?: Maybe<Scalars['String']['output']>;
  readonly missingParts: ReadonlyArray<Scalars['Int']['output']>;
  readonly playbackId: Scalars['String']['output'];
  readonly progressPercent: Scalars['Float']['output'];
  readonly state: VodAssetStatus;
  readonly uploadId: Scalars['ID']['output'];
  readonly uploadedParts: ReadonlyArray<VodUploadedPart>;
};

export type VodUploadStatusResult = AuthError | NotFoundError | ValidationError | VodUploadStatus;

/** A part the store holds. */
export type VodUploadedPart = {
  readonly __typename?: 'VodUploadedPart';
  readonly etag: Scalars['String']['output'];
  readonly partNumber: Scalars['Int']['output'];
  readonly sizeBytes: Scalars['Float']['output'];
};

export type WebhookPlaybackPolicy = {
  readonly __typename?: 'WebhookPlaybackPolicy';
  /** The secret is write-only; this reads 'redacted'. */
  readonly secretMasked: Scalars['String']['output'];
  readonly timeoutMs: Scalars['Int']['output'];
  readonly url: Scalars['String']['output'];
};

export type WebhookPlaybackPolicyInput = {
  /** HMAC-SHA256 key, 16 to 512 characters. Write-only; omit it on an update to keep the current one. */
  readonly secret?: InputMaybe<Scalars['String']['input']>;
  /** 1 to 10000 ms; default 5000. */
  readonly timeoutMs?: InputMaybe<Scalars['Int']['input']>;
  /** http(s) URL; private, loopback, link-local and multicast addresses need AIRWAVE_ALLOW_PRIVATE_WEBHOOKS=true. */
  readonly url: Scalars['String']['input'];
};



export type ResolverTypeWrapper<T> = Promise<T> | T;


export type ResolverWithResolve<TResult, TParent, TContext, TArgs> = {
  resolve: ResolverFn<TResult, TParent, TContext, TArgs>;
};
export type Resolver<TResult, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> = ResolverFn<TResult, TParent, TContext, TArgs> | ResolverWithResolve<TResult, TParent, TContext, TArgs>;

export type ResolverFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => Promise<TResult> | TResult;

export type SubscriptionSubscribeFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => AsyncIterable<TResult> | Promise<AsyncIterable<TResult>>;

export type SubscriptionResolveFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => TResult | Promise<TResult>;

export interface SubscriptionSubscriberObject<TResult, TKey extends string, TParent, TContext, TArgs> {
  subscribe: SubscriptionSubscribeFn<{ [key in TKey]: TResult }, TParent, TContext, TArgs>;
  resolve?: SubscriptionResolveFn<TResult, { [key in TKey]: TResult }, TContext, TArgs>;
}

export interface SubscriptionResolverObject<TResult, TParent, TContext, TArgs> {
  subscribe: SubscriptionSubscribeFn<any, TParent, TContext, TArgs>;
  resolve: SubscriptionResolveFn<TResult, any, TContext, TArgs>;
}

export type SubscriptionObject<TResult, TKey extends string, TParent, TContext, TArgs> =
  | SubscriptionSubscriberObject<TResult, TKey, TParent, TContext, TArgs>
  | SubscriptionResolverObject<TResult, TParent, TContext, TArgs>;

export type SubscriptionResolver<TResult, TKey extends string, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> =
  | ((...args: any[]) => SubscriptionObject<TResult, TKey, TParent, TContext, TArgs>)
  | SubscriptionObject<TResult, TKey, TParent, TContext, TArgs>;

export type TypeResolveFn<TTypes, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>> = (
  parent: TParent,
  context: TContext,
  info: GraphQLResolveInfo
) => Maybe<TTypes> | Promise<Maybe<TTypes>>;

export type IsTypeOfResolverFn<T = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>> = (obj: T, context: TContext, info: GraphQLResolveInfo) => boolean | Promise<boolean>;

export type NextResolverFn<T> = () => Promise<T>;

export type DirectiveResolverFn<TResult = Record<PropertyKey, never>, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> = (
  next: NextResolverFn<TResult>,
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => TResult | Promise<TResult>;



/** Mapping of union types */
export type ResolversUnionTypes<_RefType extends Record<string, unknown>> = {
  AbortVodUploadResult:
    | ( AuthError & { __typename: 'AuthError' } )
    | ( DeleteSuccess & { __typename: 'DeleteSuccess' } )
    | ( NotFoundError & { __typename: 'NotFoundError' } )
    | ( ValidationError & { __typename: 'ValidationError' } )
  ;
  CompleteVodUploadResult:
    | ( AuthError & { __typename: 'AuthError' } )
    | ( NotFoundError & { __typename: 'NotFoundError' } )
    | ( ValidationError & { __typename: 'ValidationError' } )
    | ( VodAssetParentModel & { __typename: 'VodAsset' } )
  ;
  CreateClipResult:
    | ( AuthError & { __typename: 'AuthError' } )
    | ( ClipParentModel & { __typename: 'Clip' } )
    | ( NotFoundError & { __typename: 'NotFoundError' } )
    | ( ValidationError & { __typename: 'ValidationError' } )
  ;
  CreateDeveloperTokenResult:
    | ( AuthError & { __typename: 'AuthError' } )
    | ( DeveloperTokenViewModel & { __typename: 'DeveloperToken' } )
    | ( RateLimitError & { __typename: 'RateLimitError' } )
    | ( ValidationError & { __typename: 'ValidationError' } )
  ;
  CreatePushTargetResult:
    | ( AuthError & { __typename: 'AuthError' } )
    | ( NotFoundError & { __typename: 'NotFoundError' } )
    | ( PushTargetRecordModel & { __typename: 'PushTarget' } )
    | ( ValidationError & { __typename: 'ValidationError' } )
  ;
  CreateSigningKeyResult:
    | ( AuthError & { __typename: 'AuthError' } )
    | ( Omit<CreateSigningKeySuccess, 'signingKey'> & { signingKey: _RefType['SigningKey'] } & { __typename: 'CreateSigningKeySuccess' } )
    | ( RateLimitError & { __typename: 'RateLimitError' } )
    | ( ValidationError & { __typename: 'ValidationError' } )
  ;
  CreateStreamKeyResult:
    | ( AuthError & { __typename: 'AuthError' } )
    | ( NotFoundError & { __typename: 'NotFoundError' } )
    | ( StreamKeyRecordModel & { __typename: 'StreamKey' } )
    | ( ValidationError & { __typename: 'ValidationError' } )
  ;
  CreateStreamResult:
    | ( AuthError & { __typename: 'AuthError' } )
    | ( StreamRecordModel & { __typename: 'Stream' } )
    | ( ValidationError & { __typename: 'ValidationError' } )
  ;
  CreateVodUploadResult:
    | ( AuthError & { __typename: 'AuthError' } )
    | ( ValidationError & { __typename: 'ValidationError' } )
    | ( Omit<VodUploadSession, 'asset'> & { asset: _RefType['VodAsset'] } & { __typename: 'VodUploadSession' } )
  ;
  DeleteClipResult:
    | ( AuthError & { __typename: 'AuthError' } )
    | ( DeleteSuccess & { __typename: 'DeleteSuccess' } )
    | ( NotFoundError & { __typename: 'NotFoundError' } )
    | ( ValidationError & { __typename: 'ValidationError' } )
  ;
  DeleteDVRResult:
    | ( AuthError & { __typename: 'AuthError' } )
    | ( DeleteSuccess & { __typename: 'DeleteSuccess' } )
    | ( NotFoundError & { __typename: 'NotFoundError' } )
    | ( ValidationError & { __typename: 'ValidationError' } )
  ;
  DeletePushTargetResult:
    | ( AuthError & { __typename: 'AuthError' } )
    | ( DeleteSuccess & { __typename: 'DeleteSuccess' } )
    | ( NotFoundError & { __typename: 'NotFoundError' } )
    | ( ValidationError & { __typename: 'ValidationError' } )
  ;
  DeleteStreamKeyResult:
    | ( AuthError & { __typename: 'AuthError' } )
    | ( DeleteSuccess & { __typename: 'DeleteSuccess' } )
    | ( NotFoundError & { __typename: 'NotFoundError' } )
    | ( ValidationError & { __typename: 'ValidationError' } )
  ;
  DeleteStreamResult:
    | ( AuthError & { __typename: 'AuthError' } )
    | ( DeleteSuccess & { __typename: 'DeleteSuccess' } )
    | ( NotFoundError & { __typename: 'NotFoundError' } )
    | ( ValidationError & { __typename: 'ValidationError' } )
  ;
  DeleteVodAssetResult:
    | ( AuthError & { __typename: 'AuthError' } )
    | ( DeleteSuccess & { __typename: 'DeleteSuccess' } )
    | ( NotFoundError & { __typename: 'NotFoundError' } )
    | ( ValidationError & { __typename: 'ValidationError' } )
  ;
  LoginResult:
    | ( AuthError & { __typename: 'AuthError' } )
    | ( AuthPayloadModel & { __typename: 'AuthPayload' } )
    | ( RateLimitError & { __typename: 'RateLimitError' } )
    | ( ValidationError & { __typename: 'ValidationError' } )
  ;
  LogoutResult:
    | ( AuthError & { __typename: 'AuthError' } )
    | ( LogoutPayload & { __typename: 'LogoutPayload' } )
  ;
  RefreshStreamKeyResult:
    | ( AuthError & { __typename: 'AuthError' } )
    | ( NotFoundError & { __typename: 'NotFoundError' } )
    | ( StreamRecordModel & { __typename: 'Stream' } )
    | ( ValidationError & { __typename: 'ValidationError' } )
  ;
  RegisterResult:
    | ( AuthPayloadModel & { __typename: 'AuthPayload' } )
    | ( ValidationError & { __typename: 'ValidationError' } )
  ;
  RevokeDeveloperTokenResult:
    | ( AuthError & { __typename: 'AuthError' } )
    | ( DeleteSuccess & { __typename: 'DeleteSuccess' } )
    | ( NotFoundError & { __typename: 'NotFoundError' } )
    | ( ValidationError & { __typename: 'ValidationError' } )
  ;
  RevokeSigningKeyResult:
    | ( AuthError & { __typename: 'AuthError' } )
    | ( DeleteSuccess & { __typename: 'DeleteSuccess' } )
    | ( NotFoundError & { __typename: 'NotFoundError' } )
    | ( ValidationError & { __typename: 'ValidationError' } )
  ;
  SetMediaRetentionPolicyResult:
    | ( AuthError & { __typename: 'AuthError' } )
    | ( MediaRetentionPolicy & { __typename: 'MediaRetentionPolicy' } )
    | ( ValidationError & { __typename: 'ValidationError' } )
  ;
  SetPlaybackPolicyResult:
    | ( AuthError & { __typename: 'AuthError' } )
    | ( ClipParentModel & { __typename: 'Clip' } )
    | ( NotFoundError & { __typename: 'NotFoundError' } )
    | ( StreamRecordModel & { __typename: 'Stream' } )
    | ( ValidationError & { __typename: 'ValidationError' } )
    | ( VodAssetParentModel & { __typename: 'VodAsset' } )
  ;
  SetStreamRetentionOverridesResult:
    | ( AuthError & { __typename: 'AuthError' } )
    | ( NotFoundError & { __typename: 'NotFoundError' } )
    | ( StreamRetentionOverrides & { __typename: 'StreamRetentionOverrides' } )
    | ( ValidationError & { __typename: 'ValidationError' } )
  ;
  SetStreamSrtPassphraseResult:
    | ( AuthError & { __typename: 'AuthError' } )
    | ( NotFoundError & { __typename: 'NotFoundError' } )
    | ( StreamSrtSettings & { __typename: 'StreamSrtSettings' } )
    | ( ValidationError & { __typename: 'ValidationError' } )
  ;
  StartDVRResult:
    | ( AuthError & { __typename: 'AuthError' } )
    | ( DvrRequestParentModel & { __typename: 'DVRRequest' } )
    | ( NotFoundError & { __typename: 'NotFoundError' } )
    | ( ValidationError & { __typename: 'ValidationError' } )
  ;
  StopDVRResult:
    | ( AuthError & { __typename: 'AuthError' } )
    | ( DeleteSuccess & { __typename: 'DeleteSuccess' } )
    | ( NotFoundError & { __typename: 'NotFoundError' } )
    | ( ValidationError & { __typename: 'ValidationError' } )
  ;
  TestPlaybackAccessResult:
    | ( AuthError & { __typename: 'AuthError' } )
    | ( NotFoundError & { __typename: 'NotFoundError' } )
    | ( PlaybackAccessDecision & { __typename: 'PlaybackAccessDecision' } )
    | ( ValidationError & { __typename: 'ValidationError' } )
  ;
  UpdateMediaRetentionResult:
    | ( AuthError & { __typename: 'AuthError' } )
    | ( EffectiveRetention & { __typename: 'EffectiveRetention' } )
    | ( NotFoundError & { __typename: 'NotFoundError' } )
    | ( ValidationError & { __typename: 'ValidationError' } )
  ;
  UpdatePushTargetResult:
    | ( AuthError & { __typename: 'AuthError' } )
    | ( NotFoundError & { __typename: 'NotFoundError' } )
    | ( PushTargetRecordModel & { __typename: 'PushTarget' } )
    | ( ValidationError & { __typename: 'ValidationError' } )
  ;
  UpdateStreamResult:
    | ( AuthError & { __typename: 'AuthError' } )
    | ( NotFoundError & { __typename: 'NotFoundError' } )
    | ( StreamRecordModel & { __typename: 'Stream' } )
    | ( ValidationError & { __typename: 'ValidationError' } )
  ;
  VodUploadStatusResult:
    | ( AuthError & { __typename: 'AuthError' } )
    | ( NotFoundError & { __typename: 'NotFoundError' } )
    | ( ValidationError & { __typename: 'ValidationError' } )
    | ( VodUploadStatus & { __typename: 'VodUploadStatus' } )
  ;
};

/** Mapping of interface types */
export type ResolversInterfaceTypes<_RefType extends Record<string, unknown>> = {
  Error:
    | ( AuthError )
    | ( NotFoundError )
    | ( RateLimitError )
    | ( ValidationError )
  ;
};

/** Mapping between all available schema types and the resolvers types */
export type ResolversTypes = {
  AbortVodUploadResult: ResolverTypeWrapper<ResolversUnionTypes<ResolversTypes>['AbortVodUploadResult']>;
  Analytics: ResolverTypeWrapper<Omit<Analytics, 'usage'> & { usage: ResolversTypes['AnalyticsUsage'] }>;
  AnalyticsUsage: ResolverTypeWrapper<Omit<AnalyticsUsage, 'streaming'> & { streaming: ResolversTypes['StreamingUsage'] }>;
  AuthError: ResolverTypeWrapper<AuthError>;
  AuthPayload: ResolverTypeWrapper<AuthPayloadModel>;
  Boolean: ResolverTypeWrapper<Scalars['Boolean']['output']>;
  Clip: ResolverTypeWrapper<ClipParentModel>;
  ClipCreationMode: ClipCreationMode;
  ClusterStatus: ResolverTypeWrapper<ClusterStatus>;
  CompleteVodUploadInput: CompleteVodUploadInput;
  CompleteVodUploadResult: ResolverTypeWrapper<ResolversUnionTypes<ResolversTypes>['CompleteVodUploadResult']>;
  ConnectionEvent: ResolverTypeWrapper<ConnectionEvent>;
  ConnectionInput: ConnectionInput;
  CreateClipInput: CreateClipInput;
  CreateClipResult: ResolverTypeWrapper<ResolversUnionTypes<ResolversTypes>['CreateClipResult']>;
  CreateDeveloperTokenInput: CreateDeveloperTokenInput;
  CreateDeveloperTokenResult: ResolverTypeWrapper<ResolversUnionTypes<ResolversTypes>['CreateDeveloperTokenResult']>;
  CreatePushTargetInput: CreatePushTargetInput;
  CreatePushTargetResult: ResolverTypeWrapper<ResolversUnionTypes<ResolversTypes>['CreatePushTargetResult']>;
  CreateSigningKeyInput: CreateSigningKeyInput;
  CreateSigningKeyResult: ResolverTypeWrapper<ResolversUnionTypes<ResolversTypes>['CreateSigningKeyResult']>;
  CreateSigningKeySuccess: ResolverTypeWrapper<Omit<CreateSigningKeySuccess, 'signingKey'> & { signingKey: ResolversTypes['SigningKey'] }>;
  CreateStreamInput: CreateStreamInput;
  CreateStreamKeyInput: CreateStreamKeyInput;
  CreateStreamKeyResult: ResolverTypeWrapper<ResolversUnionTypes<ResolversTypes>['CreateStreamKeyResult']>;
  CreateStreamResult: ResolverTypeWrapper<ResolversUnionTypes<ResolversTypes>['CreateStreamResult']>;
  CreateVodUploadInput: CreateVodUploadInput;
  CreateVodUploadResult: ResolverTypeWrapper<ResolversUnionTypes<ResolversTypes>['CreateVodUploadResult']>;
  DVRChapter: ResolverTypeWrapper<DvrChapter>;
  DVRChapterMode: DvrChapterMode;
  DVRChapterPage: ResolverTypeWrapper<DvrChapterPage>;
  DVRChapterRef: ResolverTypeWrapper<DvrChapterRef>;
  DVRChapterState: DvrChapterState;
  DVRRequest: ResolverTypeWrapper<DvrRequestParentModel>;
  DeleteClipResult: ResolverTypeWrapper<ResolversUnionTypes<ResolversTypes>['DeleteClipResult']>;
  DeleteDVRResult: ResolverTypeWrapper<ResolversUnionTypes<ResolversTypes>['DeleteDVRResult']>;
  DeletePushTargetResult: ResolverTypeWrapper<ResolversUnionTypes<ResolversTypes>['DeletePushTargetResult']>;
  DeleteStreamKeyResult: ResolverTypeWrapper<ResolversUnionTypes<ResolversTypes>['DeleteStreamKeyResult']>;
  DeleteStreamResult: ResolverTypeWrapper<ResolversUnionTypes<ResolversTypes>['DeleteStreamResult']>;
  DeleteSuccess: ResolverTypeWrapper<DeleteSuccess>;
  DeleteVodAssetResult: ResolverTypeWrapper<ResolversUnionTypes<ResolversTypes>['DeleteVodAssetResult']>;
  DeveloperToken: ResolverTypeWrapper<DeveloperTokenViewModel>;
  DeveloperTokenConnection: ResolverTypeWrapper<Omit<DeveloperTokenConnection, 'edges' | 'nodes'> & { edges: ReadonlyArray<ResolversTypes['DeveloperTokenEdge']>, nodes: ReadonlyArray<ResolversTypes['DeveloperToken']> }>;
  DeveloperTokenEdge: ResolverTypeWrapper<Omit<DeveloperTokenEdge, 'node'> & { node: ResolversTypes['DeveloperToken'] }>;
  DvrLifecycleEvent: ResolverTypeWrapper<DvrLifecycleEvent>;
  DvrLifecycleStatus: DvrLifecycleStatus;
  EffectiveRetention: ResolverTypeWrapper<EffectiveRetention>;
  Error: ResolverTypeWrapper<ResolversInterfaceTypes<ResolversTypes>['Error']>;
  Float: ResolverTypeWrapper<Scalars['Float']['output']>;
  ID: ResolverTypeWrapper<Scalars['ID']['output']>;
  IngestConnection: ResolverTypeWrapper<IngestConnection>;
  IngestEndpoint: ResolverTypeWrapper<IngestEndpoint>;
  IngestEndpointKind: IngestEndpointKind;
  IngestEndpointResponse: ResolverTypeWrapper<IngestEndpointResponse>;
  IngestMetadata: ResolverTypeWrapper<IngestMetadata>;
  IngestMode: IngestMode;
  InstanceStatus: InstanceStatus;
  Int: ResolverTypeWrapper<Scalars['Int']['output']>;
  JSON: ResolverTypeWrapper<Scalars['JSON']['output']>;
  JwtPlaybackPolicy: ResolverTypeWrapper<JwtPlaybackPolicy>;
  JwtPlaybackPolicyInput: JwtPlaybackPolicyInput;
  LoginInput: LoginInput;
  LoginResult: ResolverTypeWrapper<ResolversUnionTypes<ResolversTypes>['LoginResult']>;
  LogoutPayload: ResolverTypeWrapper<LogoutPayload>;
  LogoutResult: ResolverTypeWrapper<ResolversUnionTypes<ResolversTypes>['LogoutResult']>;
  MediaRetentionPolicy: ResolverTypeWrapper<MediaRetentionPolicy>;
  MediaRetentionTarget: MediaRetentionTarget;
  Mutation: ResolverTypeWrapper<Record<PropertyKey, never>>;
  NetworkNode: ResolverTypeWrapper<NetworkNode>;
  NetworkStatus: ResolverTypeWrapper<NetworkStatusViewModel>;
  NodeStatus: NodeStatus;
  NotFoundError: ResolverTypeWrapper<NotFoundError>;
  PageInfo: ResolverTypeWrapper<PageInfo>;
  PeerConnection: ResolverTypeWrapper<PeerConnection>;
  PlaybackAccessDecision: ResolverTypeWrapper<PlaybackAccessDecision>;
  PlaybackMetadata: ResolverTypeWrapper<PlaybackMetadata>;
  PlaybackPolicy: ResolverTypeWrapper<PlaybackPolicy>;
  PlaybackPolicyInput: PlaybackPolicyInput;
  PlaybackPolicyType: PlaybackPolicyType;
  PlaybackTrack: ResolverTypeWrapper<PlaybackTrack>;
  ProcessingEvent: ResolverTypeWrapper<ProcessingEvent>;
  ProcessingEventStage: ProcessingEventStage;
  PullSourceEvent: ResolverTypeWrapper<PullSourceEvent>;
  PullSourceInput: PullSourceInput;
  PullSourceView: ResolverTypeWrapper<PullSourceView>;
  PullState: PullState;
  PullStatus: ResolverTypeWrapper<PullStatus>;
  PushTarget: ResolverTypeWrapper<PushTargetRecordModel>;
  Query: ResolverTypeWrapper<Record<PropertyKey, never>>;
  RateLimitError: ResolverTypeWrapper<RateLimitError>;
  RefreshStreamKeyResult: ResolverTypeWrapper<ResolversUnionTypes<ResolversTypes>['RefreshStreamKeyResult']>;
  RegisterInput: RegisterInput;
  RegisterResult: ResolverTypeWrapper<ResolversUnionTypes<ResolversTypes>['RegisterResult']>;
  ResetMediaRetentionOverrideInput: ResetMediaRetentionOverrideInput;
  RetentionSource: RetentionSource;
  RevokeDeveloperTokenResult: ResolverTypeWrapper<ResolversUnionTypes<ResolversTypes>['RevokeDeveloperTokenResult']>;
  RevokeSigningKeyResult: ResolverTypeWrapper<ResolversUnionTypes<ResolversTypes>['RevokeSigningKeyResult']>;
  ServiceInstance: ResolverTypeWrapper<ServiceInstanceViewModel>;
  SetMediaRetentionPolicyInput: SetMediaRetentionPolicyInput;
  SetMediaRetentionPolicyResult: ResolverTypeWrapper<ResolversUnionTypes<ResolversTypes>['SetMediaRetentionPolicyResult']>;
  SetPlaybackPolicyInput: SetPlaybackPolicyInput;
  SetPlaybackPolicyResult: ResolverTypeWrapper<ResolversUnionTypes<ResolversTypes>['SetPlaybackPolicyResult']>;
  SetStreamRetentionOverridesInput: SetStreamRetentionOverridesInput;
  SetStreamRetentionOverridesResult: ResolverTypeWrapper<ResolversUnionTypes<ResolversTypes>['SetStreamRetentionOverridesResult']>;
  SetStreamSrtPassphraseResult: ResolverTypeWrapper<ResolversUnionTypes<ResolversTypes>['SetStreamSrtPassphraseResult']>;
  SigningKey: ResolverTypeWrapper<SigningKeyViewModel>;
  SigningKeyEdge: ResolverTypeWrapper<Omit<SigningKeyEdge, 'node'> & { node: ResolversTypes['SigningKey'] }>;
  SigningKeyStatus: SigningKeyStatus;
  SigningKeysConnection: ResolverTypeWrapper<Omit<SigningKeysConnection, 'edges' | 'nodes'> & { edges: ReadonlyArray<ResolversTypes['SigningKeyEdge']>, nodes: ReadonlyArray<ResolversTypes['SigningKey']> }>;
  StartDVRResult: ResolverTypeWrapper<ResolversUnionTypes<ResolversTypes>['StartDVRResult']>;
  StopDVRResult: ResolverTypeWrapper<ResolversUnionTypes<ResolversTypes>['StopDVRResult']>;
  StorageArtifact: ResolverTypeWrapper<StorageArtifact>;
  StorageArtifactKind: StorageArtifactKind;
  StorageArtifactsConnection: ResolverTypeWrapper<StorageArtifactsConnection>;
  StorageArtifactsInput: StorageArtifactsInput;
  StorageEvent: ResolverTypeWrapper<StorageEvent>;
  StorageEventAction: StorageEventAction;
  Stream: ResolverTypeWrapper<StreamRecordModel>;
  StreamAnalyticsDaily: ResolverTypeWrapper<StreamAnalyticsDaily>;
  StreamAnalyticsDailyConnection: ResolverTypeWrapper<StreamAnalyticsDailyConnection>;
  StreamAnalyticsDailyEdge: ResolverTypeWrapper<StreamAnalyticsDailyEdge>;
  StreamEdge: ResolverTypeWrapper<Omit<StreamEdge, 'node'> & { node: ResolversTypes['Stream'] }>;
  StreamEvent: ResolverTypeWrapper<StreamEvent>;
  StreamEventSource: StreamEventSource;
  StreamEventType: StreamEventType;
  StreamKey: ResolverTypeWrapper<StreamKeyRecordModel>;
  StreamKeyEdge: ResolverTypeWrapper<Omit<StreamKeyEdge, 'node'> & { node: ResolversTypes['StreamKey'] }>;
  StreamKeysConnection: ResolverTypeWrapper<Omit<StreamKeysConnection, 'edges' | 'nodes'> & { edges: ReadonlyArray<ResolversTypes['StreamKeyEdge']>, nodes: ReadonlyArray<ResolversTypes['StreamKey']> }>;
  StreamMetrics: ResolverTypeWrapper<StreamMetricsParentModel>;
  StreamRetentionOverrides: ResolverTypeWrapper<StreamRetentionOverrides>;
  StreamSrtSettings: ResolverTypeWrapper<StreamSrtSettings>;
  StreamStatus: StreamStatus;
  StreamTrack: ResolverTypeWrapper<StreamTrack>;
  StreamingUsage: ResolverTypeWrapper<AnalyticsGroupModel>;
  StreamsConnection: ResolverTypeWrapper<Omit<StreamsConnection, 'edges' | 'nodes'> & { edges: ReadonlyArray<ResolversTypes['StreamEdge']>, nodes: ReadonlyArray<ResolversTypes['Stream']> }>;
  String: ResolverTypeWrapper<Scalars['String']['output']>;
  Subscription: ResolverTypeWrapper<Record<PropertyKey, never>>;
  TestPlaybackAccessInput: TestPlaybackAccessInput;
  TestPlaybackAccessResult: ResolverTypeWrapper<ResolversUnionTypes<ResolversTypes>['TestPlaybackAccessResult']>;
  Time: ResolverTypeWrapper<Scalars['Time']['output']>;
  TimeRangeInput: TimeRangeInput;
  UpdateMediaRetentionInput: UpdateMediaRetentionInput;
  UpdateMediaRetentionResult: ResolverTypeWrapper<ResolversUnionTypes<ResolversTypes>['UpdateMediaRetentionResult']>;
  UpdatePushTargetInput: UpdatePushTargetInput;
  UpdatePushTargetResult: ResolverTypeWrapper<ResolversUnionTypes<ResolversTypes>['UpdatePushTargetResult']>;
  UpdateStreamInput: UpdateStreamInput;
  UpdateStreamResult: ResolverTypeWrapper<ResolversUnionTypes<ResolversTypes>['UpdateStreamResult']>;
  User: ResolverTypeWrapper<UserViewModel>;
  ValidationError: ResolverTypeWrapper<ValidationError>;
  ViewerEndpoint: ResolverTypeWrapper<ViewerEndpoint>;
  ViewerEndpointResponse: ResolverTypeWrapper<ViewerEndpointResponse>;
  ViewerMetrics: ResolverTypeWrapper<ViewerMetrics>;
  VodAsset: ResolverTypeWrapper<VodAssetParentModel>;
  VodAssetStatus: VodAssetStatus;
  VodLifecycleEvent: ResolverTypeWrapper<VodLifecycleEvent>;
  VodLifecycleStatus: VodLifecycleStatus;
  VodUploadPart: ResolverTypeWrapper<VodUploadPart>;
  VodUploadPartInput: VodUploadPartInput;
  VodUploadSession: ResolverTypeWrapper<Omit<VodUploadSession, 'asset'> & { asset: ResolversTypes['VodAsset'] }>;
  VodUploadStatus: ResolverTypeWrapper<VodUploadStatus>;
  VodUploadStatusResult: ResolverTypeWrapper<ResolversUnionTypes<ResolversTypes>['VodUploadStatusResult']>;
  VodUploadedPart: ResolverTypeWrapper<VodUploadedPart>;
  WebhookPlaybackPolicy: ResolverTypeWrapper<WebhookPlaybackPolicy>;
  WebhookPlaybackPolicyInput: WebhookPlaybackPolicyInput;
};

/** Mapping between all available schema types and the resolvers parents */
export type ResolversParentTypes = {
  AbortVodUploadResult: ResolversUnionTypes<ResolversParentTypes>['AbortVodUploadResult'];
  Analytics: Omit<Analytics, 'usage'> & { usage: ResolversParentTypes['AnalyticsUsage'] };
  AnalyticsUsage: Omit<AnalyticsUsage, 'streaming'> & { streaming: ResolversParentTypes['StreamingUsage'] };
  AuthError: AuthError;
  AuthPayload: AuthPayloadModel;
  Boolean: Scalars['Boolean']['output'];
  Clip: ClipParentModel;
  ClusterStatus: ClusterStatus;
  CompleteVodUploadInput: CompleteVodUploadInput;
  CompleteVodUploadResult: ResolversUnionTypes<ResolversParentTypes>['CompleteVodUploadResult'];
  ConnectionEvent: ConnectionEvent;
  ConnectionInput: ConnectionInput;
  CreateClipInput: CreateClipInput;
  CreateClipResult: ResolversUnionTypes<ResolversParentTypes>['CreateClipResult'];
  CreateDeveloperTokenInput: CreateDeveloperTokenInput;
  CreateDeveloperTokenResult: ResolversUnionTypes<ResolversParentTypes>['CreateDeveloperTokenResult'];
  CreatePushTargetInput: CreatePushTargetInput;
  CreatePushTargetResult: ResolversUnionTypes<ResolversParentTypes>['CreatePushTargetResult'];
  CreateSigningKeyInput: CreateSigningKeyInput;
  CreateSigningKeyResult: ResolversUnionTypes<ResolversParentTypes>['CreateSigningKeyResult'];
  CreateSigningKeySuccess: Omit<CreateSigningKeySuccess, 'signingKey'> & { signingKey: ResolversParentTypes['SigningKey'] };
  CreateStreamInput: CreateStreamInput;
  CreateStreamKeyInput: CreateStreamKeyInput;
  CreateStreamKeyResult: ResolversUnionTypes<ResolversParentTypes>['CreateStreamKeyResult'];
  CreateStreamResult: ResolversUnionTypes<ResolversParentTypes>['CreateStreamResult'];
  CreateVodUploadInput: CreateVodUploadInput;
  CreateVodUploadResult: ResolversUnionTypes<ResolversParentTypes>['CreateVodUploadResult'];
  DVRChapter: DvrChapter;
  DVRChapterPage: DvrChapterPage;
  DVRChapterRef: DvrChapterRef;
  DVRRequest: DvrRequestParentModel;
  DeleteClipResult: ResolversUnionTypes<ResolversParentTypes>['DeleteClipResult'];
  DeleteDVRResult: ResolversUnionTypes<ResolversParentTypes>['DeleteDVRResult'];
  DeletePushTargetResult: ResolversUnionTypes<ResolversParentTypes>['DeletePushTargetResult'];
  DeleteStreamKeyResult: ResolversUnionTypes<ResolversParentTypes>['DeleteStreamKeyResult'];
  DeleteStreamResult: ResolversUnionTypes<ResolversParentTypes>['DeleteStreamResult'];
  DeleteSuccess: DeleteSuccess;
  DeleteVodAssetResult: ResolversUnionTypes<ResolversParentTypes>['DeleteVodAssetResult'];
  DeveloperToken: DeveloperTokenViewModel;
  DeveloperTokenConnection: Omit<DeveloperTokenConnection, 'edges' | 'nodes'> & { edges: ReadonlyArray<ResolversParentTypes['DeveloperTokenEdge']>, nodes: ReadonlyArray<ResolversParentTypes['DeveloperToken']> };
  DeveloperTokenEdge: Omit<DeveloperTokenEdge, 'node'> & { node: ResolversParentTypes['DeveloperToken'] };
  DvrLifecycleEvent: DvrLifecycleEvent;
  EffectiveRetention: EffectiveRetention;
  Error: ResolversInterfaceTypes<ResolversParentTypes>['Error'];
  Float: Scalars['Float']['output'];
  ID: Scalars['ID']['output'];
  IngestConnection: IngestConnection;
  IngestEndpoint: IngestEndpoint;
  IngestEndpointResponse: IngestEndpointResponse;
  IngestMetadata: IngestMetadata;
  Int: Scalars['Int']['output'];
  JSON: Scalars['JSON']['output'];
  JwtPlaybackPolicy: JwtPlaybackPolicy;
  JwtPlaybackPolicyInput: JwtPlaybackPolicyInput;
  LoginInput: LoginInput;
  LoginResult: ResolversUnionTypes<ResolversParentTypes>['LoginResult'];
  LogoutPayload: LogoutPayload;
  LogoutResult: ResolversUnionTypes<ResolversParentTypes>['LogoutResult'];
  MediaRetentionPolicy: MediaRetentionPolicy;
  Mutation: Record<PropertyKey, never>;
  NetworkNode: NetworkNode;
  NetworkStatus: NetworkStatusViewModel;
  NotFoundError: NotFoundError;
  PageInfo: PageInfo;
  PeerConnection: PeerConnection;
  PlaybackAccessDecision: PlaybackAccessDecision;
  PlaybackMetadata: PlaybackMetadata;
  PlaybackPolicy: PlaybackPolicy;
  PlaybackPolicyInput: PlaybackPolicyInput;
  PlaybackTrack: PlaybackTrack;
  ProcessingEvent: ProcessingEvent;
  PullSourceEvent: PullSourceEvent;
  PullSourceInput: PullSourceInput;
  PullSourceView: PullSourceView;
  PullStatus: PullStatus;
  PushTarget: PushTargetRecordModel;
  Query: Record<PropertyKey, never>;
  RateLimitError: RateLimitError;
  RefreshStreamKeyResult: ResolversUnionTypes<ResolversParentTypes>['RefreshStreamKeyResult'];
  RegisterInput: RegisterInput;
  RegisterResult: ResolversUnionTypes<ResolversParentTypes>['RegisterResult'];
  ResetMediaRetentionOverrideInput: ResetMediaRetentionOverrideInput;
  RevokeDeveloperTokenResult: ResolversUnionTypes<ResolversParentTypes>['RevokeDeveloperTokenResult'];
  RevokeSigningKeyResult: ResolversUnionTypes<ResolversParentTypes>['RevokeSigningKeyResult'];
  ServiceInstance: ServiceInstanceViewModel;
  SetMediaRetentionPolicyInput: SetMediaRetentionPolicyInput;
  SetMediaRetentionPolicyResult: ResolversUnionTypes<ResolversParentTypes>['SetMediaRetentionPolicyResult'];
  SetPlaybackPolicyInput: SetPlaybackPolicyInput;
  SetPlaybackPolicyResult: ResolversUnionTypes<ResolversParentTypes>['SetPlaybackPolicyResult'];
  SetStreamRetentionOverridesInput: SetStreamRetentionOverridesInput;
  SetStreamRetentionOverridesResult: ResolversUnionTypes<ResolversParentTypes>['SetStreamRetentionOverridesResult'];
  SetStreamSrtPassphraseResult: ResolversUnionTypes<ResolversParentTypes>['SetStreamSrtPassphraseResult'];
  SigningKey: SigningKeyViewModel;
  SigningKeyEdge: Omit<SigningKeyEdge, 'node'> & { node: ResolversParentTypes['SigningKey'] };
  SigningKeysConnection: Omit<SigningKeysConnection, 'edges' | 'nodes'> & { edges: ReadonlyArray<ResolversParentTypes['SigningKeyEdge']>, nodes: ReadonlyArray<ResolversParentTypes['SigningKey']> };
  StartDVRResult: ResolversUnionTypes<ResolversParentTypes>['StartDVRResult'];
  StopDVRResult: ResolversUnionTypes<ResolversParentTypes>['StopDVRResult'];
  StorageArtifact: StorageArtifact;
  StorageArtifactsConnection: StorageArtifactsConnection;
  StorageArtifactsInput: StorageArtifactsInput;
  StorageEvent: StorageEvent;
  Stream: StreamRecordModel;
  StreamAnalyticsDaily: StreamAnalyticsDaily;
  StreamAnalyticsDailyConnection: StreamAnalyticsDailyConnection;
  StreamAnalyticsDailyEdge: StreamAnalyticsDailyEdge;
  StreamEdge: Omit<StreamEdge, 'node'> & { node: ResolversParentTypes['Stream'] };
  StreamEvent: StreamEvent;
  StreamKey: StreamKeyRecordModel;
  StreamKeyEdge: Omit<StreamKeyEdge, 'node'> & { node: ResolversParentTypes['StreamKey'] };
  StreamKeysConnection: Omit<StreamKeysConnection, 'edges' | 'nodes'> & { edges: ReadonlyArray<ResolversParentTypes['StreamKeyEdge']>, nodes: ReadonlyArray<ResolversParentTypes['StreamKey']> };
  StreamMetrics: StreamMetricsParentModel;
  StreamRetentionOverrides: StreamRetentionOverrides;
  StreamSrtSettings: StreamSrtSettings;
  StreamTrack: StreamTrack;
  StreamingUsage: AnalyticsGroupModel;
  StreamsConnection: Omit<StreamsConnection, 'edges' | 'nodes'> & { edges: ReadonlyArray<ResolversParentTypes['StreamEdge']>, nodes: ReadonlyArray<ResolversParentTypes['Stream']> };
  String: Scalars['String']['output'];
  Subscription: Record<PropertyKey, never>;
  TestPlaybackAccessInput: TestPlaybackAccessInput;
  TestPlaybackAccessResult: ResolversUnionTypes<ResolversParentTypes>['TestPlaybackAccessResult'];
  Time: Scalars['Time']['output'];
  TimeRangeInput: TimeRangeInput;
  UpdateMediaRetentionInput: UpdateMediaRetentionInput;
  UpdateMediaRetentionResult: ResolversUnionTypes<ResolversParentTypes>['UpdateMediaRetentionResult'];
  UpdatePushTargetInput: UpdatePushTargetInput;
  UpdatePushTargetResult: ResolversUnionTypes<ResolversParentTypes>['UpdatePushTargetResult'];
  UpdateStreamInput: UpdateStreamInput;
  UpdateStreamResult: ResolversUnionTypes<ResolversParentTypes>['UpdateStreamResult'];
  User: UserViewModel;
  ValidationError: ValidationError;
  ViewerEndpoint: ViewerEndpoint;
  ViewerEndpointResponse: ViewerEndpointResponse;
  ViewerMetrics: ViewerMetrics;
  VodAsset: VodAssetParentModel;
  VodLifecycleEvent: VodLifecycleEvent;
  VodUploadPart: VodUploadPart;
  VodUploadPartInput: VodUploadPartInput;
  VodUploadSession: Omit<VodUploadSession, 'asset'> & { asset: ResolversParentTypes['VodAsset'] };
  VodUploadStatus: VodUploadStatus;
  VodUploadStatusResult: ResolversUnionTypes<ResolversParentTypes>['VodUploadStatusResult'];
  VodUploadedPart: VodUploadedPart;
  WebhookPlaybackPolicy: WebhookPlaybackPolicy;
  WebhookPlaybackPolicyInput: WebhookPlaybackPolicyInput;
};

export type AbortVodUploadResultResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['AbortVodUploadResult'] = ResolversParentTypes['AbortVodUploadResult']> = {
  __resolveType: TypeResolveFn<'AuthError' | 'DeleteSuccess' | 'NotFoundError' | 'ValidationError', ParentType, ContextType>;
};

export type AnalyticsResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Analytics'] = ResolversParentTypes['Analytics']> = {
  usage?: Resolver<ResolversTypes['AnalyticsUsage'], ParentType, ContextType>;
};

export type AnalyticsUsageResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['AnalyticsUsage'] = ResolversParentTypes['AnalyticsUsage']> = {
  streaming?: Resolver<ResolversTypes['StreamingUsage'], ParentType, ContextType>;
};

export type AuthErrorResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['AuthError'] = ResolversParentTypes['AuthError']> = {
  code?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  message?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type AuthPayloadResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['AuthPayload'] = ResolversParentTypes['AuthPayload']> = {
  expiresAt?: Resolver<ResolversTypes['Time'], ParentType, ContextType>;
  token?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  user?: Resolver<ResolversTypes['User'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type ClipResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Clip'] = ResolversParentTypes['Clip']> = {
  clipHash?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  clipMode?: Resolver<ResolversTypes['ClipCreationMode'], ParentType, ContextType>;
  createdAt?: Resolver<ResolversTypes['Time'], ParentType, ContextType>;
  description?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  duration?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  effectiveRetention?: Resolver<ResolversTypes['EffectiveRetention'], ParentType, ContextType>;
  endUnixMs?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  errorMessage?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  expiresAt?: Resolver<Maybe<ResolversTypes['Time']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  isExpired?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  playbackId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  playbackPolicy?: Resolver<ResolversTypes['PlaybackPolicy'], ParentType, ContextType>;
  sizeBytes?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  spriteUrl?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  spriteVttUrl?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  startMediaSeconds?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  startTime?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  startUnixMs?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  status?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  streamId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  thumbnailUrl?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  title?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  updatedAt?: Resolver<ResolversTypes['Time'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type ClusterStatusResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['ClusterStatus'] = ResolversParentTypes['ClusterStatus']> = {
  clusterId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  clusterType?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  currentStreams?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  currentViewers?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  egressCapacityMbps?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  egressMbps?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  healthyNodeCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  ingressMbps?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  latitude?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  longitude?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  nodeCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  peerCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  region?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  services?: Resolver<ReadonlyArray<ResolversTypes['String']>, ParentType, ContextType>;
  shortDescription?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  status?: Resolver<ResolversTypes['NodeStatus'], ParentType, ContextType>;
};

export type CompleteVodUploadResultResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['CompleteVodUploadResult'] = ResolversParentTypes['CompleteVodUploadResult']> = {
  __resolveType: TypeResolveFn<'AuthError' | 'NotFoundError' | 'ValidationError' | 'VodAsset', ParentType, ContextType>;
};

export type ConnectionEventResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['ConnectionEvent'] = ResolversParentTypes['ConnectionEvent']> = {
  connector?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  eventId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  eventType?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  ingest?: Resolver<Maybe<ResolversTypes['JSON']>, ParentType, ContextType>;
  nodeId?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  protocol?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  sessionDurationSeconds?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  sessionId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  streamId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  timestamp?: Resolver<ResolversTypes['Time'], ParentType, ContextType>;
};

export type CreateClipResultResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['CreateClipResult'] = ResolversParentTypes['CreateClipResult']> = {
  __resolveType: TypeResolveFn<'AuthError' | 'Clip' | 'NotFoundError' | 'ValidationError', ParentType, ContextType>;
};

export type CreateDeveloperTokenResultResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['CreateDeveloperTokenResult'] = ResolversParentTypes['CreateDeveloperTokenResult']> = {
  __resolveType: TypeResolveFn<'AuthError' | 'DeveloperToken' | 'RateLimitError' | 'ValidationError', ParentType, ContextType>;
};

export type CreatePushTargetResultResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['CreatePushTargetResult'] = ResolversParentTypes['CreatePushTargetResult']> = {
  __resolveType: TypeResolveFn<'AuthError' | 'NotFoundError' | 'PushTarget' | 'ValidationError', ParentType, ContextType>;
};

export type CreateSigningKeyResultResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['CreateSigningKeyResult'] = ResolversParentTypes['CreateSigningKeyResult']> = {
  __resolveType: TypeResolveFn<'AuthError' | 'CreateSigningKeySuccess' | 'RateLimitError' | 'ValidationError', ParentType, ContextType>;
};

export type CreateSigningKeySuccessResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['CreateSigningKeySuccess'] = ResolversParentTypes['CreateSigningKeySuccess']> = {
  privateKeyPem?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  signingKey?: Resolver<ResolversTypes['SigningKey'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type CreateStreamKeyResultResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['CreateStreamKeyResult'] = ResolversParentTypes['CreateStreamKeyResult']> = {
  __resolveType: TypeResolveFn<'AuthError' | 'NotFoundError' | 'StreamKey' | 'ValidationError', ParentType, ContextType>;
};

export type CreateStreamResultResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['CreateStreamResult'] = ResolversParentTypes['CreateStreamResult']> = {
  __resolveType: TypeResolveFn<'AuthError' | 'Stream' | 'ValidationError', ParentType, ContextType>;
};

export type CreateVodUploadResultResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['CreateVodUploadResult'] = ResolversParentTypes['CreateVodUploadResult']> = {
  __resolveType: TypeResolveFn<'AuthError' | 'ValidationError' | 'VodUploadSession', ParentType, ContextType>;
};

export type DvrChapterResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['DVRChapter'] = ResolversParentTypes['DVRChapter']> = {
  chapterId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  durationMs?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  hasGaps?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  isCurrent?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  lastFailureReason?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  playableNow?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  playbackId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  segmentCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  sizeBytes?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  spriteUrl?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  spriteVttUrl?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  state?: Resolver<ResolversTypes['DVRChapterState'], ParentType, ContextType>;
  thumbnailUrl?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  wallClockEndUnixMs?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  wallClockStartUnixMs?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
};

export type DvrChapterPageResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['DVRChapterPage'] = ResolversParentTypes['DVRChapterPage']> = {
  chapters?: Resolver<ReadonlyArray<ResolversTypes['DVRChapterRef']>, ParentType, ContextType>;
  nextPageToken?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type DvrChapterRefResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['DVRChapterRef'] = ResolversParentTypes['DVRChapterRef']> = {
  chapterId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  durationMs?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  endMs?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  hasGaps?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  intervalSeconds?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  mode?: Resolver<ResolversTypes['DVRChapterMode'], ParentType, ContextType>;
  playbackId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  segmentCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  sizeBytes?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  spriteUrl?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  spriteVttUrl?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  startMs?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  state?: Resolver<ResolversTypes['DVRChapterState'], ParentType, ContextType>;
  thumbnailUrl?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type DvrRequestResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['DVRRequest'] = ResolversParentTypes['DVRRequest']> = {
  createdAt?: Resolver<ResolversTypes['Time'], ParentType, ContextType>;
  durationSeconds?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  dvrHash?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  effectiveRetention?: Resolver<Maybe<ResolversTypes['EffectiveRetention']>, ParentType, ContextType>;
  endedAt?: Resolver<Maybe<ResolversTypes['Time']>, ParentType, ContextType>;
  errorMessage?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  expiresAt?: Resolver<Maybe<ResolversTypes['Time']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  isExpired?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  isFinalized?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  manifestPath?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  playbackId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  segmentCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  sizeBytes?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  spriteUrl?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  spriteVttUrl?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  startedAt?: Resolver<Maybe<ResolversTypes['Time']>, ParentType, ContextType>;
  status?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  storageLocation?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  streamId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  thumbnailUrl?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  updatedAt?: Resolver<ResolversTypes['Time'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type DeleteClipResultResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['DeleteClipResult'] = ResolversParentTypes['DeleteClipResult']> = {
  __resolveType: TypeResolveFn<'AuthError' | 'DeleteSuccess' | 'NotFoundError' | 'ValidationError', ParentType, ContextType>;
};

export type DeleteDvrResultResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['DeleteDVRResult'] = ResolversParentTypes['DeleteDVRResult']> = {
  __resolveType: TypeResolveFn<'AuthError' | 'DeleteSuccess' | 'NotFoundError' | 'ValidationError', ParentType, ContextType>;
};

export type DeletePushTargetResultResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['DeletePushTargetResult'] = ResolversParentTypes['DeletePushTargetResult']> = {
  __resolveType: TypeResolveFn<'AuthError' | 'DeleteSuccess' | 'NotFoundError' | 'ValidationError', ParentType, ContextType>;
};

export type DeleteStreamKeyResultResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['DeleteStreamKeyResult'] = ResolversParentTypes['DeleteStreamKeyResult']> = {
  __resolveType: TypeResolveFn<'AuthError' | 'DeleteSuccess' | 'NotFoundError' | 'ValidationError', ParentType, ContextType>;
};

export type DeleteStreamResultResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['DeleteStreamResult'] = ResolversParentTypes['DeleteStreamResult']> = {
  __resolveType: TypeResolveFn<'AuthError' | 'DeleteSuccess' | 'NotFoundError' | 'ValidationError', ParentType, ContextType>;
};

export type DeleteSuccessResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['DeleteSuccess'] = ResolversParentTypes['DeleteSuccess']> = {
  deletedId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  pending?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  success?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type DeleteVodAssetResultResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['DeleteVodAssetResult'] = ResolversParentTypes['DeleteVodAssetResult']> = {
  __resolveType: TypeResolveFn<'AuthError' | 'DeleteSuccess' | 'NotFoundError' | 'ValidationError', ParentType, ContextType>;
};

export type DeveloperTokenResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['DeveloperToken'] = ResolversParentTypes['DeveloperToken']> = {
  createdAt?: Resolver<ResolversTypes['Time'], ParentType, ContextType>;
  expiresAt?: Resolver<Maybe<ResolversTypes['Time']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  lastUsedAt?: Resolver<Maybe<ResolversTypes['Time']>, ParentType, ContextType>;
  permissions?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  scopes?: Resolver<ReadonlyArray<ResolversTypes['String']>, ParentType, ContextType>;
  status?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  tokenName?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  tokenValue?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type DeveloperTokenConnectionResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['DeveloperTokenConnection'] = ResolversParentTypes['DeveloperTokenConnection']> = {
  edges?: Resolver<ReadonlyArray<ResolversTypes['DeveloperTokenEdge']>, ParentType, ContextType>;
  nodes?: Resolver<ReadonlyArray<ResolversTypes['DeveloperToken']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
  totalCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type DeveloperTokenEdgeResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['DeveloperTokenEdge'] = ResolversParentTypes['DeveloperTokenEdge']> = {
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['DeveloperToken'], ParentType, ContextType>;
};

export type DvrLifecycleEventResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['DvrLifecycleEvent'] = ResolversParentTypes['DvrLifecycleEvent']> = {
  dvrHash?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  endedAt?: Resolver<Maybe<ResolversTypes['Time']>, ParentType, ContextType>;
  error?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  eventId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  manifestPath?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  nodeId?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  playbackId?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  segmentCount?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  sizeBytes?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  startedAt?: Resolver<Maybe<ResolversTypes['Time']>, ParentType, ContextType>;
  status?: Resolver<ResolversTypes['DvrLifecycleStatus'], ParentType, ContextType>;
  streamId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  timestamp?: Resolver<ResolversTypes['Time'], ParentType, ContextType>;
};

export type EffectiveRetentionResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['EffectiveRetention'] = ResolversParentTypes['EffectiveRetention']> = {
  retentionDays?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  retentionUntil?: Resolver<Maybe<ResolversTypes['Time']>, ParentType, ContextType>;
  source?: Resolver<ResolversTypes['RetentionSource'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type ErrorResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Error'] = ResolversParentTypes['Error']> = {
  __resolveType: TypeResolveFn<'AuthError' | 'NotFoundError' | 'RateLimitError' | 'ValidationError', ParentType, ContextType>;
};

export type IngestConnectionResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['IngestConnection'] = ResolversParentTypes['IngestConnection']> = {
  bitrateBps?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  bytesReceived?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  connected?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  connectedAt?: Resolver<ResolversTypes['Time'], ParentType, ContextType>;
  encrypted?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  latencyMs?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  nodeId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  packetsDropped?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  packetsLost?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  packetsReceived?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  packetsRetransmitted?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  protocol?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  receiveBufferPackets?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  remote?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  rttMs?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  sessionId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  updatedAt?: Resolver<ResolversTypes['Time'], ParentType, ContextType>;
};

export type IngestEndpointResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['IngestEndpoint'] = ResolversParentTypes['IngestEndpoint']> = {
  baseUrl?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  clusterId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  kind?: Resolver<ResolversTypes['IngestEndpointKind'], ParentType, ContextType>;
  loadScore?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  nodeId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  region?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  rtmpUrl?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  rtmpsUrl?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  srtUrl?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  whipUrl?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type IngestEndpointResponseResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['IngestEndpointResponse'] = ResolversParentTypes['IngestEndpointResponse']> = {
  fallbacks?: Resolver<ReadonlyArray<ResolversTypes['IngestEndpoint']>, ParentType, ContextType>;
  metadata?: Resolver<Maybe<ResolversTypes['IngestMetadata']>, ParentType, ContextType>;
  primary?: Resolver<ResolversTypes['IngestEndpoint'], ParentType, ContextType>;
};

export type IngestMetadataResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['IngestMetadata'] = ResolversParentTypes['IngestMetadata']> = {
  recordingEnabled?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  streamId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  title?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export interface JsonScalarConfig extends GraphQLScalarTypeConfig<ResolversTypes['JSON'], any> {
  name: 'JSON';
}

export type JwtPlaybackPolicyResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['JwtPlaybackPolicy'] = ResolversParentTypes['JwtPlaybackPolicy']> = {
  allowedKids?: Resolver<ReadonlyArray<ResolversTypes['String']>, ParentType, ContextType>;
};

export type LoginResultResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['LoginResult'] = ResolversParentTypes['LoginResult']> = {
  __resolveType: TypeResolveFn<'AuthError' | 'AuthPayload' | 'RateLimitError' | 'ValidationError', ParentType, ContextType>;
};

export type LogoutPayloadResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['LogoutPayload'] = ResolversParentTypes['LogoutPayload']> = {
  success?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type LogoutResultResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['LogoutResult'] = ResolversParentTypes['LogoutResult']> = {
  __resolveType: TypeResolveFn<'AuthError' | 'LogoutPayload', ParentType, ContextType>;
};

export type MediaRetentionPolicyResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['MediaRetentionPolicy'] = ResolversParentTypes['MediaRetentionPolicy']> = {
  defaultClipRetentionDays?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  defaultDvrRetentionDays?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  defaultVodRetentionDays?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  effectiveClipRetentionDays?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  effectiveDvrRetentionDays?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  effectiveVodRetentionDays?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  updatedAt?: Resolver<Maybe<ResolversTypes['Time']>, ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type MutationResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Mutation'] = ResolversParentTypes['Mutation']> = {
  abortVodUpload?: Resolver<ResolversTypes['AbortVodUploadResult'], ParentType, ContextType, RequireFields<MutationAbortVodUploadArgs, 'uploadId'>>;
  completeVodUpload?: Resolver<ResolversTypes['CompleteVodUploadResult'], ParentType, ContextType, RequireFields<MutationCompleteVodUploadArgs, 'input'>>;
  createClip?: Resolver<ResolversTypes['CreateClipResult'], ParentType, ContextType, RequireFields<MutationCreateClipArgs, 'input'>>;
  createDeveloperToken?: Resolver<ResolversTypes['CreateDeveloperTokenResult'], ParentType, ContextType, RequireFields<MutationCreateDeveloperTokenArgs, 'input'>>;
  createPushTarget?: Resolver<ResolversTypes['CreatePushTargetResult'], ParentType, ContextType, RequireFields<MutationCreatePushTargetArgs, 'input' | 'streamId'>>;
  createSigningKey?: Resolver<ResolversTypes['CreateSigningKeyResult'], ParentType, ContextType, RequireFields<MutationCreateSigningKeyArgs, 'input'>>;
  createStream?: Resolver<ResolversTypes['CreateStreamResult'], ParentType, ContextType, RequireFields<MutationCreateStreamArgs, 'input'>>;
  createStreamKey?: Resolver<ResolversTypes['CreateStreamKeyResult'], ParentType, ContextType, RequireFields<MutationCreateStreamKeyArgs, 'input' | 'streamId'>>;
  createVodUpload?: Resolver<ResolversTypes['CreateVodUploadResult'], ParentType, ContextType, RequireFields<MutationCreateVodUploadArgs, 'input'>>;
  deleteClip?: Resolver<ResolversTypes['DeleteClipResult'], ParentType, ContextType, RequireFields<MutationDeleteClipArgs, 'id'>>;
  deleteDVR?: Resolver<ResolversTypes['DeleteDVRResult'], ParentType, ContextType, RequireFields<MutationDeleteDvrArgs, 'dvrHash'>>;
  deletePushTarget?: Resolver<ResolversTypes['DeletePushTargetResult'], ParentType, ContextType, RequireFields<MutationDeletePushTargetArgs, 'id'>>;
  deleteStream?: Resolver<ResolversTypes['DeleteStreamResult'], ParentType, ContextType, RequireFields<MutationDeleteStreamArgs, 'id'>>;
  deleteStreamKey?: Resolver<ResolversTypes['DeleteStreamKeyResult'], ParentType, ContextType, RequireFields<MutationDeleteStreamKeyArgs, 'keyId' | 'streamId'>>;
  deleteVodAsset?: Resolver<ResolversTypes['DeleteVodAssetResult'], ParentType, ContextType, RequireFields<MutationDeleteVodAssetArgs, 'id'>>;
  login?: Resolver<ResolversTypes['LoginResult'], ParentType, ContextType, RequireFields<MutationLoginArgs, 'input'>>;
  logout?: Resolver<ResolversTypes['LogoutResult'], ParentType, ContextType>;
  noop?: Resolver<Maybe<ResolversTypes['Boolean']>, ParentType, ContextType>;
  refreshStreamKey?: Resolver<ResolversTypes['RefreshStreamKeyResult'], ParentType, ContextType, RequireFields<MutationRefreshStreamKeyArgs, 'id'>>;
  register?: Resolver<ResolversTypes['RegisterResult'], ParentType, ContextType, RequireFields<MutationRegisterArgs, 'input'>>;
  resetMediaRetentionOverride?: Resolver<ResolversTypes['UpdateMediaRetentionResult'], ParentType, ContextType, RequireFields<MutationResetMediaRetentionOverrideArgs, 'input'>>;
  revokeDeveloperToken?: Resolver<ResolversTypes['RevokeDeveloperTokenResult'], ParentType, ContextType, RequireFields<MutationRevokeDeveloperTokenArgs, 'id'>>;
  revokeSigningKey?: Resolver<ResolversTypes['RevokeSigningKeyResult'], ParentType, ContextType, RequireFields<MutationRevokeSigningKeyArgs, 'id'>>;
  setMediaRetentionPolicy?: Resolver<ResolversTypes['SetMediaRetentionPolicyResult'], ParentType, ContextType, RequireFields<MutationSetMediaRetentionPolicyArgs, 'input'>>;
  setPlaybackPolicy?: Resolver<ResolversTypes['SetPlaybackPolicyResult'], ParentType, ContextType, RequireFields<MutationSetPlaybackPolicyArgs, 'input'>>;
  setStreamRetentionOverrides?: Resolver<ResolversTypes['SetStreamRetentionOverridesResult'], ParentType, ContextType, RequireFields<MutationSetStreamRetentionOverridesArgs, 'input'>>;
  setStreamSrtPassphrase?: Resolver<ResolversTypes['SetStreamSrtPassphraseResult'], ParentType, ContextType, RequireFields<MutationSetStreamSrtPassphraseArgs, 'streamId'>>;
  startDVR?: Resolver<ResolversTypes['StartDVRResult'], ParentType, ContextType, RequireFields<MutationStartDvrArgs, 'streamId'>>;
  stopDVR?: Resolver<ResolversTypes['StopDVRResult'], ParentType, ContextType, RequireFields<MutationStopDvrArgs, 'dvrHash'>>;
  testPlaybackAccess?: Resolver<ResolversTypes['TestPlaybackAccessResult'], ParentType, ContextType, RequireFields<MutationTestPlaybackAccessArgs, 'input'>>;
  updateMediaRetention?: Resolver<ResolversTypes['UpdateMediaRetentionResult'], ParentType, ContextType, RequireFields<MutationUpdateMediaRetentionArgs, 'input'>>;
  updatePushTarget?: Resolver<ResolversTypes['UpdatePushTargetResult'], ParentType, ContextType, RequireFields<MutationUpdatePushTargetArgs, 'id' | 'input'>>;
  updateStream?: Resolver<ResolversTypes['UpdateStreamResult'], ParentType, ContextType, RequireFields<MutationUpdateStreamArgs, 'id' | 'input'>>;
};

export type NetworkNodeResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['NetworkNode'] = ResolversParentTypes['NetworkNode']> = {
  baseUrl?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  clusterId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  cpuPercent?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  egressCapacityMbps?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  egressMbps?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  lastHeartbeat?: Resolver<ResolversTypes['Time'], ParentType, ContextType>;
  latitude?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  longitude?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  mode?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  nodeId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  nodeType?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  region?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  status?: Resolver<ResolversTypes['NodeStatus'], ParentType, ContextType>;
  streams?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  viewers?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type NetworkStatusResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['NetworkStatus'] = ResolversParentTypes['NetworkStatus']> = {
  clusters?: Resolver<ReadonlyArray<ResolversTypes['ClusterStatus']>, ParentType, ContextType>;
  healthyNodes?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  nodes?: Resolver<ReadonlyArray<ResolversTypes['NetworkNode']>, ParentType, ContextType>;
  peerConnections?: Resolver<ReadonlyArray<ResolversTypes['PeerConnection']>, ParentType, ContextType>;
  serviceInstances?: Resolver<ReadonlyArray<ResolversTypes['ServiceInstance']>, ParentType, ContextType>;
  totalNodes?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  updatedAt?: Resolver<ResolversTypes['Time'], ParentType, ContextType>;
};

export type NotFoundErrorResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['NotFoundError'] = ResolversParentTypes['NotFoundError']> = {
  code?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  message?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  resourceId?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  resourceType?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type PageInfoResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['PageInfo'] = ResolversParentTypes['PageInfo']> = {
  endCursor?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  hasNextPage?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  hasPreviousPage?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  startCursor?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type PeerConnectionResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['PeerConnection'] = ResolversParentTypes['PeerConnection']> = {
  connected?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  connectionType?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  sourceCluster?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  targetCluster?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type PlaybackAccessDecisionResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['PlaybackAccessDecision'] = ResolversParentTypes['PlaybackAccessDecision']> = {
  allowed?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  claimsJson?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  detail?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  kid?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  policyType?: Resolver<ResolversTypes['PlaybackPolicyType'], ParentType, ContextType>;
  reason?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  webhookLatencyMs?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  webhookStatus?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type PlaybackMetadataResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['PlaybackMetadata'] = ResolversParentTypes['PlaybackMetadata']> = {
  contentId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  contentType?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  description?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  isLive?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  status?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  title?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  tracks?: Resolver<ReadonlyArray<ResolversTypes['PlaybackTrack']>, ParentType, ContextType>;
  viewers?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type PlaybackPolicyResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['PlaybackPolicy'] = ResolversParentTypes['PlaybackPolicy']> = {
  jwt?: Resolver<Maybe<ResolversTypes['JwtPlaybackPolicy']>, ParentType, ContextType>;
  type?: Resolver<ResolversTypes['PlaybackPolicyType'], ParentType, ContextType>;
  webhook?: Resolver<Maybe<ResolversTypes['WebhookPlaybackPolicy']>, ParentType, ContextType>;
};

export type PlaybackTrackResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['PlaybackTrack'] = ResolversParentTypes['PlaybackTrack']> = {
  bitrateKbps?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  channels?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  codec?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  height?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  sampleRate?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  type?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  width?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
};

export type ProcessingEventResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['ProcessingEvent'] = ResolversParentTypes['ProcessingEvent']> = {
  durationMs?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  error?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  eventId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  inputCodec?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  nodeId?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  outputCodec?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  playbackId?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  processType?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  progressPercent?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  stage?: Resolver<ResolversTypes['ProcessingEventStage'], ParentType, ContextType>;
  streamId?: Resolver<Maybe<ResolversTypes['ID']>, ParentType, ContextType>;
  timestamp?: Resolver<ResolversTypes['Time'], ParentType, ContextType>;
  trackType?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  vodHash?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type PullSourceEventResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['PullSourceEvent'] = ResolversParentTypes['PullSourceEvent']> = {
  address?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  attempt?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  createdAt?: Resolver<ResolversTypes['Time'], ParentType, ContextType>;
  eventKind?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  message?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  nodeId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type PullSourceViewResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['PullSourceView'] = ResolversParentTypes['PullSourceView']> = {
  allowedClusterIds?: Resolver<ReadonlyArray<ResolversTypes['String']>, ParentType, ContextType>;
  class?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  enabled?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  onDemand?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  sourceUriRedacted?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type PullStatusResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['PullStatus'] = ResolversParentTypes['PullStatus']> = {
  attempt?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  failures?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  lastError?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  nextAttemptAt?: Resolver<Maybe<ResolversTypes['Time']>, ParentType, ContextType>;
  nodeId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  state?: Resolver<ResolversTypes['PullState'], ParentType, ContextType>;
  updatedAt?: Resolver<ResolversTypes['Time'], ParentType, ContextType>;
};

export type PushTargetResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['PushTarget'] = ResolversParentTypes['PushTarget']> = {
  bitrateKbps?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  bytesSent?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  createdAt?: Resolver<ResolversTypes['Time'], ParentType, ContextType>;
  droppedUnits?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  isEnabled?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  lastError?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  lastPushedAt?: Resolver<Maybe<ResolversTypes['Time']>, ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  platform?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  status?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  streamId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  targetUri?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  updatedAt?: Resolver<ResolversTypes['Time'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type QueryResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Query'] = ResolversParentTypes['Query']> = {
  analytics?: Resolver<ResolversTypes['Analytics'], ParentType, ContextType>;
  clip?: Resolver<Maybe<ResolversTypes['Clip']>, ParentType, ContextType, RequireFields<QueryClipArgs, 'id'>>;
  developerTokensConnection?: Resolver<ResolversTypes['DeveloperTokenConnection'], ParentType, ContextType, Partial<QueryDeveloperTokensConnectionArgs>>;
  dvrChapter?: Resolver<Maybe<ResolversTypes['DVRChapter']>, ParentType, ContextType, RequireFields<QueryDvrChapterArgs, 'dvrId' | 'endMs' | 'startMs'>>;
  dvrChapters?: Resolver<ResolversTypes['DVRChapterPage'], ParentType, ContextType, RequireFields<QueryDvrChaptersArgs, 'dvrId'>>;
  me?: Resolver<ResolversTypes['User'], ParentType, ContextType>;
  mediaRetentionPolicy?: Resolver<ResolversTypes['MediaRetentionPolicy'], ParentType, ContextType>;
  networkStatus?: Resolver<ResolversTypes['NetworkStatus'], ParentType, ContextType>;
  ping?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  resolveIngestEndpoint?: Resolver<Maybe<ResolversTypes['IngestEndpointResponse']>, ParentType, ContextType, RequireFields<QueryResolveIngestEndpointArgs, 'streamKey'>>;
  resolveViewerEndpoint?: Resolver<ResolversTypes['ViewerEndpointResponse'], ParentType, ContextType, RequireFields<QueryResolveViewerEndpointArgs, 'contentId'>>;
  serviceInstancesHealth?: Resolver<ReadonlyArray<ResolversTypes['ServiceInstance']>, ParentType, ContextType, Partial<QueryServiceInstancesHealthArgs>>;
  signingKey?: Resolver<Maybe<ResolversTypes['SigningKey']>, ParentType, ContextType, RequireFields<QuerySigningKeyArgs, 'id'>>;
  signingKeysConnection?: Resolver<ResolversTypes['SigningKeysConnection'], ParentType, ContextType, Partial<QuerySigningKeysConnectionArgs>>;
  storageArtifactsConnection?: Resolver<ResolversTypes['StorageArtifactsConnection'], ParentType, ContextType, Partial<QueryStorageArtifactsConnectionArgs>>;
  stream?: Resolver<Maybe<ResolversTypes['Stream']>, ParentType, ContextType, RequireFields<QueryStreamArgs, 'id'>>;
  streamKeysConnection?: Resolver<ResolversTypes['StreamKeysConnection'], ParentType, ContextType, RequireFields<QueryStreamKeysConnectionArgs, 'streamId'>>;
  streamsConnection?: Resolver<ResolversTypes['StreamsConnection'], ParentType, ContextType, Partial<QueryStreamsConnectionArgs>>;
  vodAsset?: Resolver<Maybe<ResolversTypes['VodAsset']>, ParentType, ContextType, RequireFields<QueryVodAssetArgs, 'id'>>;
  vodUploadStatus?: Resolver<ResolversTypes['VodUploadStatusResult'], ParentType, ContextType, RequireFields<QueryVodUploadStatusArgs, 'uploadId'>>;
};

export type RateLimitErrorResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['RateLimitError'] = ResolversParentTypes['RateLimitError']> = {
  code?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  message?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  retryAfter?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type RefreshStreamKeyResultResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['RefreshStreamKeyResult'] = ResolversParentTypes['RefreshStreamKeyResult']> = {
  __resolveType: TypeResolveFn<'AuthError' | 'NotFoundError' | 'Stream' | 'ValidationError', ParentType, ContextType>;
};

export type RegisterResultResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['RegisterResult'] = ResolversParentTypes['RegisterResult']> = {
  __resolveType: TypeResolveFn<'AuthPayload' | 'ValidationError', ParentType, ContextType>;
};

export type RevokeDeveloperTokenResultResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['RevokeDeveloperTokenResult'] = ResolversParentTypes['RevokeDeveloperTokenResult']> = {
  __resolveType: TypeResolveFn<'AuthError' | 'DeleteSuccess' | 'NotFoundError' | 'ValidationError', ParentType, ContextType>;
};

export type RevokeSigningKeyResultResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['RevokeSigningKeyResult'] = ResolversParentTypes['RevokeSigningKeyResult']> = {
  __resolveType: TypeResolveFn<'AuthError' | 'DeleteSuccess' | 'NotFoundError' | 'ValidationError', ParentType, ContextType>;
};

export type ServiceInstanceResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['ServiceInstance'] = ResolversParentTypes['ServiceInstance']> = {
  clusterId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  healthEndpoint?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  host?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  instanceId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  lastHealthCheck?: Resolver<Maybe<ResolversTypes['Time']>, ParentType, ContextType>;
  nodeId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  port?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  protocol?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  serviceId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  status?: Resolver<ResolversTypes['InstanceStatus'], ParentType, ContextType>;
};

export type SetMediaRetentionPolicyResultResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['SetMediaRetentionPolicyResult'] = ResolversParentTypes['SetMediaRetentionPolicyResult']> = {
  __resolveType: TypeResolveFn<'AuthError' | 'MediaRetentionPolicy' | 'ValidationError', ParentType, ContextType>;
};

export type SetPlaybackPolicyResultResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['SetPlaybackPolicyResult'] = ResolversParentTypes['SetPlaybackPolicyResult']> = {
  __resolveType: TypeResolveFn<'AuthError' | 'Clip' | 'NotFoundError' | 'Stream' | 'ValidationError' | 'VodAsset', ParentType, ContextType>;
};

export type SetStreamRetentionOverridesResultResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['SetStreamRetentionOverridesResult'] = ResolversParentTypes['SetStreamRetentionOverridesResult']> = {
  __resolveType: TypeResolveFn<'AuthError' | 'NotFoundError' | 'StreamRetentionOverrides' | 'ValidationError', ParentType, ContextType>;
};

export type SetStreamSrtPassphraseResultResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['SetStreamSrtPassphraseResult'] = ResolversParentTypes['SetStreamSrtPassphraseResult']> = {
  __resolveType: TypeResolveFn<'AuthError' | 'NotFoundError' | 'StreamSrtSettings' | 'ValidationError', ParentType, ContextType>;
};

export type SigningKeyResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['SigningKey'] = ResolversParentTypes['SigningKey']> = {
  algorithm?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  createdAt?: Resolver<ResolversTypes['Time'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  kid?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  lastUsedAt?: Resolver<Maybe<ResolversTypes['Time']>, ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  publicKeyPem?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  revokedAt?: Resolver<Maybe<ResolversTypes['Time']>, ParentType, ContextType>;
  status?: Resolver<ResolversTypes['SigningKeyStatus'], ParentType, ContextType>;
};

export type SigningKeyEdgeResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['SigningKeyEdge'] = ResolversParentTypes['SigningKeyEdge']> = {
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['SigningKey'], ParentType, ContextType>;
};

export type SigningKeysConnectionResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['SigningKeysConnection'] = ResolversParentTypes['SigningKeysConnection']> = {
  edges?: Resolver<ReadonlyArray<ResolversTypes['SigningKeyEdge']>, ParentType, ContextType>;
  nodes?: Resolver<ReadonlyArray<ResolversTypes['SigningKey']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
  totalCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type StartDvrResultResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['StartDVRResult'] = ResolversParentTypes['StartDVRResult']> = {
  __resolveType: TypeResolveFn<'AuthError' | 'DVRRequest' | 'NotFoundError' | 'ValidationError', ParentType, ContextType>;
};

export type StopDvrResultResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['StopDVRResult'] = ResolversParentTypes['StopDVRResult']> = {
  __resolveType: TypeResolveFn<'AuthError' | 'DeleteSuccess' | 'NotFoundError' | 'ValidationError', ParentType, ContextType>;
};

export type StorageArtifactResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['StorageArtifact'] = ResolversParentTypes['StorageArtifact']> = {
  createdAt?: Resolver<ResolversTypes['Time'], ParentType, ContextType>;
  durationSeconds?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  effectiveRetention?: Resolver<Maybe<ResolversTypes['EffectiveRetention']>, ParentType, ContextType>;
  errorMessage?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  expiresAt?: Resolver<Maybe<ResolversTypes['Time']>, ParentType, ContextType>;
  hash?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  key?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  kind?: Resolver<ResolversTypes['StorageArtifactKind'], ParentType, ContextType>;
  playbackId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  sizeBytes?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  status?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  streamId?: Resolver<Maybe<ResolversTypes['ID']>, ParentType, ContextType>;
  thumbnailUrl?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  title?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type StorageArtifactsConnectionResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['StorageArtifactsConnection'] = ResolversParentTypes['StorageArtifactsConnection']> = {
  hasNextPage?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  limit?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  nodes?: Resolver<ReadonlyArray<ResolversTypes['StorageArtifact']>, ParentType, ContextType>;
  offset?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  totalCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type StorageEventResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['StorageEvent'] = ResolversParentTypes['StorageEvent']> = {
  action?: Resolver<ResolversTypes['StorageEventAction'], ParentType, ContextType>;
  assetHash?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  assetType?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  durationMs?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  error?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  eventId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  localPath?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  nodeId?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  s3Url?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  sizeBytes?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  streamId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  timestamp?: Resolver<ResolversTypes['Time'], ParentType, ContextType>;
};

export type StreamResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Stream'] = ResolversParentTypes['Stream']> = {
  createdAt?: Resolver<ResolversTypes['Time'], ParentType, ContextType>;
  description?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  dvrChapterIntervalSeconds?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  dvrChapterMode?: Resolver<ResolversTypes['DVRChapterMode'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  ingestConnection?: Resolver<Maybe<ResolversTypes['IngestConnection']>, ParentType, ContextType>;
  ingestMode?: Resolver<ResolversTypes['IngestMode'], ParentType, ContextType>;
  metrics?: Resolver<ResolversTypes['StreamMetrics'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  playbackId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  playbackPolicy?: Resolver<ResolversTypes['PlaybackPolicy'], ParentType, ContextType>;
  pullSource?: Resolver<Maybe<ResolversTypes['PullSourceView']>, ParentType, ContextType>;
  pushTargets?: Resolver<ReadonlyArray<ResolversTypes['PushTarget']>, ParentType, ContextType>;
  recentPullSourceEvents?: Resolver<ReadonlyArray<ResolversTypes['PullSourceEvent']>, ParentType, ContextType, RequireFields<StreamRecentPullSourceEventsArgs, 'limit'>>;
  record?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  retentionOverrides?: Resolver<ResolversTypes['StreamRetentionOverrides'], ParentType, ContextType>;
  sourceLocation?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  srtPassphraseSet?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  streamId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  streamKey?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  tracks?: Resolver<ReadonlyArray<ResolversTypes['StreamTrack']>, ParentType, ContextType>;
  updatedAt?: Resolver<ResolversTypes['Time'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type StreamAnalyticsDailyResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['StreamAnalyticsDaily'] = ResolversParentTypes['StreamAnalyticsDaily']> = {
  day?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  egressBytes?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  peakConcurrentViewers?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  streamId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  totalViews?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  uniqueViewers?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  viewerSeconds?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
};

export type StreamAnalyticsDailyConnectionResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['StreamAnalyticsDailyConnection'] = ResolversParentTypes['StreamAnalyticsDailyConnection']> = {
  edges?: Resolver<ReadonlyArray<ResolversTypes['StreamAnalyticsDailyEdge']>, ParentType, ContextType>;
  nodes?: Resolver<ReadonlyArray<ResolversTypes['StreamAnalyticsDaily']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
  totalCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type StreamAnalyticsDailyEdgeResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['StreamAnalyticsDailyEdge'] = ResolversParentTypes['StreamAnalyticsDailyEdge']> = {
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['StreamAnalyticsDaily'], ParentType, ContextType>;
};

export type StreamEdgeResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['StreamEdge'] = ResolversParentTypes['StreamEdge']> = {
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['Stream'], ParentType, ContextType>;
};

export type StreamEventResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['StreamEvent'] = ResolversParentTypes['StreamEvent']> = {
  details?: Resolver<Maybe<ResolversTypes['JSON']>, ParentType, ContextType>;
  eventId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  nodeId?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  reason?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  source?: Resolver<ResolversTypes['StreamEventSource'], ParentType, ContextType>;
  state?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  status?: Resolver<ResolversTypes['StreamStatus'], ParentType, ContextType>;
  streamId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  timestamp?: Resolver<ResolversTypes['Time'], ParentType, ContextType>;
  type?: Resolver<ResolversTypes['StreamEventType'], ParentType, ContextType>;
};

export type StreamKeyResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['StreamKey'] = ResolversParentTypes['StreamKey']> = {
  createdAt?: Resolver<ResolversTypes['Time'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  isActive?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  isPrimary?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  keyName?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  keyValue?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  lastUsedAt?: Resolver<Maybe<ResolversTypes['Time']>, ParentType, ContextType>;
  streamId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type StreamKeyEdgeResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['StreamKeyEdge'] = ResolversParentTypes['StreamKeyEdge']> = {
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['StreamKey'], ParentType, ContextType>;
};

export type StreamKeysConnectionResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['StreamKeysConnection'] = ResolversParentTypes['StreamKeysConnection']> = {
  edges?: Resolver<ReadonlyArray<ResolversTypes['StreamKeyEdge']>, ParentType, ContextType>;
  nodes?: Resolver<ReadonlyArray<ResolversTypes['StreamKey']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
  totalCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type StreamMetricsResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['StreamMetrics'] = ResolversParentTypes['StreamMetrics']> = {
  currentViewers?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  isLive?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  nodeId?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  packetsLost?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  packetsRetransmitted?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  packetsSent?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  pull?: Resolver<Maybe<ResolversTypes['PullStatus']>, ParentType, ContextType>;
  reconnects?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  startedAt?: Resolver<Maybe<ResolversTypes['Time']>, ParentType, ContextType>;
  status?: Resolver<ResolversTypes['StreamStatus'], ParentType, ContextType>;
  trackCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  updatedAt?: Resolver<Maybe<ResolversTypes['Time']>, ParentType, ContextType>;
};

export type StreamRetentionOverridesResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['StreamRetentionOverrides'] = ResolversParentTypes['StreamRetentionOverrides']> = {
  clipRetentionDaysOverride?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  dvrRetentionDaysOverride?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  streamId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type StreamSrtSettingsResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['StreamSrtSettings'] = ResolversParentTypes['StreamSrtSettings']> = {
  passphraseSet?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  streamId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type StreamTrackResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['StreamTrack'] = ResolversParentTypes['StreamTrack']> = {
  bitrateKbps?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  channels?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  codec?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  codecString?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  fps?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  height?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  keyframeIntervalMs?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  sampleRate?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  trackId?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  trackType?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  width?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
};

export type StreamingUsageResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['StreamingUsage'] = ResolversParentTypes['StreamingUsage']> = {
  streamAnalyticsDailyConnection?: Resolver<ResolversTypes['StreamAnalyticsDailyConnection'], ParentType, ContextType, RequireFields<StreamingUsageStreamAnalyticsDailyConnectionArgs, 'streamId' | 'timeRange'>>;
};

export type StreamsConnectionResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['StreamsConnection'] = ResolversParentTypes['StreamsConnection']> = {
  edges?: Resolver<ReadonlyArray<ResolversTypes['StreamEdge']>, ParentType, ContextType>;
  nodes?: Resolver<ReadonlyArray<ResolversTypes['Stream']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
  totalCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type SubscriptionResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Subscription'] = ResolversParentTypes['Subscription']> = {
  liveConnectionEvents?: SubscriptionResolver<ResolversTypes['ConnectionEvent'], "liveConnectionEvents", ParentType, ContextType, RequireFields<SubscriptionLiveConnectionEventsArgs, 'streamId'>>;
  liveDvrLifecycle?: SubscriptionResolver<ResolversTypes['DvrLifecycleEvent'], "liveDvrLifecycle", ParentType, ContextType, RequireFields<SubscriptionLiveDvrLifecycleArgs, 'streamId'>>;
  liveProcessingEvents?: SubscriptionResolver<ResolversTypes['ProcessingEvent'], "liveProcessingEvents", ParentType, ContextType, Partial<SubscriptionLiveProcessingEventsArgs>>;
  liveStorageEvents?: SubscriptionResolver<ResolversTypes['StorageEvent'], "liveStorageEvents", ParentType, ContextType, RequireFields<SubscriptionLiveStorageEventsArgs, 'streamId'>>;
  liveStreamEvents?: SubscriptionResolver<ResolversTypes['StreamEvent'], "liveStreamEvents", ParentType, ContextType, RequireFields<SubscriptionLiveStreamEventsArgs, 'streamId'>>;
  liveViewerMetrics?: SubscriptionResolver<ResolversTypes['ViewerMetrics'], "liveViewerMetrics", ParentType, ContextType, RequireFields<SubscriptionLiveViewerMetricsArgs, 'streamId'>>;
  liveVodLifecycle?: SubscriptionResolver<ResolversTypes['VodLifecycleEvent'], "liveVodLifecycle", ParentType, ContextType, Partial<SubscriptionLiveVodLifecycleArgs>>;
};

export type TestPlaybackAccessResultResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['TestPlaybackAccessResult'] = ResolversParentTypes['TestPlaybackAccessResult']> = {
  __resolveType: TypeResolveFn<'AuthError' | 'NotFoundError' | 'PlaybackAccessDecision' | 'ValidationError', ParentType, ContextType>;
};

export interface TimeScalarConfig extends GraphQLScalarTypeConfig<ResolversTypes['Time'], any> {
  name: 'Time';
}

export type UpdateMediaRetentionResultResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['UpdateMediaRetentionResult'] = ResolversParentTypes['UpdateMediaRetentionResult']> = {
  __resolveType: TypeResolveFn<'AuthError' | 'EffectiveRetention' | 'NotFoundError' | 'ValidationError', ParentType, ContextType>;
};

export type UpdatePushTargetResultResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['UpdatePushTargetResult'] = ResolversParentTypes['UpdatePushTargetResult']> = {
  __resolveType: TypeResolveFn<'AuthError' | 'NotFoundError' | 'PushTarget' | 'ValidationError', ParentType, ContextType>;
};

export type UpdateStreamResultResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['UpdateStreamResult'] = ResolversParentTypes['UpdateStreamResult']> = {
  __resolveType: TypeResolveFn<'AuthError' | 'NotFoundError' | 'Stream' | 'ValidationError', ParentType, ContextType>;
};

export type UserResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['User'] = ResolversParentTypes['User']> = {
  createdAt?: Resolver<ResolversTypes['Time'], ParentType, ContextType>;
  email?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  name?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type ValidationErrorResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['ValidationError'] = ResolversParentTypes['ValidationError']> = {
  code?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  constraint?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  field?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  message?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type ViewerEndpointResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['ViewerEndpoint'] = ResolversParentTypes['ViewerEndpoint']> = {
  baseUrl?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  geoDistance?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  loadScore?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  nodeId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  outputs?: Resolver<ResolversTypes['JSON'], ParentType, ContextType>;
  protocol?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  url?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type ViewerEndpointResponseResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['ViewerEndpointResponse'] = ResolversParentTypes['ViewerEndpointResponse']> = {
  fallbacks?: Resolver<ReadonlyArray<ResolversTypes['ViewerEndpoint']>, ParentType, ContextType>;
  metadata?: Resolver<ResolversTypes['PlaybackMetadata'], ParentType, ContextType>;
  primary?: Resolver<Maybe<ResolversTypes['ViewerEndpoint']>, ParentType, ContextType>;
};

export type ViewerMetricsResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['ViewerMetrics'] = ResolversParentTypes['ViewerMetrics']> = {
  bytesIn?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  currentViewers?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  egressBytesPerSecond?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  eventId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  nodeId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  streamId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  timestamp?: Resolver<ResolversTypes['Time'], ParentType, ContextType>;
};

export type VodAssetResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['VodAsset'] = ResolversParentTypes['VodAsset']> = {
  artifactHash?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  audioCodec?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  bitrateKbps?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  completedAt?: Resolver<Maybe<ResolversTypes['Time']>, ParentType, ContextType>;
  contentType?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  createdAt?: Resolver<ResolversTypes['Time'], ParentType, ContextType>;
  description?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  durationMs?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  errorMessage?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  expiresAt?: Resolver<Maybe<ResolversTypes['Time']>, ParentType, ContextType>;
  filename?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  isFinalized?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  manifestPath?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  originType?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  outputs?: Resolver<ReadonlyArray<ResolversTypes['String']>, ParentType, ContextType>;
  playbackId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  playbackPolicy?: Resolver<ResolversTypes['PlaybackPolicy'], ParentType, ContextType>;
  progressPercent?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  resolution?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  sizeBytes?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  status?: Resolver<ResolversTypes['VodAssetStatus'], ParentType, ContextType>;
  storageLocation?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  storedBytes?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  thumbnailUrl?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  title?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  updatedAt?: Resolver<ResolversTypes['Time'], ParentType, ContextType>;
  videoCodec?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type VodLifecycleEventResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['VodLifecycleEvent'] = ResolversParentTypes['VodLifecycleEvent']> = {
  audioCodec?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  contentType?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  durationMs?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  error?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  eventId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  filename?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  playbackId?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  resolution?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  sizeBytes?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  status?: Resolver<ResolversTypes['VodLifecycleStatus'], ParentType, ContextType>;
  streamId?: Resolver<Maybe<ResolversTypes['ID']>, ParentType, ContextType>;
  timestamp?: Resolver<ResolversTypes['Time'], ParentType, ContextType>;
  uploadId?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  videoCodec?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  vodHash?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type VodUploadPartResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['VodUploadPart'] = ResolversParentTypes['VodUploadPart']> = {
  partNumber?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  presignedUrl?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type VodUploadSessionResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['VodUploadSession'] = ResolversParentTypes['VodUploadSession']> = {
  artifactHash?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  artifactId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  asset?: Resolver<ResolversTypes['VodAsset'], ParentType, ContextType>;
  expiresAt?: Resolver<ResolversTypes['Time'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  partSize?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  parts?: Resolver<ReadonlyArray<ResolversTypes['VodUploadPart']>, ParentType, ContextType>;
  playbackId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type VodUploadStatusResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['VodUploadStatus'] = ResolversParentTypes['VodUploadStatus']> = {
  artifactHash?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  expiresAt?: Resolver<ResolversTypes['Time'], ParentType, ContextType>;
  lastErrorCode?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  missingParts?: Resolver<ReadonlyArray<ResolversTypes['Int']>, ParentType, ContextType>;
  playbackId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  progressPercent?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  state?: Resolver<ResolversTypes['VodAssetStatus'], ParentType, ContextType>;
  uploadId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  uploadedParts?: Resolver<ReadonlyArray<ResolversTypes['VodUploadedPart']>, ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type VodUploadStatusResultResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['VodUploadStatusResult'] = ResolversParentTypes['VodUploadStatusResult']> = {
  __resolveType: TypeResolveFn<'AuthError' | 'NotFoundError' | 'ValidationError' | 'VodUploadStatus', ParentType, ContextType>;
};

export type VodUploadedPartResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['VodUploadedPart'] = ResolversParentTypes['VodUploadedPart']> = {
  etag?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  partNumber?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  sizeBytes?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
};

export type WebhookPlaybackPolicyResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['WebhookPlaybackPolicy'] = ResolversParentTypes['WebhookPlaybackPolicy']> = {
  secretMasked?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  timeoutMs?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  url?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type Resolvers<ContextType = GraphQLContext> = {
  AbortVodUploadResult?: AbortVodUploadResultResolvers<ContextType>;
  Analytics?: AnalyticsResolvers<ContextType>;
  AnalyticsUsage?: AnalyticsUsageResolvers<ContextType>;
  AuthError?: AuthErrorResolvers<ContextType>;
  AuthPayload?: AuthPayloadResolvers<ContextType>;
  Clip?: ClipResolvers<ContextType>;
  ClusterStatus?: ClusterStatusResolvers<ContextType>;
  CompleteVodUploadResult?: CompleteVodUploadResultResolvers<ContextType>;
  ConnectionEvent?: ConnectionEventResolvers<ContextType>;
  CreateClipResult?: CreateClipResultResolvers<ContextType>;
  CreateDeveloperTokenResult?: CreateDeveloperTokenResultResolvers<ContextType>;
  CreatePushTargetResult?: CreatePushTargetResultResolvers<ContextType>;
  CreateSigningKeyResult?: CreateSigningKeyResultResolvers<ContextType>;
  CreateSigningKeySuccess?: CreateSigningKeySuccessResolvers<ContextType>;
  CreateStreamKeyResult?: CreateStreamKeyResultResolvers<ContextType>;
  CreateStreamResult?: CreateStreamResultResolvers<ContextType>;
  CreateVodUploadResult?: CreateVodUploadResultResolvers<ContextType>;
  DVRChapter?: DvrChapterResolvers<ContextType>;
  DVRChapterPage?: DvrChapterPageResolvers<ContextType>;
  DVRChapterRef?: DvrChapterRefResolvers<ContextType>;
  DVRRequest?: DvrRequestResolvers<ContextType>;
  DeleteClipResult?: DeleteClipResultResolvers<ContextType>;
  DeleteDVRResult?: DeleteDvrResultResolvers<ContextType>;
  DeletePushTargetResult?: DeletePushTargetResultResolvers<ContextType>;
  DeleteStreamKeyResult?: DeleteStreamKeyResultResolvers<ContextType>;
  DeleteStreamResult?: DeleteStreamResultResolvers<ContextType>;
  DeleteSuccess?: DeleteSuccessResolvers<ContextType>;
  DeleteVodAssetResult?: DeleteVodAssetResultResolvers<ContextType>;
  DeveloperToken?: DeveloperTokenResolvers<ContextType>;
  DeveloperTokenConnection?: DeveloperTokenConnectionResolvers<ContextType>;
  DeveloperTokenEdge?: DeveloperTokenEdgeResolvers<ContextType>;
  DvrLifecycleEvent?: DvrLifecycleEventResolvers<ContextType>;
  EffectiveRetention?: EffectiveRetentionResolvers<ContextType>;
  Error?: ErrorResolvers<ContextType>;
  IngestConnection?: IngestConnectionResolvers<ContextType>;
  IngestEndpoint?: IngestEndpointResolvers<ContextType>;
  IngestEndpointResponse?: IngestEndpointResponseResolvers<ContextType>;
  IngestMetadata?: IngestMetadataResolvers<ContextType>;
  JSON?: GraphQLScalarType;
  JwtPlaybackPolicy?: JwtPlaybackPolicyResolvers<ContextType>;
  LoginResult?: LoginResultResolvers<ContextType>;
  LogoutPayload?: LogoutPayloadResolvers<ContextType>;
  LogoutResult?: LogoutResultResolvers<ContextType>;
  MediaRetentionPolicy?: MediaRetentionPolicyResolvers<ContextType>;
  Mutation?: MutationResolvers<ContextType>;
  NetworkNode?: NetworkNodeResolvers<ContextType>;
  NetworkStatus?: NetworkStatusResolvers<ContextType>;
  NotFoundError?: NotFoundErrorResolvers<ContextType>;
  PageInfo?: PageInfoResolvers<ContextType>;
  PeerConnection?: PeerConnectionResolvers<ContextType>;
  PlaybackAccessDecision?: PlaybackAccessDecisionResolvers<ContextType>;
  PlaybackMetadata?: PlaybackMetadataResolvers<ContextType>;
  PlaybackPolicy?: PlaybackPolicyResolvers<ContextType>;
  PlaybackTrack?: PlaybackTrackResolvers<ContextType>;
  ProcessingEvent?: ProcessingEventResolvers<ContextType>;
  PullSourceEvent?: PullSourceEventResolvers<ContextType>;
  PullSourceView?: PullSourceViewResolvers<ContextType>;
  PullStatus?: PullStatusResolvers<ContextType>;
  PushTarget?: PushTargetResolvers<ContextType>;
  Query?: QueryResolvers<ContextType>;
  RateLimitError?: RateLimitErrorResolvers<ContextType>;
  RefreshStreamKeyResult?: RefreshStreamKeyResultResolvers<ContextType>;
  RegisterResult?: RegisterResultResolvers<ContextType>;
  RevokeDeveloperTokenResult?: RevokeDeveloperTokenResultResolvers<ContextType>;
  RevokeSigningKeyResult?: RevokeSigningKeyResultResolvers<ContextType>;
  ServiceInstance?: ServiceInstanceResolvers<ContextType>;
  SetMediaRetentionPolicyResult?: SetMediaRetentionPolicyResultResolvers<ContextType>;
  SetPlaybackPolicyResult?: SetPlaybackPolicyResultResolvers<ContextType>;
  SetStreamRetentionOverridesResult?: SetStreamRetentionOverridesResultResolvers<ContextType>;
  SetStreamSrtPassphraseResult?: SetStreamSrtPassphraseResultResolvers<ContextType>;
  SigningKey?: SigningKeyResolvers<ContextType>;
  SigningKeyEdge?: SigningKeyEdgeResolvers<ContextType>;
  SigningKeysConnection?: SigningKeysConnectionResolvers<ContextType>;
  StartDVRResult?: StartDvrResultResolvers<ContextType>;
  StopDVRResult?: StopDvrResultResolvers<ContextType>;
  StorageArtifact?: StorageArtifactResolvers<ContextType>;
  StorageArtifactsConnection?: StorageArtifactsConnectionResolvers<ContextType>;
  StorageEvent?: StorageEventResolvers<ContextType>;
  Stream?: StreamResolvers<ContextType>;
  StreamAnalyticsDaily?: StreamAnalyticsDailyResolvers<ContextType>;
  StreamAnalyticsDailyConnection?: StreamAnalyticsDailyConnectionResolvers<ContextType>;
  StreamAnalyticsDailyEdge?: StreamAnalyticsDailyEdgeResolvers<ContextType>;
  StreamEdge?: StreamEdgeResolvers<ContextType>;
  StreamEvent?: StreamEventResolvers<ContextType>;
  StreamKey?: StreamKeyResolvers<ContextType>;
  StreamKeyEdge?: StreamKeyEdgeResolvers<ContextType>;
  StreamKeysConnection?: StreamKeysConnectionResolvers<ContextType>;
  StreamMetrics?: StreamMetricsResolvers<ContextType>;
  StreamRetentionOverrides?: StreamRetentionOverridesResolvers<ContextType>;
  StreamSrtSettings?: StreamSrtSettingsResolvers<ContextType>;
  StreamTrack?: StreamTrackResolvers<ContextType>;
  StreamingUsage?: StreamingUsageResolvers<ContextType>;
  StreamsConnection?: StreamsConnectionResolvers<ContextType>;
  Subscription?: SubscriptionResolvers<ContextType>;
  TestPlaybackAccessResult?: TestPlaybackAccessResultResolvers<ContextType>;
  Time?: GraphQLScalarType;
  UpdateMediaRetentionResult?: UpdateMediaRetentionResultResolvers<ContextType>;
  UpdatePushTargetResult?: UpdatePushTargetResultResolvers<ContextType>;
  UpdateStreamResult?: UpdateStreamResultResolvers<ContextType>;
  User?: UserResolvers<ContextType>;
  ValidationError?: ValidationErrorResolvers<ContextType>;
  ViewerEndpoint?: ViewerEndpointResolvers<ContextType>;
  ViewerEndpointResponse?: ViewerEndpointResponseResolvers<ContextType>;
  ViewerMetrics?: ViewerMetricsResolvers<ContextType>;
  VodAsset?: VodAssetResolvers<ContextType>;
  VodLifecycleEvent?: VodLifecycleEventResolvers<ContextType>;
  VodUploadPart?: VodUploadPartResolvers<ContextType>;
  VodUploadSession?: VodUploadSessionResolvers<ContextType>;
  VodUploadStatus?: VodUploadStatusResolvers<ContextType>;
  VodUploadStatusResult?: VodUploadStatusResultResolvers<ContextType>;
  VodUploadedPart?: VodUploadedPartResolvers<ContextType>;
  WebhookPlaybackPolicy?: WebhookPlaybackPolicyResolvers<ContextType>;
};

