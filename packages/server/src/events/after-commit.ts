/**
 * Post-commit publishing: events describing a database change are staged while the transaction
 * runs and published only once it has committed. A rolled-back (thrown) transaction publishes
 * nothing.
 *
 *   await publishAfterCommit(bus, (stage) =>
 *     db.transaction(async (tx) => {
 *       await tx.update(streams).set({ status: 'LIVE' }).where(...);
 *       stage('stream.live', { tenantId, streamId });
 *     }),
 *   );
 *
 * Wrap the outermost transaction: a nested savepoint has not committed when it returns.
 */
import type { EventPublisher } from './event-bus.js';
import type { EventMap, EventName } from './event-map.js';

/** Stages an event for publishing after the commit. */
export type StageEvent = <N extends EventName>(name: N, data: EventMap[N]) => void;

interface Staged {
  readonly name: EventName;
  readonly data: EventMap[EventName];
}

/** Runs `work` (which returns when its transaction committed), then publishes what it staged. */
export async function publishAfterCommit<T>(bus: EventPublisher, work: (stage: StageEvent) => Promise<T>): Promise<T> {
  const staged: Staged[] = [];
  let open = true;
  const stage: StageEvent = (name, data) => {
    if (!open) {
      throw new Error(`event ${name} staged after its transaction finished; publish it directly`);
    }
    staged.push({ name, data });
  };
  try {
    const result = await work(stage);
    open = false;
    for (const event of staged) {
      bus.publish(event.name, event.data);
    }
    return result;
  } finally {
    open = false;
  }
}
