/**
 * One wake-up per stream for all its pushes (ADR 0078): the pushes of a stream that keep up are
 * written by one loop that wakes once per burst of ingest and hands every member its new units in
 * one synchronous pass, instead of each push waking its own reader and resuming its own async
 * loop. A push leaves the fan-out (and goes back to its own loop) whenever something needs
 * waiting for: a write the socket did not take, a description change, its reader closing.
 */
import type { LiveStream } from '../../hub/live-stream.js';
import type { QueuedReader } from '../../hub/reader.js';

/** A push written by its stream's fan-out while it keeps up. */
export interface FanoutMember {
  /** Sends what the push's own reader holds now (`nowMs`: the wake-up's clock); false leaves the fan-out. */
  flush(nowMs: number): boolean;
  /** The fan-out stopped (its stream ended): the push continues on its own. */
  release(): void;
}

/** The pushes of one stream written together. */
class StreamFanout {
  private readonly members = new Set<FanoutMember>();
  private reader: QueuedReader | undefined;

  constructor(private readonly stream: LiveStream) {}

  /** Adds a member; it is flushed at the stream's next wake-up. */
  join(member: FanoutMember): void {
    this.members.add(member);
    if (this.reader === undefined) {
      // The fan-out's reader only wakes the loop: the units each member sends are in its own reader.
      const reader = this.stream.openReader({ watches: false });
      this.reader = reader;
      void this.run(reader);
    }
  }

  /** Removes a member (not flushed any more). */
  leave(member: FanoutMember): void {
    this.members.delete(member);
  }

  private async run(reader: QueuedReader): Promise<void> {
    for (;;) {
      const unit = await reader.next();
      while (reader.shift()) {
        // Discards the burst: it only tells that the members' readers have units.
      }
      if (!unit || this.members.size === 0) {
        break;
      }
      const now = Date.now();
      for (const member of this.members) {
        if (!member.flush(now)) {
          this.members.delete(member);
        }
      }
    }
    reader.close();
    this.reader = undefined;
    const left = [...this.members];
    this.members.clear();
    for (const member of left) {
      member.release();
    }
  }
}

const fanouts = new WeakMap<LiveStream, StreamFanout>();

/** The fan-out of `stream`'s pushes (one per stream). */
export function fanoutOf(stream: LiveStream): StreamFanout {
  let fanout = fanouts.get(stream);
  if (!fanout) {
    fanout = new StreamFanout(stream);
    fanouts.set(stream, fanout);
  }
  return fanout;
}
