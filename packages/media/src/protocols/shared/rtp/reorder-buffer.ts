/**
 * Puts RTP packets of one SSRC back in sequence-number order (RFC 3550 §A.1 arithmetic) with a
 * bounded window: a late packet waits for the ones before it until the window holds
 * `maxHeld` packets or the oldest held packet waited `maxWaitMs`; then the missing ones are
 * declared lost and delivery goes on. Duplicates and packets too old to place are dropped.
 * The wait is judged only in `poll`, never while packets are pushed: after the process stalled,
 * the datagrams queued in its socket meanwhile (a retransmission among them) are all read before
 * a gap is given up, so a busy receiver does not turn a recovered loss into a lost frame.
 */
import { nextSequence, sequenceDelta } from './rtp-clock.js';

/** What the buffer reports in delivery order. */
export type ReorderEvent<T> =
  | { readonly kind: 'packet'; readonly packet: T }
  | { readonly kind: 'lost'; readonly count: number };

/** Counters of one buffer. */
export interface ReorderStats {
  reordered: number;
  duplicates: number;
  late: number;
  lost: number;
}

/** Reorders one stream of sequence-numbered packets. */
export class ReorderBuffer<T> {
  readonly stats: ReorderStats = { reordered: 0, duplicates: 0, late: 0, lost: 0 };
  private expected: number | undefined;
  private readonly held = new Map<number, { packet: T; at: number }>();

  constructor(
    private readonly maxHeld = 128,
    private readonly maxWaitMs = 80,
  ) {}

  /** Adds one packet; returns what can be delivered now, in order. */
  push(sequence: number, packet: T, now: number): ReorderEvent<T>[] {
    const out: ReorderEvent<T>[] = [];
    if (this.expected === undefined) {
      this.expected = sequence;
    }
    const delta = sequenceDelta(this.expected, sequence);
    if (delta < 0) {
      this.stats.late++;
      return out;
    }
    if (delta > this.maxHeld * 4) {
      // A jump far ahead: the sender restarted its numbering. Start over from here.
      this.flushAll(out);
      this.expected = sequence;
    }
    if (this.held.has(sequence)) {
      this.stats.duplicates++;
      return out;
    }
    if (sequence !== this.expected) {
      this.stats.reordered++;
    }
    this.held.set(sequence, { packet, at: now });
    this.drain(out);
    this.expire(out);
    return out;
  }

  /** Releases packets whose wait is over (call on a timer, after the socket's queued datagrams were read). */
  poll(now: number): ReorderEvent<T>[] {
    const out: ReorderEvent<T>[] = [];
    this.expire(out, now);
    return out;
  }

  /** Packets held waiting for a gap to fill. */
  get heldCount(): number {
    return this.held.size;
  }

  private drain(out: ReorderEvent<T>[]): void {
    for (;;) {
      const expected = this.expected as number;
      const entry = this.held.get(expected);
      if (!entry) {
        return;
      }
      this.held.delete(expected);
      out.push({ kind: 'packet', packet: entry.packet });
      this.expected = nextSequence(expected);
    }
  }

  /** Gives up the oldest gaps while the window is full or, when `now` is given, while its wait is over. */
  private expire(out: ReorderEvent<T>[], now?: number): void {
    while (this.held.size > 0) {
      const oldest = this.oldestHeld();
      const waitOver = now !== undefined && now - oldest.at >= this.maxWaitMs;
      if (this.held.size < this.maxHeld && !waitOver) {
        return;
      }
      this.skipTo(oldest.sequence, out);
      this.drain(out);
    }
  }

  private flushAll(out: ReorderEvent<T>[]): void {
    while (this.held.size > 0) {
      this.skipTo(this.oldestHeld().sequence, out);
      this.drain(out);
    }
  }

  private skipTo(sequence: number, out: ReorderEvent<T>[]): void {
    const missing = sequenceDelta(this.expected as number, sequence);
    if (missing > 0) {
      this.stats.lost += missing;
      out.push({ kind: 'lost', count: missing });
    }
    this.expected = sequence;
  }

  private oldestHeld(): { sequence: number; at: number } {
    const base = this.expected as number;
    let best: { sequence: number; at: number } | undefined;
    let bestDelta = Number.POSITIVE_INFINITY;
    for (const [sequence, entry] of this.held) {
      const delta = sequenceDelta(base, sequence);
      if (delta < bestDelta) {
        bestDelta = delta;
        best = { sequence, at: entry.at };
      }
    }
    return best as { sequence: number; at: number };
  }
}
