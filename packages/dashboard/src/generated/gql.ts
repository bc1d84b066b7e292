/* eslint-disable */
import * as types from './graphql';



/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  fragment Failure on Error {\n    message\n    ... on ValidationError { field }\n  }\n": typeof types.FailureFragmentDoc,
    "\n  query Me {\n    me { id email name }\n  }\n": typeof types.MeDocument,
    "\n  mutation Logout {\n    logout { __typename }\n  }\n": typeof types.LogoutDocument,
    "\n  mutation Register($input: RegisterInput!) {\n    register(input: $input) {\n      __typename\n      ... on AuthPayload { expiresAt user { id email name } }\n      ...Failure\n    }\n  }\n": typeof types.RegisterDocument,
    "\n  mutation Login($input: LoginInput!) {\n    login(input: $input) {\n      __typename\n      ... on AuthPayload { expiresAt user { id email name } }\n      ...Failure\n      ... on RateLimitError { retryAfter }\n    }\n  }\n": typeof types.LoginDocument,
    "\n  mutation CreateStream($input: CreateStreamInput!) {\n    createStream(input: $input) {\n      __typename\n      ... on Stream { id }\n      ...Failure\n    }\n  }\n": typeof types.CreateStreamDocument,
    "\n  query SigningKeys {\n    signingKeysConnection(page: { first: 100 }) { nodes { id kid name status createdAt lastUsedAt } }\n  }\n": typeof types.SigningKeysDocument,
    "\n  mutation CreateSigningKey($input: CreateSigningKeyInput!) {\n    createSigningKey(input: $input) {\n      __typename\n      ... on CreateSigningKeySuccess { privateKeyPem signingKey { id kid name } }\n      ...Failure\n    }\n  }\n": typeof types.CreateSigningKeyDocument,
    "\n  mutation RevokeSigningKey($id: ID!) {\n    revokeSigningKey(id: $id) {\n      __typename\n      ... on DeleteSuccess { deletedId }\n      ...Failure\n    }\n  }\n": typeof types.RevokeSigningKeyDocument,
    "\n  query StreamAnalytics($streamId: ID!, $timeRange: TimeRangeInput!) {\n    analytics {\n      usage {\n        streaming {\n          streamAnalyticsDailyConnection(streamId: $streamId, timeRange: $timeRange, page: { first: 366 }) {\n            nodes { day totalViews uniqueViewers egressBytes peakConcurrentViewers }\n          }\n        }\n      }\n    }\n  }\n": typeof types.StreamAnalyticsDocument,
    "\n  query Ingest($streamKey: String!) {\n    resolveIngestEndpoint(streamKey: $streamKey) {\n      primary { nodeId rtmpUrl rtmpsUrl srtUrl whipUrl }\n    }\n  }\n": typeof types.IngestDocument,
    "\n  query StreamKeys($streamId: ID!) {\n    streamKeysConnection(streamId: $streamId, page: { first: 100 }) {\n      nodes { id keyName isActive isPrimary lastUsedAt createdAt }\n    }\n  }\n": typeof types.StreamKeysDocument,
    "\n  mutation CreateStreamKey($streamId: ID!, $input: CreateStreamKeyInput!) {\n    createStreamKey(streamId: $streamId, input: $input) {\n      __typename\n      ... on StreamKey { id keyName keyValue }\n      ...Failure\n    }\n  }\n": typeof types.CreateStreamKeyDocument,
    "\n  mutation RotateStreamKey($id: ID!) {\n    refreshStreamKey(id: $id) {\n      __typename\n      ... on Stream { id streamKey }\n      ...Failure\n    }\n  }\n": typeof types.RotateStreamKeyDocument,
    "\n  mutation DeleteStreamKey($streamId: ID!, $keyId: ID!) {\n    deleteStreamKey(streamId: $streamId, keyId: $keyId) {\n      __typename\n      ... on DeleteSuccess { deletedId }\n      ...Failure\n    }\n  }\n": typeof types.DeleteStreamKeyDocument,
    "\n  query ActiveSigningKeys {\n    signingKeysConnection(status: ACTIVE, page: { first: 100 }) { nodes { id kid name } }\n  }\n": typeof types.ActiveSigningKeysDocument,
    "\n  mutation SetPlaybackPolicy($input: SetPlaybackPolicyInput!) {\n    setPlaybackPolicy(input: $input) {\n      __typename\n      ... on Stream { id playbackPolicy { type jwt { allowedKids } webhook { url timeoutMs secretMasked } } }\n      ...Failure\n    }\n  }\n": typeof types.SetPlaybackPolicyDocument,
    "\n  query PushTargets($id: ID!) {\n    stream(id: $id) {\n      id\n      pushTargets { id name platform targetUri isEnabled status lastError bitrateKbps bytesSent lastPushedAt }\n    }\n  }\n": typeof types.PushTargetsDocument,
    "\n  mutation CreatePushTarget($streamId: ID!, $input: CreatePushTargetInput!) {\n    createPushTarget(streamId: $streamId, input: $input) {\n      __typename\n      ... on PushTarget { id }\n      ...Failure\n    }\n  }\n": typeof types.CreatePushTargetDocument,
    "\n  mutation UpdatePushTarget($id: ID!, $input: UpdatePushTargetInput!) {\n    updatePushTarget(id: $id, input: $input) {\n      __typename\n      ... on PushTarget { id isEnabled }\n      ...Failure\n    }\n  }\n": typeof types.UpdatePushTargetDocument,
    "\n  mutation DeletePushTarget($id: ID!) {\n    deletePushTarget(id: $id) {\n      __typename\n      ... on DeleteSuccess { deletedId }\n      ...Failure\n    }\n  }\n": typeof types.DeletePushTargetDocument,
    "\n  query StreamArtifacts($id: ID!, $input: StorageArtifactsInput) {\n    stream(id: $id) { id name record metrics { status } }\n    storageArtifactsConnection(input: $input) {\n      totalCount\n      nodes { id kind hash playbackId title status durationSeconds sizeBytes createdAt errorMessage }\n    }\n  }\n": typeof types.StreamArtifactsDocument,
    "\n  mutation StartDvr($streamId: ID!) {\n    startDVR(streamId: $streamId) {\n      __typename\n      ... on DVRRequest { dvrHash status }\n      ...Failure\n    }\n  }\n": typeof types.StartDvrDocument,
    "\n  mutation StopDvr($dvrHash: ID!) {\n    stopDVR(dvrHash: $dvrHash) {\n      __typename\n      ... on DeleteSuccess { deletedId }\n      ...Failure\n    }\n  }\n": typeof types.StopDvrDocument,
    "\n  mutation CreateClip($input: CreateClipInput!) {\n    createClip(input: $input) {\n      __typename\n      ... on Clip { id playbackId title status }\n      ...Failure\n    }\n  }\n": typeof types.CreateClipDocument,
    "\n  mutation DeleteClip($id: ID!) {\n    deleteClip(id: $id) {\n      __typename\n      ... on DeleteSuccess { deletedId }\n      ...Failure\n    }\n  }\n": typeof types.DeleteClipDocument,
    "\n  subscription RecordingDvrEvents($streamId: ID!) {\n    liveDvrLifecycle(streamId: $streamId) { eventId status }\n  }\n": typeof types.RecordingDvrEventsDocument,
    "\n  subscription RecordingStorageEvents($streamId: ID!) {\n    liveStorageEvents(streamId: $streamId) { eventId action }\n  }\n": typeof types.RecordingStorageEventsDocument,
    "\n  query Stream($id: ID!) {\n    stream(id: $id) {\n      id streamId name playbackId streamKey record ingestMode createdAt\n      pullSource { sourceUriRedacted enabled onDemand }\n      metrics {\n        status isLive currentViewers startedAt nodeId reconnects\n        pull { state attempt failures lastError }\n      }\n      tracks { trackId trackType codec codecString width height fps bitrateKbps channels sampleRate keyframeIntervalMs }\n      playbackPolicy { type jwt { allowedKids } webhook { url timeoutMs secretMasked } }\n    }\n  }\n": typeof types.StreamDocument,
    "\n  mutation DeleteStream($id: ID!) {\n    deleteStream(id: $id) {\n      __typename\n      ... on DeleteSuccess { deletedId }\n      ...Failure\n    }\n  }\n": typeof types.DeleteStreamDocument,
    "\n  subscription ViewerMetrics($streamId: ID!) {\n    liveViewerMetrics(streamId: $streamId) { currentViewers egressBytesPerSecond timestamp }\n  }\n": typeof types.ViewerMetricsDocument,
    "\n  query Streams($page: ConnectionInput, $search: String) {\n    streamsConnection(page: $page, search: $search) {\n      totalCount\n      pageInfo { startCursor endCursor hasNextPage hasPreviousPage }\n      nodes { id name createdAt ingestMode metrics { status currentViewers } }\n    }\n  }\n": typeof types.StreamsDocument,
    "\n  query DeveloperTokens {\n    developerTokensConnection(page: { first: 100 }) {\n      nodes { id tokenName scopes status lastUsedAt expiresAt createdAt }\n    }\n  }\n": typeof types.DeveloperTokensDocument,
    "\n  mutation CreateDeveloperToken($input: CreateDeveloperTokenInput!) {\n    createDeveloperToken(input: $input) {\n      __typename\n      ... on DeveloperToken { id tokenName tokenValue }\n      ...Failure\n    }\n  }\n": typeof types.CreateDeveloperTokenDocument,
    "\n  mutation RevokeDeveloperToken($id: ID!) {\n    revokeDeveloperToken(id: $id) {\n      __typename\n      ... on DeleteSuccess { deletedId }\n      ...Failure\n    }\n  }\n": typeof types.RevokeDeveloperTokenDocument,
    "\n  query VodAsset($id: ID!) {\n    vodAsset(id: $id) {\n      id playbackId filename title status progressPercent sizeBytes storedBytes durationMs resolution\n      videoCodec audioCodec errorMessage outputs createdAt completedAt thumbnailUrl\n    }\n  }\n": typeof types.VodAssetDocument,
    "\n  query VodList($input: StorageArtifactsInput) {\n    storageArtifactsConnection(input: $input) {\n      totalCount\n      nodes { id kind hash playbackId title status durationSeconds sizeBytes createdAt errorMessage }\n    }\n  }\n": typeof types.VodListDocument,
    "\n  mutation CreateVodUpload($input: CreateVodUploadInput!) {\n    createVodUpload(input: $input) {\n      __typename\n      ... on VodUploadSession { id artifactId partSize parts { partNumber presignedUrl } }\n      ...Failure\n    }\n  }\n": typeof types.CreateVodUploadDocument,
    "\n  mutation CompleteVodUpload($input: CompleteVodUploadInput!) {\n    completeVodUpload(input: $input) {\n      __typename\n      ... on VodAsset { id artifactHash status }\n      ...Failure\n    }\n  }\n": typeof types.CompleteVodUploadDocument,
    "\n  mutation AbortVodUpload($uploadId: ID!) {\n    abortVodUpload(uploadId: $uploadId) {\n      __typename\n      ...Failure\n    }\n  }\n": typeof types.AbortVodUploadDocument,
    "\n  mutation DeleteVodAsset($id: ID!) {\n    deleteVodAsset(id: $id) {\n      __typename\n      ... on DeleteSuccess { deletedId }\n      ...Failure\n    }\n  }\n": typeof types.DeleteVodAssetDocument,
    "\n  subscription VodLifecycle {\n    liveVodLifecycle { eventId status vodHash }\n  }\n": typeof types.VodLifecycleDocument,
    "\n  subscription StreamStatusEvents($streamId: ID!) {\n    liveStreamEvents(streamId: $streamId) { streamId state status timestamp }\n  }\n": typeof types.StreamStatusEventsDocument,
};
const documents: Documents = {
    "\n  fragment Failure on Error {\n    message\n    ... on ValidationError { field }\n  }\n": types.FailureFragmentDoc,
    "\n  query Me {\n    me { id email name }\n  }\n": types.MeDocument,
    "\n  mutation Logout {\n    logout { __typename }\n  }\n": types.LogoutDocument,
    "\n  mutation Register($input: RegisterInput!) {\n    register(input: $input) {\n      __typename\n      ... on AuthPayload { expiresAt user { id email name } }\n      ...Failure\n    }\n  }\n": types.RegisterDocument,
    "\n  mutation Login($input: LoginInput!) {\n    login(input: $input) {\n      __typename\n      ... on AuthPayload { expiresAt user { id email name } }\n      ...Failure\n      ... on RateLimitError { retryAfter }\n    }\n  }\n": types.LoginDocument,
    "\n  mutation CreateStream($input: CreateStreamInput!) {\n    createStream(input: $input) {\n      __typename\n      ... on Stream { id }\n      ...Failure\n    }\n  }\n": types.CreateStreamDocument,
    "\n  query SigningKeys {\n    signingKeysConnection(page: { first: 100 }) { nodes { id kid name status createdAt lastUsedAt } }\n  }\n": types.SigningKeysDocument,
    "\n  mutation CreateSigningKey($input: CreateSigningKeyInput!) {\n    createSigningKey(input: $input) {\n      __typename\n      ... on CreateSigningKeySuccess { privateKeyPem signingKey { id kid name } }\n      ...Failure\n    }\n  }\n": types.CreateSigningKeyDocument,
    "\n  mutation RevokeSigningKey($id: ID!) {\n    revokeSigningKey(id: $id) {\n      __typename\n      ... on DeleteSuccess { deletedId }\n      ...Failure\n    }\n  }\n": types.RevokeSigningKeyDocument,
    "\n  query StreamAnalytics($streamId: ID!, $timeRange: TimeRangeInput!) {\n    analytics {\n      usage {\n        streaming {\n          streamAnalyticsDailyConnection(streamId: $streamId, timeRange: $timeRange, page: { first: 366 }) {\n            nodes { day totalViews uniqueViewers egressBytes peakConcurrentViewers }\n          }\n        }\n      }\n    }\n  }\n": types.StreamAnalyticsDocument,
    "\n  query Ingest($streamKey: String!) {\n    resolveIngestEndpoint(streamKey: $streamKey) {\n      primary { nodeId rtmpUrl rtmpsUrl srtUrl whipUrl }\n    }\n  }\n": types.IngestDocument,
    "\n  query StreamKeys($streamId: ID!) {\n    streamKeysConnection(streamId: $streamId, page: { first: 100 }) {\n      nodes { id keyName isActive isPrimary lastUsedAt createdAt }\n    }\n  }\n": types.StreamKeysDocument,
    "\n  mutation CreateStreamKey($streamId: ID!, $input: CreateStreamKeyInput!) {\n    createStreamKey(streamId: $streamId, input: $input) {\n      __typename\n      ... on StreamKey { id keyName keyValue }\n      ...Failure\n    }\n  }\n": types.CreateStreamKeyDocument,
    "\n  mutation RotateStreamKey($id: ID!) {\n    refreshStreamKey(id: $id) {\n      __typename\n      ... on Stream { id streamKey }\n      ...Failure\n    }\n  }\n": types.RotateStreamKeyDocument,
    "\n  mutation DeleteStreamKey($streamId: ID!, $keyId: ID!) {\n    deleteStreamKey(streamId: $streamId, keyId: $keyId) {\n      __typename\n      ... on DeleteSuccess { deletedId }\n      ...Failure\n    }\n  }\n": types.DeleteStreamKeyDocument,
    "\n  query ActiveSigningKeys {\n    signingKeysConnection(status: ACTIVE, page: { first: 100 }) { nodes { id kid name } }\n  }\n": types.ActiveSigningKeysDocument,
    "\n  mutation SetPlaybackPolicy($input: SetPlaybackPolicyInput!) {\n    setPlaybackPolicy(input: $input) {\n      __typename\n      ... on Stream { id playbackPolicy { type jwt { allowedKids } webhook { url timeoutMs secretMasked } } }\n      ...Failure\n    }\n  }\n": types.SetPlaybackPolicyDocument,
    "\n  query PushTargets($id: ID!) {\n    stream(id: $id) {\n      id\n      pushTargets { id name platform targetUri isEnabled status lastError bitrateKbps bytesSent lastPushedAt }\n    }\n  }\n": types.PushTargetsDocument,
    "\n  mutation CreatePushTarget($streamId: ID!, $input: CreatePushTargetInput!) {\n    createPushTarget(streamId: $streamId, input: $input) {\n      __typename\n      ... on PushTarget { id }\n      ...Failure\n    }\n  }\n": types.CreatePushTargetDocument,
    "\n  mutation UpdatePushTarget($id: ID!, $input: UpdatePushTargetInput!) {\n    updatePushTarget(id: $id, input: $input) {\n      __typename\n      ... on PushTarget { id isEnabled }\n      ...Failure\n    }\n  }\n": types.UpdatePushTargetDocument,
    "\n  mutation DeletePushTarget($id: ID!) {\n    deletePushTarget(id: $id) {\n      __typename\n      ... on DeleteSuccess { deletedId }\n      ...Failure\n    }\n  }\n": types.DeletePushTargetDocument,
    "\n  query StreamArtifacts($id: ID!, $input: StorageArtifactsInput) {\n    stream(id: $id) { id name record metrics { status } }\n    storageArtifactsConnection(input: $input) {\n      totalCount\n      nodes { id kind hash playbackId title status durationSeconds sizeBytes createdAt errorMessage }\n    }\n  }\n": types.StreamArtifactsDocument,
    "\n  mutation StartDvr($streamId: ID!) {\n    startDVR(streamId: $streamId) {\n      __typename\n      ... on DVRRequest { dvrHash status }\n      ...Failure\n    }\n  }\n": types.StartDvrDocument,
    "\n  mutation StopDvr($dvrHash: ID!) {\n    stopDVR(dvrHash: $dvrHash) {\n      __typename\n      ... on DeleteSuccess { deletedId }\n      ...Failure\n    }\n  }\n": types.StopDvrDocument,
    "\n  mutation CreateClip($input: CreateClipInput!) {\n    createClip(input: $input) {\n      __typename\n      ... on Clip { id playbackId title status }\n      ...Failure\n    }\n  }\n": types.CreateClipDocument,
    "\n  mutation DeleteClip($id: ID!) {\n    deleteClip(id: $id) {\n      __typename\n      ... on DeleteSuccess { deletedId }\n      ...Failure\n    }\n  }\n": types.DeleteClipDocument,
    "\n  subscription RecordingDvrEvents($streamId: ID!) {\n    liveDvrLifecycle(streamId: $streamId) { eventId status }\n  }\n": types.RecordingDvrEventsDocument,
    "\n  subscription RecordingStorageEvents($streamId: ID!) {\n    liveStorageEvents(streamId: $streamId) { eventId action }\n  }\n": types.RecordingStorageEventsDocument,
    "\n  query Stream($id: ID!) {\n    stream(id: $id) {\n      id streamId name playbackId streamKey record ingestMode createdAt\n      pullSource { sourceUriRedacted enabled onDemand }\n      metrics {\n        status isLive currentViewers startedAt nodeId reconnects\n        pull { state attempt failures lastError }\n      }\n      tracks { trackId trackType codec codecString width height fps bitrateKbps channels sampleRate keyframeIntervalMs }\n      playbackPolicy { type jwt { allowedKids } webhook { url timeoutMs secretMasked } }\n    }\n  }\n": types.StreamDocument,
    "\n  mutation DeleteStream($id: ID!) {\n    deleteStream(id: $id) {\n      __typename\n      ... on DeleteSuccess { deletedId }\n      ...Failure\n    }\n  }\n": types.DeleteStreamDocument,
    "\n  subscription ViewerMetrics($streamId: ID!) {\n    liveViewerMetrics(streamId: $streamId) { currentViewers egressBytesPerSecond timestamp }\n  }\n": types.ViewerMetricsDocument,
    "\n  query Streams($page: ConnectionInput, $search: String) {\n    streamsConnection(page: $page, search: $search) {\n      totalCount\n      pageInfo { startCursor endCursor hasNextPage hasPreviousPage }\n      nodes { id name createdAt ingestMode metrics { status currentViewers } }\n    }\n  }\n": types.StreamsDocument,
    "\n  query DeveloperTokens {\n    developerTokensConnection(page: { first: 100 }) {\n      nodes { id tokenName scopes status lastUsedAt expiresAt createdAt }\n    }\n  }\n": types.DeveloperTokensDocument,
    "\n  mutation CreateDeveloperToken($input: CreateDeveloperTokenInput!) {\n    createDeveloperToken(input: $input) {\n      __typename\n      ... on DeveloperToken { id tokenName tokenValue }\n      ...Failure\n    }\n  }\n": types.CreateDeveloperTokenDocument,
    "\n  mutation RevokeDeveloperToken($id: ID!) {\n    revokeDeveloperToken(id: $id) {\n      __typename\n      ... on DeleteSuccess { deletedId }\n      ...Failure\n    }\n  }\n": types.RevokeDeveloperTokenDocument,
    "\n  query VodAsset($id: ID!) {\n    vodAsset(id: $id) {\n      id playbackId filename title status progressPercent sizeBytes storedBytes durationMs resolution\n      videoCodec audioCodec errorMessage outputs createdAt completedAt thumbnailUrl\n    }\n  }\n": types.VodAssetDocument,
    "\n  query VodList($input: StorageArtifactsInput) {\n    storageArtifactsConnection(input: $input) {\n      totalCount\n      nodes { id kind hash playbackId title status durationSeconds sizeBytes createdAt errorMessage }\n    }\n  }\n": types.VodListDocument,
    "\n  mutation CreateVodUpload($input: CreateVodUploadInput!) {\n    createVodUpload(input: $input) {\n      __typename\n      ... on VodUploadSession { id artifactId partSize parts { partNumber presignedUrl } }\n      ...Failure\n    }\n  }\n": types.CreateVodUploadDocument,
    "\n  mutation CompleteVodUpload($input: CompleteVodUploadInput!) {\n    completeVodUpload(input: $input) {\n      __typename\n      ... on VodAsset { id artifactHash status }\n      ...Failure\n    }\n  }\n": types.CompleteVodUploadDocument,
    "\n  mutation AbortVodUpload($uploadId: ID!) {\n    abortVodUpload(uploadId: $uploadId) {\n      __typename\n      ...Failure\n    }\n  }\n": types.AbortVodUploadDocument,
    "\n  mutation DeleteVodAsset($id: ID!) {\n    deleteVodAsset(id: $id) {\n      __typename\n      ... on DeleteSuccess { deletedId }\n      ...Failure\n    }\n  }\n": types.DeleteVodAssetDocument,
    "\n  subscription VodLifecycle {\n    liveVodLifecycle { eventId status vodHash }\n  }\n": types.VodLifecycleDocument,
    "\n  subscription StreamStatusEvents($streamId: ID!) {\n    liveStreamEvents(streamId: $streamId) { streamId state status timestamp }\n  }\n": types.StreamStatusEventsDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment Failure on Error {\n    message\n    ... on ValidationError { field }\n  }\n"): typeof import('./graphql').FailureFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Me {\n    me { id email name }\n  }\n"): typeof import('./graphql').MeDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Logout {\n    logout { __typename }\n  }\n"): typeof import('./graphql').LogoutDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Register($input: RegisterInput!) {\n    register(input: $input) {\n      __typename\n      ... on AuthPayload { expiresAt user { id email name } }\n      ...Failure\n    }\n  }\n"): typeof import('./graphql').RegisterDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Login($input: LoginInput!) {\n    login(input: $input) {\n      __typename\n      ... on AuthPayload { expiresAt user { id email name } }\n      ...Failure\n      ... on RateLimitError { retryAfter }\n    }\n  }\n"): typeof import('./graphql').LoginDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateStream($input: CreateStreamInput!) {\n    createStream(input: $input) {\n      __typename\n      ... on Stream { id }\n      ...Failure\n    }\n  }\n"): typeof import('./graphql').CreateStreamDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SigningKeys {\n    signingKeysConnection(page: { first: 100 }) { nodes { id kid name status createdAt lastUsedAt } }\n  }\n"): typeof import('./graphql').SigningKeysDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateSigningKey($input: CreateSigningKeyInput!) {\n    createSigningKey(input: $input) {\n      __typename\n      ... on CreateSigningKeySuccess { privateKeyPem signingKey { id kid name } }\n      ...Failure\n    }\n  }\n"): typeof import('./graphql').CreateSigningKeyDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RevokeSigningKey($id: ID!) {\n    revokeSigningKey(id: $id) {\n      __typename\n      ... on DeleteSuccess { deletedId }\n      ...Failure\n    }\n  }\n"): typeof import('./graphql').RevokeSigningKeyDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query StreamAnalytics($streamId: ID!, $timeRange: TimeRangeInput!) {\n    analytics {\n      usage {\n        streaming {\n          streamAnalyticsDailyConnection(streamId: $streamId, timeRange: $timeRange, page: { first: 366 }) {\n            nodes { day totalViews uniqueViewers egressBytes peakConcurrentViewers }\n          }\n        }\n      }\n    }\n  }\n"): typeof import('./graphql').StreamAnalyticsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Ingest($streamKey: String!) {\n    resolveIngestEndpoint(streamKey: $streamKey) {\n      primary { nodeId rtmpUrl rtmpsUrl srtUrl whipUrl }\n    }\n  }\n"): typeof import('./graphql').IngestDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query StreamKeys($streamId: ID!) {\n    streamKeysConnection(streamId: $streamId, page: { first: 100 }) {\n      nodes { id keyName isActive isPrimary lastUsedAt createdAt }\n    }\n  }\n"): typeof import('./graphql').StreamKeysDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateStreamKey($streamId: ID!, $input: CreateStreamKeyInput!) {\n    createStreamKey(streamId: $streamId, input: $input) {\n      __typename\n      ... on StreamKey { id keyName keyValue }\n      ...Failure\n    }\n  }\n"): typeof import('./graphql').CreateStreamKeyDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RotateStreamKey($id: ID!) {\n    refreshStreamKey(id: $id) {\n      __typename\n      ... on Stream { id streamKey }\n      ...Failure\n    }\n  }\n"): typeof import('./graphql').RotateStreamKeyDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteStreamKey($streamId: ID!, $keyId: ID!) {\n    deleteStreamKey(streamId: $streamId, keyId: $keyId) {\n      __typename\n      ... on DeleteSuccess { deletedId }\n      ...Failure\n    }\n  }\n"): typeof import('./graphql').DeleteStreamKeyDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ActiveSigningKeys {\n    signingKeysConnection(status: ACTIVE, page: { first: 100 }) { nodes { id kid name } }\n  }\n"): typeof import('./graphql').ActiveSigningKeysDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetPlaybackPolicy($input: SetPlaybackPolicyInput!) {\n    setPlaybackPolicy(input: $input) {\n      __typename\n      ... on Stream { id playbackPolicy { type jwt { allowedKids } webhook { url timeoutMs secretMasked } } }\n      ...Failure\n    }\n  }\n"): typeof import('./graphql').SetPlaybackPolicyDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PushTargets($id: ID!) {\n    stream(id: $id) {\n      id\n      pushTargets { id name platform targetUri isEnabled status lastError bitrateKbps bytesSent lastPushedAt }\n    }\n  }\n"): typeof import('./graphql').PushTargetsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreatePushTarget($streamId: ID!, $input: CreatePushTargetInput!) {\n    createPushTarget(streamId: $streamId, input: $input) {\n      __typename\n      ... on PushTarget { id }\n      ...Failure\n    }\n  }\n"): typeof import('./graphql').CreatePushTargetDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdatePushTarget($id: ID!, $input: UpdatePushTargetInput!) {\n    updatePushTarget(id: $id, input: $input) {\n      __typename\n      ... on PushTarget { id isEnabled }\n      ...Failure\n    }\n  }\n"): typeof import('./graphql').UpdatePushTargetDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeletePushTarget($id: ID!) {\n    deletePushTarget(id: $id) {\n      __typename\n      ... on DeleteSuccess { deletedId }\n      ...Failure\n    }\n  }\n"): typeof import('./graphql').DeletePushTargetDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query StreamArtifacts($id: ID!, $input: StorageArtifactsInput) {\n    stream(id: $id) { id name record metrics { status } }\n    storageArtifactsConnection(input: $input) {\n      totalCount\n      nodes { id kind hash playbackId title status durationSeconds sizeBytes createdAt errorMessage }\n    }\n  }\n"): typeof import('./graphql').StreamArtifactsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation StartDvr($streamId: ID!) {\n    startDVR(streamId: $streamId) {\n      __typename\n      ... on DVRRequest { dvrHash status }\n      ...Failure\n    }\n  }\n"): typeof import('./graphql').StartDvrDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation StopDvr($dvrHash: ID!) {\n    stopDVR(dvrHash: $dvrHash) {\n      __typename\n      ... on DeleteSuccess { deletedId }\n      ...Failure\n    }\n  }\n"): typeof import('./graphql').StopDvrDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateClip($input: CreateClipInput!) {\n    createClip(input: $input) {\n      __typename\n      ... on Clip { id playbackId title status }\n      ...Failure\n    }\n  }\n"): typeof import('./graphql').CreateClipDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteClip($id: ID!) {\n    deleteClip(id: $id) {\n      __typename\n      ... on DeleteSuccess { deletedId }\n      ...Failure\n    }\n  }\n"): typeof import('./graphql').DeleteClipDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription RecordingDvrEvents($streamId: ID!) {\n    liveDvrLifecycle(streamId: $streamId) { eventId status }\n  }\n"): typeof import('./graphql').RecordingDvrEventsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription RecordingStorageEvents($streamId: ID!) {\n    liveStorageEvents(streamId: $streamId) { eventId action }\n  }\n"): typeof import('./graphql').RecordingStorageEventsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Stream($id: ID!) {\n    stream(id: $id) {\n      id streamId name playbackId streamKey record ingestMode createdAt\n      pullSource { sourceUriRedacted enabled onDemand }\n      metrics {\n        status isLive currentViewers startedAt nodeId reconnects\n        pull { state attempt failures lastError }\n      }\n      tracks { trackId trackType codec codecString width height fps bitrateKbps channels sampleRate keyframeIntervalMs }\n      playbackPolicy { type jwt { allowedKids } webhook { url timeoutMs secretMasked } }\n    }\n  }\n"): typeof import('./graphql').StreamDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteStream($id: ID!) {\n    deleteStream(id: $id) {\n      __typename\n      ... on DeleteSuccess { deletedId }\n      ...Failure\n    }\n  }\n"): typeof import('./graphql').DeleteStreamDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ViewerMetrics($streamId: ID!) {\n    liveViewerMetrics(streamId: $streamId) { currentViewers egressBytesPerSecond timestamp }\n  }\n"): typeof import('./graphql').ViewerMetricsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Streams($page: ConnectionInput, $search: String) {\n    streamsConnection(page: $page, search: $search) {\n      totalCount\n      pageInfo { startCursor endCursor hasNextPage hasPreviousPage }\n      nodes { id name createdAt ingestMode metrics { status currentViewers } }\n    }\n  }\n"): typeof import('./graphql').StreamsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DeveloperTokens {\n    developerTokensConnection(page: { first: 100 }) {\n      nodes { id tokenName scopes status lastUsedAt expiresAt createdAt }\n    }\n  }\n"): typeof import('./graphql').DeveloperTokensDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateDeveloperToken($input: CreateDeveloperTokenInput!) {\n    createDeveloperToken(input: $input) {\n      __typename\n      ... on DeveloperToken { id tokenName tokenValue }\n      ...Failure\n    }\n  }\n"): typeof import('./graphql').CreateDeveloperTokenDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RevokeDeveloperToken($id: ID!) {\n    revokeDeveloperToken(id: $id) {\n      __typename\n      ... on DeleteSuccess { deletedId }\n      ...Failure\n    }\n  }\n"): typeof import('./graphql').RevokeDeveloperTokenDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query VodAsset($id: ID!) {\n    vodAsset(id: $id) {\n      id playbackId filename title status progressPercent sizeBytes storedBytes durationMs resolution\n      videoCodec audioCodec errorMessage outputs createdAt completedAt thumbnailUrl\n    }\n  }\n"): typeof import('./graphql').VodAssetDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query VodList($input: StorageArtifactsInput) {\n    storageArtifactsConnection(input: $input) {\n      totalCount\n      nodes { id kind hash playbackId title status durationSeconds sizeBytes createdAt errorMessage }\n    }\n  }\n"): typeof import('./graphql').VodListDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateVodUpload($input: CreateVodUploadInput!) {\n    createVodUpload(input: $input) {\n      __typename\n      ... on VodUploadSession { id artifactId partSize parts { partNumber presignedUrl } }\n      ...Failure\n    }\n  }\n"): typeof import('./graphql').CreateVodUploadDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CompleteVodUpload($input: CompleteVodUploadInput!) {\n    completeVodUpload(input: $input) {\n      __typename\n      ... on VodAsset { id artifactHash status }\n      ...Failure\n    }\n  }\n"): typeof import('./graphql').CompleteVodUploadDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AbortVodUpload($uploadId: ID!) {\n    abortVodUpload(uploadId: $uploadId) {\n      __typename\n      ...Failure\n    }\n  }\n"): typeof import('./graphql').AbortVodUploadDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteVodAsset($id: ID!) {\n    deleteVodAsset(id: $id) {\n      __typename\n      ... on DeleteSuccess { deletedId }\n      ...Failure\n    }\n  }\n"): typeof import('./graphql').DeleteVodAssetDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription VodLifecycle {\n    liveVodLifecycle { eventId status vodHash }\n  }\n"): typeof import('./graphql').VodLifecycleDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription StreamStatusEvents($streamId: ID!) {\n    liveStreamEvents(streamId: $streamId) { streamId state status timestamp }\n  }\n"): typeof import('./graphql').StreamStatusEventsDocument;


export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}
