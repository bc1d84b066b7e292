/**
 * Clips (frameworks.md §1.8): createClip, clip, deleteClip. A clip is GOP-aligned (its snapped
 * range is what `startTime`/`duration` report) and has its own playback ID. Reads need
 * `streams:read`, writes `streams:write`.
 */
import { requirePrincipal } from '../../auth/principal.js';
import { toGlobalId } from '../../domain/ids.js';
import type { ArtifactRecord } from '../../domain/recordings/recording.js';
import type { Clip, Resolvers } from '../generated/resolvers-types.js';
import type { GraphQLModule } from '../module.js';
import { unionResult } from '../results.js';
import type { ClipParent } from './media-parents.js';
import { thumbnailUrls } from './recordings.js';

/** A clip record as the GraphQL Clip. */
export function clipToGraphQL(clip: ArtifactRecord): ClipParent {
  const params = clip.params as { mode?: string };
  return {
    id: toGlobalId('Clip', clip.id),
    clipHash: clip.hash,
    playbackId: clip.playbackId,
    ...thumbnailUrls(clip.playbackId),
    streamId: clip.streamId,
    title: clip.title ?? '',
    description: clip.description,
    startTime: clip.startUnixMs / 1000,
    duration: clip.durationMs / 1000,
    startUnixMs: clip.startUnixMs,
    endUnixMs: clip.endUnixMs,
    startMediaSeconds: clip.startOffsetMs / 1000,
    sizeBytes: clip.sizeBytes,
    status: clip.status,
    clipMode: (params.mode ?? 'ABSOLUTE') as Clip['clipMode'],
    errorMessage: clip.errorMessage,
    expiresAt: clip.expiresAt?.toISOString() ?? null,
    createdAt: clip.createdAt.toISOString(),
    updatedAt: clip.updatedAt.toISOString(),
  };
}

/** The clips schema module. */
export const clipsModule: GraphQLModule = {
  typeDefs: /* GraphQL */ `
    "How createClip's range is given (seconds)."
    enum ClipCreationMode {
      "startUnix and stopUnix (epoch seconds)."
      ABSOLUTE
      "startMedia and stopMedia: seconds from the recording's first frame."
      RELATIVE
      "startUnix or startMedia, plus duration."
      DURATION
      "The last duration seconds before the live edge."
      CLIP_NOW
    }

    "A GOP-aligned cut of a stream's recording with its own playback ID (HLS over CMAF and TS, DASH, MP4)."
    type Clip {
      id: ID!
      clipHash: String!
      playbackId: String!
      "Poster JPEG path (refreshed every few seconds while recording)."
      thumbnailUrl: String!
      "10 × 10 sprite sheet path."
      spriteUrl: String!
      "WebVTT cues (#xywh) of the sprite sheet."
      spriteVttUrl: String!
      streamId: ID!
      title: String!
      description: String
      "Snapped start, epoch seconds (the keyframe at or before the requested start)."
      startTime: Float!
      "Snapped duration, seconds (ends at the segment boundary after the requested end)."
      duration: Float!
      startUnixMs: Float!
      endUnixMs: Float!
      "Snapped start, seconds from the recording's first frame."
      startMediaSeconds: Float!
      sizeBytes: Float!
      "processing (HLS over CMAF and DASH already play), ready (MP4 and TS too) or failed."
      status: String!
      clipMode: ClipCreationMode!
      errorMessage: String
      expiresAt: Time
      createdAt: Time!
      updatedAt: Time!
      "Who may play the clip: its own policy (setPlaybackPolicy with clipId), else its stream's."
      playbackPolicy: PlaybackPolicy!
    }

    input CreateClipInput {
      streamId: ID!
      "1 to 255 characters."
      title: String!
      description: String
      "Default ABSOLUTE."
      mode: ClipCreationMode
      startUnix: Float
      stopUnix: Float
      startMedia: Float
      stopMedia: Float
      duration: Float
      expiresAt: Time
    }

    union CreateClipResult = Clip | ValidationError | NotFoundError | AuthError
    union DeleteClipResult = DeleteSuccess | ValidationError | NotFoundError | AuthError

    extend type Query {
      "A clip of the caller's tenant by ID or clip hash."
      clip(id: ID!): Clip
    }

    extend type Mutation {
      "Cuts a GOP-aligned clip of a stream's recording (live or finished) without re-encoding."
      createClip(input: CreateClipInput!): CreateClipResult!
      "Deletes a clip and its renditions (the recording stays)."
      deleteClip(id: ID!): DeleteClipResult!
    }
  `,
  resolvers: {
    Clip: {
      playbackPolicy: (clip, _args, ctx) => {
        const principal = requirePrincipal(ctx.principal);
        return ctx.services.playbackPolicies.viewForContent(principal.tenantId, clip.playbackId, clip.streamId);
      },
    },
    Query: {
      clip: async (_root, { id }, ctx) => {
        const principal = requirePrincipal(ctx.principal, 'streams:read');
        return clipToGraphQL(await ctx.services.clips.get(principal.tenantId, id));
      },
    },
    Mutation: {
      createClip: (_root, { input }, ctx) =>
        unionResult('Clip', ['ValidationError', 'NotFoundError', 'AuthError'], async () => {
          const principal = requirePrincipal(ctx.principal, 'streams:write');
          return clipToGraphQL(await ctx.services.clips.create(principal.tenantId, input));
        }),
      deleteClip: (_root, { id }, ctx) =>
        unionResult('DeleteSuccess', ['ValidationError', 'NotFoundError', 'AuthError'], async () => {
          const principal = requirePrincipal(ctx.principal, 'streams:write');
          const clip = await ctx.services.clips.delete(principal.tenantId, id);
          return { success: true, deletedId: toGlobalId('Clip', clip.id), pending: false };
        }),
    },
  } satisfies Resolvers,
};
