/**
 * Playback policies of VOD assets in the API (frameworks.md §1.11): `setPlaybackPolicy` takes a
 * `vodAssetId` instead of a `streamId` and answers the VodAsset; `VodAsset.playbackPolicy` reads
 * it (the webhook secret masked). Needs `security:write` / an authenticated caller like a stream's.
 */
import { requirePrincipal } from '../../auth/principal.js';
import { fromGlobalId } from '../../domain/ids.js';
import type { PlaybackPolicyInput } from '../../domain/playback-policies/playback-policy.js';
import type { GraphQLContext } from '../context.js';
import type { Resolvers } from '../generated/resolvers-types.js';
import type { GraphQLModule } from '../module.js';
import { unionResult } from '../results.js';
import { vodAssetToGraphQL } from './vod.js';

/** setPlaybackPolicy for a VOD asset: its union member. */
export function setVodPlaybackPolicy(vodAssetId: string, policy: PlaybackPolicyInput, ctx: GraphQLContext) {
  return unionResult('VodAsset', ['ValidationError', 'NotFoundError', 'AuthError'], async () =>
    vodAssetToGraphQL(await ctx.services.vodPolicies.set(ctx.principal, vodAssetId, policy)),
  );
}

/** The VOD playback policy schema module. */
export const vodPolicyModule: GraphQLModule = {
  typeDefs: /* GraphQL */ `
    extend input SetPlaybackPolicyInput {
      "VodAsset global ID (or UUID): sets the asset's policy; give it instead of streamId."
      vodAssetId: ID
    }

    extend union SetPlaybackPolicyResult = VodAsset

    extend type VodAsset {
      "Who may play this asset (PUBLIC unless setPlaybackPolicy changed it)."
      playbackPolicy: PlaybackPolicy!
    }
  `,
  resolvers: {
    VodAsset: {
      playbackPolicy: (asset, _args, ctx) => {
        requirePrincipal(ctx.principal);
        return ctx.services.vodPolicies.view(fromGlobalId('VodAsset', asset.id));
      },
    },
  } satisfies Resolvers,
};
