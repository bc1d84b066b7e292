/**
 * One wake-up per stream for all its pushes (ADR 0078): the pushes of a stream that keep up are
 * written by one loop that wakes once per burst of ingest and hands every member its new units in
 * one synchronous pass (at most every `FLUSH_INTERVAL_MS`), instead of each push waking its own
 * reader and resuming its own async loop. A push leaves the fan-out (and goes back to its own loop) whenever something needs
 * waiting for: a write the socket did not take, a description change, its reader closing.
 */
import type { LiveStream } from '../../hub/live-stream.js';
import type { QueuedReader } from '../../hub/reader.js';

/**
 * A fan-out writes its members at most this often: every second one of ingest's 100 ms batched
 * reads when nobody watches the stream, every few reads when someone does (ingest then reads as
 * bytes arrive). Per target that halves the writes, their system calls and the receiver's
 * wake-ups, for 100 ms more delay on the way to a platform that buffers seconds anyway.
 */
const FLUSH_INTERVAL_MS = 150;

/**
 * A wake-up that skipped its flush arms one timer per stream for this long, so units that came in
 * just before ingest paused (a publisher dropping) still go out; the next flush clears it.
 */
const HELD_FLUSH_MS = 250;

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
  private lastFlushMs = 0;
  private held: NodeJS.Timeout | undefined;

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
      if (now - this.lastFlushMs < FLUSH_INTERVAL_MS) {
        this.held ??= setTimeout(() => this.flush(Date.now()), HELD_FLUSH_MS);
        continue;
      }
      this.flush(now);
    }
    clearTimeout(this.held);
    this.held = undefined;
    reader.close();
    this.reader = undefined;
    const left = [...this.members];
    this.members.clear();
    for (const member of left) {
      member.release();
    }
  }

  /** Writes every member's new units. */
  private flush(now: number): void {
    clearTimeout(this.held);
    this.held = undefined;
    this.lastFlushMs = now;
    for (const member of this.members) {
      if (!member.flush(now)) {
        this.members.delete(member);
      }
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
