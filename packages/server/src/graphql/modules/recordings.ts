/**
 * DVR (frameworks.md §1.7) and storage artifacts (§1.10): startDVR / stopDVR / deleteDVR, the
 * chapters of a recording (`dvrChapters`, `dvrChapter`), each with its own playback ID, and
 * `storageArtifactsConnection`. Reads need `streams:read`, writes `streams:write`.
 */
import { requirePrincipal } from '../../auth/principal.js';
import { toGlobalId } from '../../domain/ids.js';
import type { ChapterSettingsInput } from '../../domain/recordings/chapter-settings.js';
import type { ArtifactRecord, RecordingRecord } from '../../domain/recordings/recording.js';
import { RecordingsService, type StorageArtifactItem } from '../../domain/recordings/recordings.service.js';
import type { GraphQLContext } from '../context.js';
import type { DvrChapter, DvrChapterRef, Resolvers, StorageArtifact } from '../generated/resolvers-types.js';
import type { GraphQLModule } from '../module.js';
import { unionResult } from '../results.js';
import type { DvrRequestParent } from './media-parents.js';
import { vodArtifactToGraphQL } from './vod.js';

/** Poster, sprite sheet and cue-file paths of a playback ID (not an auth boundary: no token needed). */
export function thumbnailUrls(playbackId: string) {
  const base = `/play/${playbackId}/thumbnails`;
  return { thumbnailUrl: `${base}/poster.jpg`, spriteUrl: `${base}/sprite.jpg`, spriteVttUrl: `${base}/sprite.vtt` };
}

/** A recording as a DVRRequest. */
export function recordingToGraphQL(recording: RecordingRecord): DvrRequestParent {
  return {
    id: toGlobalId('DVRRequest', recording.id),
    dvrHash: recording.dvrHash,
    playbackId: recording.playbackId,
    streamId: recording.streamId,
    status: recording.status,
    isFinalized: !RecordingsService.isOpen(recording),
    startedAt: recording.startedAt.toISOString(),
    endedAt: recording.endedAt?.toISOString() ?? null,
    durationSeconds: recording.durationMs / 1000,
    sizeBytes: recording.sizeBytes,
    segmentCount: recording.segmentCount,
    manifestPath: `/play/${recording.playbackId}/cmaf/index.m3u8`,
    errorMessage: recording.errorMessage,
    storageLocation: 'local',
    ...thumbnailUrls(recording.playbackId),
    createdAt: recording.createdAt.toISOString(),
    updatedAt: recording.updatedAt.toISOString(),
  };
}

function chapterState(chapter: ArtifactRecord): DvrChapter['state'] {
  return chapter.status === 'ready' ? 'FINALIZED' : chapter.status === 'failed' ? 'FAILED_PERMANENT' : 'FINALIZING';
}

function chapterCommon(chapter: ArtifactRecord) {
  return {
    chapterId: chapter.id,
    state: chapterState(chapter),
    playbackId: chapter.playbackId,
    ...thumbnailUrls(chapter.playbackId),
    hasGaps: chapter.hasGaps,
    segmentCount: chapter.lastSegment - chapter.firstSegment + 1,
    durationMs: chapter.durationMs,
    sizeBytes: chapter.sizeBytes,
  };
}

function chapterToGraphQL(chapter: ArtifactRecord): DvrChapter {
  return {
    ...chapterCommon(chapter),
    isCurrent: false,
    wallClockStartUnixMs: chapter.startUnixMs,
    wallClockEndUnixMs: chapter.endUnixMs,
    playableNow: true,
    lastFailureReason: chapter.errorMessage,
  };
}

/** updateStream's chapter fields checked for a tenant's stream; how to write them once the stream is updated. */
export async function checkChapterSettings(
  ctx: GraphQLContext,
  tenantId: string,
  id: string,
  input: ChapterSettingsInput,
): Promise<{ apply(): Promise<void> } | undefined> {
  if (input.dvrChapterMode == null && input.dvrChapterIntervalSeconds == null) {
    return undefined;
  }
  const stream = await ctx.services.streams.get(tenantId, id);
  return ctx.services.chapterSettings.checkUpdate(tenantId, stream.id, input);
}

