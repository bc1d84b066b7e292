/**
 * Push targets (frameworks.md §1.3): restream destinations of a stream, read through
 * `Stream.pushTargets` (status by polling, spec §6) and managed by create/update/delete. The URI is
 * read back masked; only the stream's owner sees even that. Reads need `streams:read`, changes
 * `streams:write`.
 */
import { requirePrincipal } from '../../auth/principal.js';
import { toGlobalId } from '../../domain/ids.js';
import type { PushTargetRecord } from '../../domain/push-targets/push-target.js';
import type { StreamRecord } from '../../domain/streams/stream.js';
import type { Resolvers } from '../generated/resolvers-types.js';
import type { GraphQLModule } from '../module.js';
import { unionResult } from '../results.js';

/** The push targets schema module. */
export const pushTargetsModule: GraphQLModule = {
  typeDefs: /* GraphQL */ `
    "A restream destination of a stream: while the stream is live and the target enabled, its default output is pushed there."
    type PushTarget {
      "Global ID."
      id: ID!
      "UUID of the stream it belongs to."
      streamId: ID!
      "twitch, youtube, facebook, kick, x or custom."
      platform: String!
      name: String!
      "The destination with credentials, query and fragment stripped and the stream key cut to a short prefix."
      targetUri: String!
      isEnabled: Boolean!
      "idle, connecting, pushing, retrying (the last attempt failed; the next one is scheduled) or failed (several attempts in a row failed; retries go on)."
      status: String!
      "Why the last attempt failed or ended (no secrets)."
      lastError: String
      "When media was last sent."
      lastPushedAt: Time
      "Bytes sent to the destination since the stream went live."
      bytesSent: Float!
      "Bitrate sent over the last seconds, in kbit/s (0 when not pushing)."
      bitrateKbps: Int!
      "Media units skipped because the destination read too slowly (the push resumes at the next keyframe)."
      droppedUnits: Float!
      createdAt: Time!
      updatedAt: Time!
    }

    input CreatePushTargetInput {
      "twitch, youtube, facebook, kick, x or custom (default)."
      platform: String
      "1 to 255 characters."
      name: String!
      "rtmp://host[:port]/app/key, rtmps://… or srt://host:port?streamid=…&passphrase=…"
      targetUri: String!
    }

    input UpdatePushTargetInput {
      name: String
      targetUri: String
      "false stops a running push within a second."
      isEnabled: Boolean
    }

    union CreatePushTargetResult = PushTarget | ValidationError | NotFoundError | AuthError
    union UpdatePushTargetResult = PushTarget | ValidationError | NotFoundError | AuthError
    union DeletePushTargetResult = DeleteSuccess | ValidationError | NotFoundError | AuthError

    extend type Mutation {
      "Adds a push target to one of the caller's streams (enabled; pushed while the stream is live)."
      createPushTarget(streamId: ID!, input: CreatePushTargetInput!): CreatePushTargetResult!
      "Renames, re-points, enables or disables a push target."
      updatePushTarget(id: ID!, input: UpdatePushTargetInput!): UpdatePushTargetResult!
      "Deletes a push target; a running push stops within a second."
      deletePushTarget(id: ID!): DeletePushTargetResult!
    }
  `,
  resolvers: {
    Mutation: {
      createPushTarget: (_root, { streamId, input }, ctx) =>
        unionResult('PushTarget', ['ValidationError', 'NotFoundError', 'AuthError'], () => {
          const principal = requirePrincipal(ctx.principal, 'streams:write');
          return ctx.services.pushTargets.create(principal.tenantId, streamId, input);
        }),
      updatePushTarget: (_root, { id, input }, ctx) =>
        unionResult('PushTarget', ['ValidationError', 'NotFoundError', 'AuthError'], () => {
          const principal = requirePrincipal(ctx.principal, 'streams:write');
          return ctx.services.pushTargets.update(principal.tenantId, id, input);
        }),
      deletePushTarget: (_root, { id }, ctx) =>
        unionResult('DeleteSuccess', ['ValidationError', 'NotFoundError', 'AuthError'], async () => {
          const principal = requirePrincipal(ctx.principal, 'streams:write');
          const deleted = await ctx.services.pushTargets.delete(principal.tenantId, id);
          return { success: true, deletedId: toGlobalId('PushTarget', deleted), pending: false };
        }),
    },
    Stream: {
      pushTargets: (stream: StreamRecord, _args, ctx) =>
        ctx.services.pushTargets.listForStream(stream.tenantId, stream.id),
    },
    PushTarget: {
      id: (target: PushTargetRecord) => toGlobalId('PushTarget', target.id),
      bitrateKbps: (target: PushTargetRecord) => Math.round(target.bitrateBps / 1000),
      lastPushedAt: (target: PushTargetRecord) => target.lastPushedAt?.toISOString() ?? null,
      createdAt: (target: PushTargetRecord) => target.createdAt.toISOString(),
      updatedAt: (target: PushTargetRecord) => target.updatedAt.toISOString(),
    },
  } satisfies Resolvers,
};
