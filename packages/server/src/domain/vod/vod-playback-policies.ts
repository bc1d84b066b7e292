/**
 * Playback policies of VOD assets (frameworks.md §1.11, `setPlaybackPolicy(input {vodAssetId})`):
 * the same rules as a stream's (validated by the playback policy service), stored per asset, and
 * answered to the playback gate for the asset's playback ID, so every `/play` URL of the asset
 * (playlists, segments, MP4; the images stay public as a stream's thumbnails do) is gated.
 */
import { type Principal, requirePrincipal } from '../../auth/principal.js';
import {
  type PlaybackPoliciesService,
  type PlaybackPolicyView,
  policyView,
} from '../playback-policies/playback-policies.service.js';
import type { PlaybackPolicyInput } from '../playback-policies/playback-policy.js';
import type { VodAssetRecord } from './vod-asset.js';
import type { VodPolicyStore } from './vod-policy.store.js';
import type { VodUploadsService } from './vod-uploads.service.js';

/** Sets and reads the playback policies of VOD assets. */
export class VodPlaybackPolicies {
  constructor(
    private readonly deps: {
      readonly store: VodPolicyStore;
      readonly policies: PlaybackPoliciesService;
      readonly vod: VodUploadsService;
      readonly now?: () => number;
    },
  ) {
    deps.policies.addOwner((playbackId) => deps.store.byPlaybackId(playbackId));
  }

  /** Sets the policy of a tenant's asset (security:write); another tenant's asset is NOT_FOUND. */
  async set(principal: Principal | null, vodAssetId: string, input: PlaybackPolicyInput): Promise<VodAssetRecord> {
    const caller = requirePrincipal(principal, 'security:write');
    const asset = await this.deps.vod.get(caller.tenantId, vodAssetId);
    const current = await this.deps.store.forAsset(asset.id);
    const next = await this.deps.policies.validate(caller.tenantId, input, current);
    const policy = await this.deps.store.upsert(
      caller.tenantId,
      asset.id,
      next,
      new Date((this.deps.now ?? Date.now)()),
    );
    this.deps.policies.applied({ streamId: '', tenantId: caller.tenantId, playbackId: asset.playbackId, policy });
    return asset;
  }

  /** The read view of an asset's policy (PUBLIC when none was set). */
  async view(vodAssetId: string): Promise<PlaybackPolicyView> {
    return policyView(await this.deps.store.forAsset(vodAssetId));
  }
}