/** The mode a chapter was cut under and the chapter length that applied (kept in its params; null: one chapter). */
function chapterPlan(chapter: ArtifactRecord) {
  const params = chapter.params as { mode?: DvrChapterRef['mode']; intervalSeconds?: number | null };
  return { mode: params.mode ?? ('WINDOW_SIZED' as const), intervalSeconds: params.intervalSeconds ?? null };
}

function chapterRefToGraphQL(chapter: ArtifactRecord): DvrChapterRef {
  return {
    ...chapterCommon(chapter),
    ...chapterPlan(chapter),
    startMs: chapter.startUnixMs,
    endMs: chapter.endUnixMs,
  };
}

/** A listed artifact as a StorageArtifact. */
export function storageArtifactToGraphQL(item: StorageArtifactItem): StorageArtifact {
  if (item.kind === 'DVR') {
    const recording = item.recording;
    return {
      key: `dvr:${recording.dvrHash}`,
      kind: 'DVR',
      id: toGlobalId('DVRRequest', recording.id),
      hash: recording.dvrHash,
      playbackId: recording.playbackId,
      streamId: recording.streamId,
      title: null,
      status: recording.status,
      sizeBytes: recording.sizeBytes,
      durationSeconds: recording.durationMs / 1000,
      errorMessage: recording.errorMessage,
      thumbnailUrl: thumbnailUrls(recording.playbackId).thumbnailUrl,
      createdAt: recording.createdAt.toISOString(),
      expiresAt: null,
    };
  }
  if (item.kind === 'VOD') {
    return vodArtifactToGraphQL(item.asset);
  }
  const artifact = item.artifact;
  return {
    key: `${artifact.kind.toLowerCase()}:${artifact.hash}`,
    kind: artifact.kind,
    id: toGlobalId(artifact.kind === 'CLIP' ? 'Clip' : 'DVRChapter', artifact.id),
    hash: artifact.hash,
    playbackId: artifact.playbackId,
    streamId: artifact.streamId,
    title: artifact.title,
    status: artifact.status,
    sizeBytes: artifact.sizeBytes,
    durationSeconds: artifact.durationMs / 1000,
    errorMessage: artifact.errorMessage,
    thumbnailUrl: thumbnailUrls(artifact.playbackId).thumbnailUrl,
    createdAt: artifact.createdAt.toISOString(),
    expiresAt: artifact.expiresAt?.toISOString() ?? null,
  };
}

