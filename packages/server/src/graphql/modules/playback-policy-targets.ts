/**
 * What setPlaybackPolicy sets the policy of: exactly one of `streamId`, `clipId` and `vodAssetId`
 * (the VOD module's), each found in the caller's tenant (NOT_FOUND otherwise). The stream's policy
 * is what its live output, recordings, chapters and clips play under; a clip's own replaces it
 * for that clip only.
 */
import { requirePrincipal } from '../../auth/principal.js';
import { clipPolicyTarget } from '../../domain/clips/clip-playback-policy.js';
import { ValidationError } from '../../domain/errors.js';
import type { StreamRecord } from '../../domain/streams/stream.js';
import type { GraphQLContext } from '../context.js';
import type { SetPlaybackPolicyInput } from '../generated/resolvers-types.js';
import { unionResult } from '../results.js';
import { clipToGraphQL } from './clips.js';
import { setVodPlaybackPolicy } from './vod-policy.js';

const ERRORS = ['ValidationError', 'NotFoundError', 'AuthError'] as const;

/** Runs setPlaybackPolicy on the one target the input names; answers the target (Stream or Clip) or an error member. */
export function setPolicyOfTarget(input: SetPlaybackPolicyInput, ctx: GraphQLContext) {
  const named = [input.streamId, input.clipId, input.vodAssetId].filter((id) => id != null);
  if (named.length !== 1) {
    return unionResult('Stream', ERRORS, async (): Promise<StreamRecord> => {
      throw new ValidationError(
        'input.streamId',
        'one_of',
        'give exactly one of input.streamId, input.clipId and input.vodAssetId',
      );
    });
  }
  if (input.vodAssetId != null) {
    return setVodPlaybackPolicy(input.vodAssetId, input.policy, ctx);
  }
  if (input.clipId != null) {
    const clipId = input.clipId;
    return unionResult('Clip', ERRORS, async () => {
      const principal = requirePrincipal(ctx.principal, 'security:write');
      const clip = await ctx.services.clips.get(principal.tenantId, clipId);
      await ctx.services.playbackPolicies.setForContent(ctx.principal, clipPolicyTarget(clip), input.policy);
      return clipToGraphQL(clip);
    });
  }
  const streamId = input.streamId as string;
  return unionResult('Stream', ERRORS, async () => {
    const id = await ctx.services.playbackPolicies.set(ctx.principal, streamId, input.policy);
    const principal = requirePrincipal(ctx.principal);
    return ctx.services.streams.get(principal.tenantId, id);
  });
}
