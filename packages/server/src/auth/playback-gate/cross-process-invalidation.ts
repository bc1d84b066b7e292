/**
 * Carries playback policy changes and signing-key revocations between processes over the event
 * bus (LISTEN/NOTIFY with PostgreSQL): a change made on one node drops the gate caches of every
 * other node as soon as the event arrives, not when their cache entries expire.
 */
import type { PlaybackPoliciesService } from '../../domain/playback-policies/playback-policies.service.js';
import type { SigningKeysService } from '../../domain/signing-keys/signing-keys.service.js';
import type { EventBus } from '../../events/event-bus.js';

/** What to connect. */
export interface PlaybackAccessRelayOptions {
  readonly bus: EventBus;
  readonly policies: PlaybackPoliciesService;
  readonly signingKeys: SigningKeysService;
}

/** Publishes this process's changes and applies other processes'; returns the disconnect function. */
export function relayPlaybackAccessChanges(options: PlaybackAccessRelayOptions): () => void {
  const { bus, policies, signingKeys } = options;
  policies.onChanged((change) => {
    if (change.local) {
      bus.publish('playback.policy_changed', {
        tenantId: change.tenantId,
        streamId: change.streamId,
        playbackId: change.playbackId,
      });
    }
  });
  signingKeys.onRevoked((revocation) => {
    if (revocation.local) {
      bus.publish('signing_key.revoked', { tenantId: revocation.tenantId, kid: revocation.kid });
    }
  });
  return bus.tap(['playback.policy_changed', 'signing_key.revoked'], (event) => {
    if (event.origin === bus.instanceId) {
      return;
    }
    if (event.name === 'playback.policy_changed') {
      policies.forgetChanged(event.data);
    } else if (event.name === 'signing_key.revoked') {
      signingKeys.forgetRevoked(event.data.kid, event.data.tenantId);
    }
  });
}
