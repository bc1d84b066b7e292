/**
 * Carries push-target changes between nodes over the event bus (LISTEN/NOTIFY with PostgreSQL):
 * a target created, updated, disabled or deleted through one node makes the node that pushes its
 * stream re-read the stream's targets as soon as the event arrives (a disable or delete stops the
 * push within a second there too), not at the runner's periodic re-read.
 */
import type { EventBus } from '../events/event-bus.js';

/** What the relay tells: a stream's targets changed (the runner of this node re-reads them). */
export type PushTargetsChanged = (streamId: string) => void;

/** The relay between this node's push-target changes and the other nodes' runners. */
export interface PushTargetsRelay {
  /** A change made through this node: applied here at once, and published to the other nodes. */
  changed(tenantId: string, streamId: string): void;
  /** Stops applying other nodes' changes. */
  close(): void;
}

/** Applies this node's changes locally and publishes them; applies the changes other nodes publish. */
export function relayPushTargetChanges(bus: EventBus, apply: PushTargetsChanged): PushTargetsRelay {
  const untap = bus.tap(['push_targets.changed'], (event) => {
    if (event.origin !== bus.instanceId && event.name === 'push_targets.changed') {
      apply(event.data.streamId);
    }
  });
  return {
    changed: (tenantId, streamId) => {
      apply(streamId);
      bus.publish('push_targets.changed', { tenantId, streamId });
    },
    close: untap,
  };
}
