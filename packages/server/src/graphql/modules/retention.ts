/**
 * Retention (frameworks.md §1.10): the tenant's defaults per class (`mediaRetentionPolicy`,
 * `setMediaRetentionPolicy`; account scopes), a stream's DVR and clip overrides
 * (`setStreamRetentionOverrides`, `Stream.retentionOverrides`) and an asset's own
 * (`updateMediaRetention`, `resetMediaRetentionOverride`; stream scopes), and the effective
 * retention of recordings and clips. Expired media is deleted by the node's hourly sweep.
 */
import { requirePrincipal } from '../../auth/principal.js';
import { fromGlobalId } from '../../domain/ids.js';
import type { EffectiveRetention as Effective } from '../../domain/retention/effective-retention.js';
import type { MediaRetentionPolicyView } from '../../domain/retention/retention.service.js';
import type { GraphQLContext as Context } from '../context.js';
import type {
  EffectiveRetention,
  MediaRetentionPolicy,
  Resolvers,
  StorageArtifact,
} from '../generated/resolvers-types.js';
import type { GraphQLModule } from '../module.js';
import { unionResult } from '../results.js';
import type { ClipParent, DvrRequestParent } from './media-parents.js';

function effectiveToGraphQL(retention: Effective): EffectiveRetention {
  return {
    retentionDays: retention.retentionDays,
    retentionUntil: retention.retentionUntil?.toISOString() ?? null,
    source: retention.source,
  };
}

function policyToGraphQL(view: MediaRetentionPolicyView): MediaRetentionPolicy {
  return {
    defaultVodRetentionDays: view.defaults.get('VOD') ?? null,
    defaultDvrRetentionDays: view.defaults.get('DVR') ?? null,
    defaultClipRetentionDays: view.defaults.get('CLIP') ?? null,
    effectiveVodRetentionDays: view.effective.VOD,
    effectiveDvrRetentionDays: view.effective.DVR,
    effectiveClipRetentionDays: view.effective.CLIP,
    updatedAt: view.updatedAt?.toISOString() ?? null,
  };
}

/** One lookup per object even when several of its retention fields are asked. */
const computed = new WeakMap<object, Promise<Effective | null>>();

function once(parent: object, compute: () => Promise<Effective | null>): Promise<Effective | null> {
  let promise = computed.get(parent);
  if (!promise) {
    promise = compute();
    computed.set(parent, promise);
  }
  return promise;
}

/** A finished recording's retention; null while it records. */
function recordingRetention(dvr: DvrRequestParent, ctx: Context): Promise<Effective | null> {
  return once(dvr, async () => {
    if (!dvr.isFinalized) {
      return null;
    }
    const principal = requirePrincipal(ctx.principal);
    return ctx.services.retention.effective(principal.tenantId, 'DVR', {
      id: fromGlobalId('DVRRequest', dvr.id),
      streamId: dvr.streamId,
      since: new Date(dvr.endedAt ?? dvr.updatedAt),
    });
  });
}

/** A clip's retention (createClip's expiresAt is its own override until one is set or reset). */
async function clipRetention(clip: ClipParent, ctx: Context): Promise<Effective> {
  const retention = await once(clip, () => {
    const principal = requirePrincipal(ctx.principal);
    return ctx.services.retention.effective(principal.tenantId, 'CLIP', {
      id: fromGlobalId('Clip', clip.id),
      streamId: clip.streamId,
      since: new Date(clip.createdAt),
      createdUntil: clip.expiresAt ? new Date(clip.expiresAt) : null,
    });
  });
  return retention as Effective;
}

/** A listed recording's or clip's retention; null for chapters and open recordings. */
function artifactRetention(artifact: StorageArtifact, ctx: Context): Promise<Effective | null> {
  return once(artifact, async () => {
    const kind = artifact.kind === 'DVR' || artifact.kind === 'CLIP' ? artifact.kind : undefined;
    if (!kind || (kind === 'DVR' && !FINISHED.test(artifact.status))) {
      return null;
    }
    const principal = requirePrincipal(ctx.principal);
    return ctx.services.retention.effectiveOf(principal.tenantId, kind, artifact.id);
  });
}

