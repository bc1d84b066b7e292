/**
 * A clip as the target of its own playback policy (setPlaybackPolicy with clipId): the policy
 * replaces, for the clip's playback ID only, its stream's (which it inherits otherwise).
 */
import type { ContentPolicyTarget } from '../playback-policies/playback-policies.store.js';
import type { ArtifactRecord } from '../recordings/recording.js';

/** The policy target of a clip the caller found in its tenant. */
export function clipPolicyTarget(clip: ArtifactRecord): ContentPolicyTarget {
  return {
    kind: 'CLIP',
    contentId: clip.id,
    playbackId: clip.playbackId,
    tenantId: clip.tenantId,
    streamId: clip.streamId,
  };
}
