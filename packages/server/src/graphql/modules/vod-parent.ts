/**
 * The parent object of the VodAsset type as the VOD module builds it: every field but the
 * playback policy, which the VOD policy module resolves (codegen maps VodAsset to this).
 */
import type { VodAsset } from '../generated/resolvers-types.js';

/** A VodAsset as built from its record. */
export type VodAssetParent = Omit<VodAsset, 'playbackPolicy'>;
