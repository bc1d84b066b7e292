/**
 * VOD uploads and assets (frameworks.md §1.9): createVodUpload hands out a multipart upload
 * session with a presigned URL per part, completeVodUpload joins the parts and starts processing,
 * abortVodUpload drops them, vodUploadStatus and vodAsset report, deleteVodAsset removes every
 * object of the asset. Reads need `streams:read`, writes `streams:write`.
 */
import { requirePrincipal } from '../../auth/principal.js';
import { toGlobalId } from '../../domain/ids.js';
import type { VodAssetRecord } from '../../domain/vod/vod-asset.js';
import type { Resolvers, StorageArtifact } from '../generated/resolvers-types.js';
import type { GraphQLModule } from '../module.js';
import { unionResult } from '../results.js';
import type { VodAssetParent } from './vod-parent.js';

/** A VOD asset as the API shows it. */
export function vodAssetToGraphQL(asset: VodAssetRecord): VodAssetParent {
  const ready = asset.status === 'READY';
  return {
    id: toGlobalId('VodAsset', asset.id),
    artifactHash: asset.artifactHash,
    playbackId: asset.playbackId,
    originType: 'user_upload',
    filename: asset.filename,
    contentType: asset.contentType,
    title: asset.title,
    description: asset.description,
    status: asset.status,
    progressPercent: asset.progressPercent,
    sizeBytes: asset.sizeBytes,
    storedBytes: asset.storedBytes,
    durationMs: asset.durationMs,
    resolution: asset.width && asset.height ? `${asset.width}x${asset.height}` : null,
    videoCodec: asset.videoCodec,
    audioCodec: asset.audioCodec,
    bitrateKbps: asset.bitrateKbps,
    errorMessage: asset.errorMessage,
    storageLocation: asset.storageKind,
    isFinalized: (ready && asset.progressPercent >= 100) || asset.status === 'FAILED',
    manifestPath: ready ? `/play/${asset.playbackId}/cmaf/index.m3u8` : null,
    thumbnailUrl: ready && asset.outputs.includes('poster') ? `/play/${asset.playbackId}/thumbnails/poster.jpg` : null,
    outputs: [...asset.outputs],
    createdAt: asset.createdAt.toISOString(),
    updatedAt: asset.updatedAt.toISOString(),
    completedAt: asset.completedAt?.toISOString() ?? null,
    expiresAt: asset.status === 'UPLOADING' ? asset.expiresAt.toISOString() : null,
  };
}

/** A VOD asset as a row of storageArtifactsConnection (kind VOD; no stream). */
export function vodArtifactToGraphQL(asset: VodAssetRecord): StorageArtifact {
  return {
    key: `vod:${asset.artifactHash}`,
    kind: 'VOD',
    id: toGlobalId('VodAsset', asset.id),
    hash: asset.artifactHash,
    playbackId: asset.playbackId,
    streamId: null,
    title: asset.title ?? asset.filename,
    status: asset.status.toLowerCase(),
    sizeBytes: asset.storedBytes ?? asset.sizeBytes,
    durationSeconds: (asset.durationMs ?? 0) / 1000,
    errorMessage: asset.errorMessage,
    thumbnailUrl: `/play/${asset.playbackId}/thumbnails/poster.jpg`,
    createdAt: asset.createdAt.toISOString(),
    expiresAt: asset.status === 'UPLOADING' ? asset.expiresAt.toISOString() : null,
  };
}