/** The recordings schema module. */
export const recordingsModule: GraphQLModule = {
  typeDefs: /* GraphQL */ `
    "How a recording is cut into chapters: WINDOW_SIZED (at its end and every node-configured interval), FIXED_INTERVAL (the stream's dvrChapterIntervalSeconds), NONE (one chapter, at its end)."
    enum DVRChapterMode {
      WINDOW_SIZED
      FIXED_INTERVAL
      NONE
    }

    "Where a chapter is in its life; it plays at FINALIZED (HLS over CMAF and DASH play from FINALIZING on)."
    enum DVRChapterState {
      OPEN
      CLOSED
      FINALIZING
      FINALIZED
      FROZEN
      RECLAIMED
      FAILED_SOURCE_MISSING
      FAILED_PERMANENT
    }

    "What storageArtifactsConnection lists."
    enum StorageArtifactKind {
      VOD
      DVR
      CHAPTER
      CLIP
    }

    "A recording (DVR) of a live stream."
    type DVRRequest {
      id: ID!
      dvrHash: String!
      "Plays the whole recording (HLS over CMAF, DASH), growing while it records."
      playbackId: String!
      streamId: ID!
      "requested, starting, recording, finalizing, completed, completed_partial, failed or deleted."
      status: String!
      isFinalized: Boolean!
      startedAt: Time
      endedAt: Time
      durationSeconds: Float!
      sizeBytes: Float!
      segmentCount: Int!
      "Playlist path of the whole recording under the playback origin."
      manifestPath: String!
      errorMessage: String
      "local or s3."
      storageLocation: String!
      "Poster JPEG path (refreshed every few seconds while recording)."
      thumbnailUrl: String!
      "10 × 10 sprite sheet path."
      spriteUrl: String!
      "WebVTT cues (#xywh) of the sprite sheet."
      spriteVttUrl: String!
      createdAt: Time!
      updatedAt: Time!
    }

    "A chapter of a recording: a VOD with its own playback ID (HLS over TS and CMAF, DASH, MP4)."
    type DVRChapter {
      chapterId: ID!
      state: DVRChapterState!
      playbackId: String!
      "Poster JPEG path (refreshed every few seconds while recording)."
      thumbnailUrl: String!
      "10 × 10 sprite sheet path."
      spriteUrl: String!
      "WebVTT cues (#xywh) of the sprite sheet."
      spriteVttUrl: String!
      isCurrent: Boolean!
      "A publisher reconnect lies inside the chapter."
      hasGaps: Boolean!
      segmentCount: Int!
      wallClockStartUnixMs: Float!
      wallClockEndUnixMs: Float!
      playableNow: Boolean!
      lastFailureReason: String
      durationMs: Float!
      sizeBytes: Float!
    }

    "A chapter as listed by dvrChapters."
    type DVRChapterRef {
      chapterId: ID!
      state: DVRChapterState!
      playbackId: String!
      "Poster JPEG path (refreshed every few seconds while recording)."
      thumbnailUrl: String!
      "10 × 10 sprite sheet path."
      spriteUrl: String!
      "WebVTT cues (#xywh) of the sprite sheet."
      spriteVttUrl: String!
      mode: DVRChapterMode!
      intervalSeconds: Int
      startMs: Float!
      endMs: Float!
      hasGaps: Boolean!
      segmentCount: Int!
      durationMs: Float!
      sizeBytes: Float!
    }

    "A page of chapters."
    type DVRChapterPage {
      chapters: [DVRChapterRef!]!
      nextPageToken: String
    }

    "A recording, chapter or clip in storage."
    type StorageArtifact {
      key: String!
      kind: StorageArtifactKind!
      id: ID!
      hash: String!
      playbackId: String!
      "The stream it was recorded from; null for VOD uploads."
      streamId: ID
      title: String
      "Recordings: their status; chapters and clips: processing, ready or failed; VOD: uploading, processing, ready or failed."
      status: String!
      sizeBytes: Float!
      durationSeconds: Float!
      errorMessage: String
      "Poster JPEG path."
      thumbnailUrl: String!
      createdAt: Time!
      expiresAt: Time
    }

    "Storage artifacts, offset-paged."
    type StorageArtifactsConnection {
      nodes: [StorageArtifact!]!
      totalCount: Int!
      hasNextPage: Boolean!
      limit: Int!
      offset: Int!
    }

    input StorageArtifactsInput {
      "Page size, 0..500 (default 25)."
      first: Int
      offset: Int
      streamId: ID
      "Default DVR, CLIP and VOD; CHAPTER lists chapters; VOD uploads are not listed for a streamId."
      kinds: [StorageArtifactKind!]
    }

    extend input UpdateStreamInput {
      "How the stream's recordings are cut into chapters; WINDOW_SIZED (default) uses the node's interval."
      dvrChapterMode: DVRChapterMode
      "FIXED_INTERVAL only: chapter length, 3600 to 604800 seconds."
      dvrChapterIntervalSeconds: Int
    }

    extend type Stream {
      "How the stream's recordings are cut into chapters (read when a recording starts)."
      dvrChapterMode: DVRChapterMode!
      "FIXED_INTERVAL: the chapter length in seconds; null otherwise."
      dvrChapterIntervalSeconds: Int
    }

    union StartDVRResult = DVRRequest | ValidationError | NotFoundError | AuthError
    union StopDVRResult = DeleteSuccess | ValidationError | NotFoundError | AuthError
    union DeleteDVRResult = DeleteSuccess | ValidationError | NotFoundError | AuthError

    extend type Query {
      "Recordings, chapters, clips and VOD uploads of the caller's tenant."
      storageArtifactsConnection(input: StorageArtifactsInput): StorageArtifactsConnection!
      "Chapters of a recording (dvrHash or UUID) overlapping a wall-clock range (epoch ms)."
      dvrChapters(
        dvrId: ID!
        mode: DVRChapterMode
        intervalSeconds: Int
        rangeStartMs: Float
        rangeEndMs: Float
        pageSize: Int
        pageToken: String
      ): DVRChapterPage!
      "The chapter of a recording covering a wall-clock range (epoch ms), or null."
      dvrChapter(dvrId: ID!, mode: DVRChapterMode, intervalSeconds: Int, startMs: Float!, endMs: Float!): DVRChapter
    }

    extend type Mutation {
      "Starts recording a live stream that is not recording."
      startDVR(streamId: ID!): StartDVRResult!
      "Stops a recording; its last chapter is cut and it is finalized."
      stopDVR(dvrHash: ID!): StopDVRResult!
      "Deletes a recording with its chapters, clips and stored bytes."
      deleteDVR(dvrHash: ID!): DeleteDVRResult!
    }
  `,
  resolvers: {
    Stream: {
      dvrChapterMode: async (stream, _args, ctx) => (await ctx.services.chapterSettings.of(stream.id)).mode,
      dvrChapterIntervalSeconds: async (stream, _args, ctx) =>
        (await ctx.services.chapterSettings.of(stream.id)).intervalSeconds,
    },
    Query: {
      storageArtifactsConnection: async (_root, { input }, ctx) => {
        const principal = requirePrincipal(ctx.principal, 'streams:read');
        const page = await ctx.services.recordings.artifacts(principal.tenantId, input ?? {});
        return {
          nodes: page.items.map(storageArtifactToGraphQL),
          totalCount: page.totalCount,
          hasNextPage: page.offset + page.items.length < page.totalCount,
          limit: page.limit,
          offset: page.offset,
        };
      },
      dvrChapters: async (_root, args, ctx) => {
        const principal = requirePrincipal(ctx.principal, 'streams:read');
        const page = await ctx.services.recordings.chapters(
          principal.tenantId,
          args.dvrId,
          { startMs: args.rangeStartMs, endMs: args.rangeEndMs },
          args.pageSize,
          args.pageToken,
        );
        return {
          chapters: page.chapters.map(chapterRefToGraphQL),
          nextPageToken: page.nextPageToken,
        };
      },
      dvrChapter: async (_root, args, ctx) => {
        const principal = requirePrincipal(ctx.principal, 'streams:read');
        const chapter = await ctx.services.recordings.chapter(principal.tenantId, args.dvrId, args.startMs, args.endMs);
        return chapter ? chapterToGraphQL(chapter) : null;
      },
    },
    Mutation: {
      startDVR: (_root, { streamId }, ctx) =>
        unionResult('DVRRequest', ['ValidationError', 'NotFoundError', 'AuthError'], async () => {
          const principal = requirePrincipal(ctx.principal, 'streams:write');
          return recordingToGraphQL(await ctx.services.recordings.startDvr(principal.tenantId, streamId));
        }),
      stopDVR: (_root, { dvrHash }, ctx) =>
        unionResult('DeleteSuccess', ['ValidationError', 'NotFoundError', 'AuthError'], async () => {
          const principal = requirePrincipal(ctx.principal, 'streams:write');
          const recording = await ctx.services.recordings.stopDvr(principal.tenantId, dvrHash);
          return { success: true, deletedId: recording.dvrHash, pending: false };
        }),
      deleteDVR: (_root, { dvrHash }, ctx) =>
        unionResult('DeleteSuccess', ['ValidationError', 'NotFoundError', 'AuthError'], async () => {
          const principal = requirePrincipal(ctx.principal, 'streams:write');
          const recording = await ctx.services.recordings.deleteDvr(principal.tenantId, dvrHash);
          return { success: true, deletedId: recording.dvrHash, pending: false };
        }),
    },
  } satisfies Resolvers,
};
