/**
 * Playback policies of VOD assets in the API (frameworks.md §1.11): `setPlaybackPolicy` takes a
 * `vodAssetId` (instead of a stream or clip) and answers the VodAsset; `VodAsset.playbackPolicy`
 * reads it (PUBLIC when none was set; the webhook secret masked). The policy is a content policy
 * keyed by the asset's playback ID, which the gate applies to every `/play` URL of the asset.
 */
import { requirePrincipal } from '../../auth/principal.js';
import type { PlaybackPolicyInput } from '../../domain/playback-policies/playback-policy.js';
import { vodPolicyTarget } from '../../domain/vod/vod-playback-policy.js';
import type { GraphQLContext } from '../context.js';
import type { Resolvers } from '../generated/resolvers-types.js';
import type { GraphQLModule } from '../module.js';
import { unionResult } from '../results.js';
import { vodAssetToGraphQL } from './vod.js';

/** setPlaybackPolicy for a VOD asset of the caller's tenant (security:write; another tenant's is NOT_FOUND). */
export function setVodPlaybackPolicy(vodAssetId: string, policy: PlaybackPolicyInput, ctx: GraphQLContext) {
  return unionResult('VodAsset', ['ValidationError', 'NotFoundError', 'AuthError'], async () => {
    const principal = requirePrincipal(ctx.principal, 'security:write');
    const asset = await ctx.services.vod.get(principal.tenantId, vodAssetId);
    await ctx.services.playbackPolicies.setForContent(ctx.principal, vodPolicyTarget(asset), policy);
    return vodAssetToGraphQL(asset);
  });
}

/** The VOD playback policy schema module. */
export const vodPolicyModule: GraphQLModule = {
  typeDefs: /* GraphQL */ `
    extend input SetPlaybackPolicyInput {
      "VodAsset global ID, UUID or artifact hash: that asset only (uploads are public until set)."
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
        const principal = requirePrincipal(ctx.principal);
        return ctx.services.playbackPolicies.viewForContent(principal.tenantId, asset.playbackId, null);
      },
    },
  } satisfies Resolvers,
};