/** Recording statuses after which its days count. */
const FINISHED = /^(completed|completed_partial|failed)$/;

const expired = (retention: Effective) =>
  retention.retentionUntil !== null && retention.retentionUntil.getTime() <= Date.now();

/** The retention schema module. */
export const retentionModule: GraphQLModule = {
  typeDefs: /* GraphQL */ `
    "Classes of stored media with a retention of their own (chapters go with their recording)."
    enum MediaRetentionTarget {
      VOD
      DVR
      CLIP
    }

    "Where an effective retention comes from; TIER_ENTITLEMENT is the service default (DVR and clips 30 days, VOD kept)."
    enum RetentionSource {
      TENANT_DEFAULT
      PER_STREAM_OVERRIDE
      PER_ASSET_OVERRIDE
      TIER_ENTITLEMENT
    }

    "How long an asset is kept."
    type EffectiveRetention {
      "Days that apply (0: kept until deleted); for an asset's own end, whole days left."
      retentionDays: Int!
      "When it is deleted; null: not before it is deleted by hand (or while it is still recording)."
      retentionUntil: Time
      source: RetentionSource!
    }

    "The account's default retention per class (days from an asset's completion; 0: kept until deleted)."
    type MediaRetentionPolicy {
      "Null: the service default applies."
      defaultVodRetentionDays: Int
      defaultDvrRetentionDays: Int
      defaultClipRetentionDays: Int
      effectiveVodRetentionDays: Int!
      effectiveDvrRetentionDays: Int!
      effectiveClipRetentionDays: Int!
      updatedAt: Time
    }

    "A stream's own retention of its recordings and clips (null: the account default)."
    type StreamRetentionOverrides {
      "Stream UUID."
      streamId: ID!
      dvrRetentionDaysOverride: Int
      clipRetentionDaysOverride: Int
    }

    input SetMediaRetentionPolicyInput {
      targetType: MediaRetentionTarget!
      "0 to 3650; 0 keeps assets until deleted. Required unless clear."
      days: Int
      "true: back to the service default."
      clear: Boolean
    }

    input SetStreamRetentionOverridesInput {
      "Stream global ID (or UUID)."
      streamId: ID!
      "0 to 3650 days; 0 keeps until deleted; omitted: unchanged."
      dvrRetentionDaysOverride: Int
      clipRetentionDaysOverride: Int
      "true: the account default applies again (wins over a value)."
      clearDvrRetentionOverride: Boolean
      clearClipRetentionOverride: Boolean
    }

    input UpdateMediaRetentionInput {
      targetType: MediaRetentionTarget!
      "The recording (DVRRequest ID or dvrHash), clip or VOD asset."
      targetId: ID!
      "Kept this many days from now (0: until deleted). Exactly one of retentionDays and retentionUntil."
      retentionDays: Int
      "Deleted at this time (in the future)."
      retentionUntil: Time
    }

    input ResetMediaRetentionOverrideInput {
      targetType: MediaRetentionTarget!
      targetId: ID!
    }

    union SetMediaRetentionPolicyResult = MediaRetentionPolicy | ValidationError | AuthError
    union SetStreamRetentionOverridesResult = StreamRetentionOverrides | ValidationError | NotFoundError | AuthError
    union UpdateMediaRetentionResult = EffectiveRetention | ValidationError | NotFoundError | AuthError

    extend type Query {
      "The account's default retention per class (account:read)."
      mediaRetentionPolicy: MediaRetentionPolicy!
    }

    extend type Mutation {
      "Sets or clears the account's default retention of a class (account:write)."
      setMediaRetentionPolicy(input: SetMediaRetentionPolicyInput!): SetMediaRetentionPolicyResult!
      "Sets or clears a stream's retention of its recordings and clips."
      setStreamRetentionOverrides(input: SetStreamRetentionOverridesInput!): SetStreamRetentionOverridesResult!
      "Gives one recording, clip or VOD asset its own retention."
      updateMediaRetention(input: UpdateMediaRetentionInput!): UpdateMediaRetentionResult!
      "Drops an asset's own retention (and a clip's creation-time expiresAt)."
      resetMediaRetentionOverride(input: ResetMediaRetentionOverrideInput!): UpdateMediaRetentionResult!
    }

    extend type Stream {
      "The stream's own retention of its recordings and clips."
      retentionOverrides: StreamRetentionOverrides!
    }

    extend type DVRRequest {
      "How long the recording is kept (null while it records)."
      effectiveRetention: EffectiveRetention
      expiresAt: Time
      isExpired: Boolean!
    }

    extend type StorageArtifact {
      "How long it is kept; null for chapters (they go with their recording) and recordings still recording."
      effectiveRetention: EffectiveRetention
    }

    extend type Clip {
      effectiveRetention: EffectiveRetention!
      isExpired: Boolean!
    }
  `,
  resolvers: {
    Query: {
      mediaRetentionPolicy: async (_root, _args, ctx) => {
        const principal = requirePrincipal(ctx.principal, 'account:read');
        return policyToGraphQL(await ctx.services.retention.policy(principal.tenantId));
      },
    },
    Mutation: {
      setMediaRetentionPolicy: (_root, { input }, ctx) =>
        unionResult('MediaRetentionPolicy', ['ValidationError', 'AuthError'], async () => {
          const principal = requirePrincipal(ctx.principal, 'account:write');
          return policyToGraphQL(await ctx.services.retention.setPolicy(principal.tenantId, input));
        }),
      setStreamRetentionOverrides: (_root, { input }, ctx) =>
        unionResult('StreamRetentionOverrides', ['ValidationError', 'NotFoundError', 'AuthError'], () => {
          const principal = requirePrincipal(ctx.principal, 'streams:write');
          return ctx.services.retention.setStreamOverrides(principal.tenantId, input);
        }),
      updateMediaRetention: (_root, { input }, ctx) =>
        unionResult('EffectiveRetention', ['ValidationError', 'NotFoundError', 'AuthError'], async () => {
          const principal = requirePrincipal(ctx.principal, 'streams:write');
          return effectiveToGraphQL(await ctx.services.retention.updateAsset(principal.tenantId, input));
        }),
      resetMediaRetentionOverride: (_root, { input }, ctx) =>
        unionResult('EffectiveRetention', ['ValidationError', 'NotFoundError', 'AuthError'], async () => {
          const principal = requirePrincipal(ctx.principal, 'streams:write');
          return effectiveToGraphQL(await ctx.services.retention.resetAsset(principal.tenantId, input));
        }),
    },
    Stream: {
      retentionOverrides: (stream, _args, ctx) => {
        const principal = requirePrincipal(ctx.principal);
        return ctx.services.retention.streamOverrides(principal.tenantId, stream.id);
      },
    },
    DVRRequest: {
      effectiveRetention: async (dvr, _args, ctx) => {
        const retention = await recordingRetention(dvr, ctx);
        return retention ? effectiveToGraphQL(retention) : null;
      },
      expiresAt: async (dvr, _args, ctx) => (await recordingRetention(dvr, ctx))?.retentionUntil?.toISOString() ?? null,
      isExpired: async (dvr, _args, ctx) => {
        const retention = await recordingRetention(dvr, ctx);
        return retention ? expired(retention) : false;
      },
    },
    StorageArtifact: {
      effectiveRetention: async (artifact, _args, ctx) => {
        const retention = await artifactRetention(artifact, ctx);
        return retention ? effectiveToGraphQL(retention) : null;
      },
      expiresAt: async (artifact, _args, ctx) =>
        (await artifactRetention(artifact, ctx))?.retentionUntil?.toISOString() ?? null,
    },
    Clip: {
      effectiveRetention: async (clip, _args, ctx) => effectiveToGraphQL(await clipRetention(clip, ctx)),
      expiresAt: async (clip, _args, ctx) => (await clipRetention(clip, ctx)).retentionUntil?.toISOString() ?? null,
      isExpired: async (clip, _args, ctx) => expired(await clipRetention(clip, ctx)),
    },
  } satisfies Resolvers,
};
