/**
 * A VOD asset as the target of its own playback policy (setPlaybackPolicy with vodAssetId): the
 * policy applies to the asset's playback ID, so every `/play` URL of it is gated; an asset
 * without one is public (uploads have no stream to inherit from).
 */
import type { ContentPolicyTarget } from '../playback-policies/playback-policies.store.js';
import type { VodAssetRecord } from './vod-asset.js';

/** The policy target of an asset the caller found in its tenant. */
export function vodPolicyTarget(asset: VodAssetRecord): ContentPolicyTarget {
  return { kind: 'VOD', contentId: asset.id, playbackId: asset.playbackId, tenantId: asset.tenantId, streamId: null };
}