/** The VOD schema module. */
export const vodModule: GraphQLModule = {
  typeDefs: /* GraphQL */ `
    "Life of a VOD asset: uploading parts, processing, ready to play, failed, deleted, or expired unfinished."
    enum VodAssetStatus {
      UPLOADING
      PROCESSING
      READY
      FAILED
      DELETED
      EXPIRED
    }

    "An uploaded video with its own playback ID (HLS, CMAF HLS, DASH, MP4)."
    type VodAsset {
      "Global ID."
      id: ID!
      artifactHash: String!
      playbackId: String!
      "user_upload."
      originType: String!
      filename: String!
      contentType: String!
      title: String
      description: String
      "READY once the streaming outputs (CMAF HLS, DASH, HLS) play; MP4 and images may follow until progressPercent is 100."
      status: VodAssetStatus!
      "Processing progress, 0–100."
      progressPercent: Float!
      "Bytes of the uploaded original."
      sizeBytes: Float!
      "Bytes of every object the asset owns (original and outputs), once processed."
      storedBytes: Float
      durationMs: Float
      "WIDTHxHEIGHT."
      resolution: String
      videoCodec: String
      audioCodec: String
      bitrateKbps: Int
      "Why processing failed."
      errorMessage: String
      "local or s3."
      storageLocation: String!
      isFinalized: Boolean!
      "CMAF HLS playlist path under the playback origin, once READY."
      manifestPath: String
      "Poster path under the playback origin, once made (shortly after READY)."
      thumbnailUrl: String
      "Outputs made: cmaf, dash, hls, mp4, poster, sprite."
      outputs: [String!]!
      createdAt: Time!
      updatedAt: Time!
      "When the upload was completed."
      completedAt: Time
      "When an unfinished upload expires (UPLOADING only)."
      expiresAt: Time
    }

    "Where to PUT one part."
    type VodUploadPart {
      "1-based."
      partNumber: Int!
      "PUT the part's bytes here; keep the ETag header of the answer."
      presignedUrl: String!
    }

    "A multipart upload session: PUT each part to its URL, then completeVodUpload with the ETags."
    type VodUploadSession {
      "The upload ID (the store's multipart upload)."
      id: ID!
      "Global ID of the VodAsset."
      artifactId: ID!
      artifactHash: String!
      playbackId: String!
      "Bytes per part (the last part holds the rest)."
      partSize: Float!
      parts: [VodUploadPart!]!
      "The URLs stop working and the session is cleaned up after this."
      expiresAt: Time!
      "The asset the upload becomes (UPLOADING until completed)."
      asset: VodAsset!
    }

    "A part the store holds."
    type VodUploadedPart {
      partNumber: Int!
      etag: String!
      sizeBytes: Float!
    }

    "An upload's state and its parts."
    type VodUploadStatus {
      uploadId: ID!
      state: VodAssetStatus!
      progressPercent: Float!
      expiresAt: Time!
      uploadedParts: [VodUploadedPart!]!
      missingParts: [Int!]!
      "Why the asset failed."
      lastErrorCode: String
      artifactHash: String!
      playbackId: String!
    }

    input CreateVodUploadInput {
      "The file's name; its extension must be a video container (mp4, mov, mkv, webm, ts, …)."
      filename: String!
      "Exact size in bytes (at most the deployment's limit, default 20 GiB)."
      sizeBytes: Float!
      "video/* or application/octet-stream."
      contentType: String
      title: String
      description: String
    }

    input VodUploadPartInput {
      partNumber: Int!
      "The ETag the part's PUT answered."
      etag: String!
    }

    input CompleteVodUploadInput {
      uploadId: ID!
      "Every part, each once."
      parts: [VodUploadPartInput!]!
    }

    union CreateVodUploadResult = VodUploadSession | ValidationError | AuthError
    union CompleteVodUploadResult = VodAsset | ValidationError | NotFoundError | AuthError
    union AbortVodUploadResult = DeleteSuccess | ValidationError | NotFoundError | AuthError
    union DeleteVodAssetResult = DeleteSuccess | ValidationError | NotFoundError | AuthError
    union VodUploadStatusResult = VodUploadStatus | ValidationError | NotFoundError | AuthError

    extend type Query {
      "One of the caller's VOD assets (global ID, UUID or artifact hash)."
      vodAsset(id: ID!): VodAsset
      "An upload's state and the parts the store holds."
      vodUploadStatus(uploadId: ID!): VodUploadStatusResult!
    }

    extend type Mutation {
      "Starts a multipart upload: a presigned URL for every part."
      createVodUpload(input: CreateVodUploadInput!): CreateVodUploadResult!
      "Joins the uploaded parts and starts processing."
      completeVodUpload(input: CompleteVodUploadInput!): CompleteVodUploadResult!
      "Aborts an upload; the store drops its parts."
      abortVodUpload(uploadId: ID!): AbortVodUploadResult!
      "Deletes an asset and every object it owns."
      deleteVodAsset(id: ID!): DeleteVodAssetResult!
    }
  `,
  resolvers: {
    Query: {
      vodAsset: async (_root, { id }, ctx) => {
        const principal = requirePrincipal(ctx.principal, 'streams:read');
        return vodAssetToGraphQL(await ctx.services.vod.get(principal.tenantId, id));
      },
      vodUploadStatus: (_root, { uploadId }, ctx) =>
        unionResult('VodUploadStatus', ['ValidationError', 'NotFoundError', 'AuthError'], async () => {
          const principal = requirePrincipal(ctx.principal, 'streams:read');
          const { asset, uploadedParts, missingParts } = await ctx.services.vod.status(principal.tenantId, uploadId);
          return {
            uploadId: asset.uploadId,
            state: asset.status,
            progressPercent: asset.progressPercent,
            expiresAt: asset.expiresAt.toISOString(),
            uploadedParts: [...uploadedParts],
            missingParts: [...missingParts],
            lastErrorCode: asset.errorMessage,
            artifactHash: asset.artifactHash,
            playbackId: asset.playbackId,
          };
        }),
    },
    Mutation: {
      createVodUpload: (_root, { input }, ctx) =>
        unionResult('VodUploadSession', ['ValidationError', 'AuthError'], async () => {
          const principal = requirePrincipal(ctx.principal, 'streams:write');
          const { asset, parts } = await ctx.services.vod.create(principal.tenantId, input);
          return {
            id: asset.uploadId,
            artifactId: toGlobalId('VodAsset', asset.id),
            artifactHash: asset.artifactHash,
            playbackId: asset.playbackId,
            partSize: asset.partBytes,
            parts: [...parts],
            expiresAt: asset.expiresAt.toISOString(),
            asset: vodAssetToGraphQL(asset),
          };
        }),
      completeVodUpload: (_root, { input }, ctx) =>
        unionResult('VodAsset', ['ValidationError', 'NotFoundError', 'AuthError'], async () => {
          const principal = requirePrincipal(ctx.principal, 'streams:write');
          return vodAssetToGraphQL(await ctx.services.vod.complete(principal.tenantId, input.uploadId, input.parts));
        }),
      abortVodUpload: (_root, { uploadId }, ctx) =>
        unionResult('DeleteSuccess', ['ValidationError', 'NotFoundError', 'AuthError'], async () => {
          const principal = requirePrincipal(ctx.principal, 'streams:write');
          const asset = await ctx.services.vod.abort(principal.tenantId, uploadId);
          return { success: true, deletedId: asset.uploadId, pending: false };
        }),
      deleteVodAsset: (_root, { id }, ctx) =>
        unionResult('DeleteSuccess', ['ValidationError', 'NotFoundError', 'AuthError'], async () => {
          const principal = requirePrincipal(ctx.principal, 'streams:write');
          const asset = await ctx.services.vod.delete(principal.tenantId, id);
          return { success: true, deletedId: toGlobalId('VodAsset', asset.id), pending: false };
        }),
    },
  } satisfies Resolvers,
};
