/**
 * How many times each live stream's publisher dropped in its current session (the stream waited
 * in RECONNECTING for it), counted from the bus's `stream.reconnecting` events — every node's,
 * as the bus relays them across processes — and forgotten at `stream.offline`. A session is told
 * apart by its start time, so a session whose end this node missed does not carry its count into
 * the next one. Counts live in memory: a node started during a session counts from then on
 * (docs/adr/0056-dashboard-vod-and-health.md).
 */
import type { EventBus } from './event-bus.js';

/** The counter; `close` stops listening. */
export class PublisherReconnects {
  private readonly sessions = new Map<string, { startedAt: unknown; count: number }>();
  private readonly untap: () => void;

  constructor(bus: Pick<EventBus, 'tap'>) {
    this.untap = bus.tap(['stream.reconnecting', 'stream.offline'], (event) => {
      if (event.name === 'stream.offline') {
        this.sessions.delete(event.data.streamId);
      } else if (event.name === 'stream.reconnecting') {
        const startedAt = event.data.details?.startedAt;
        const session = this.sessions.get(event.data.streamId);
        if (session && session.startedAt === startedAt) {
          session.count++;
        } else {
          this.sessions.set(event.data.streamId, { startedAt, count: 1 });
        }
      }
    });
  }

  /** Publisher drops in the stream's current session seen so far. */
  count(streamId: string): number {
    return this.sessions.get(streamId)?.count ?? 0;
  }

  /** Stops counting. */
  close(): void {
    this.untap();
    this.sessions.clear();
  }
}
