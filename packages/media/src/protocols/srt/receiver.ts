/**
 * The receiving half of an SRT live-mode connection (draft-sharabayko-srt-01 §4.5-§4.10): a
 * receive buffer indexed by sequence number, the loss list with an immediate NAK on each gap and
 * periodic NAKs (§4.8.2, every max(20 ms, (RTT + 4·RTTVar) / 2)), full ACKs every 10 ms with
 * ACKACK round-trip times (§4.10), and timestamp-based delivery (§4.5): a packet is handed on at
 * time base + timestamp + latency; a hole still open when the packet after it is due is given up
 * (too-late drop, §4.6). Time is passed in by the caller (microseconds) so tests drive it.
 */
import type { AckInfo, LossRange } from './packet.js';
import { sequenceAdd, sequenceDistance } from './sequence.js';

/** Where the receiver sends and delivers. */
export interface ReceiverOutput {
  /** A payload whose delivery time has come, in sequence order. */
  deliver(payload: Uint8Array): void;
  /** Sends a full ACK numbered `ackNumber`. */
  ack(ackNumber: number, info: AckInfo): void;
  /** Sends a NAK with these ranges. */
  nak(ranges: readonly LossRange[]): void;
}

/** Counters of one receiver. */
export interface ReceiverStats {
  packetsReceived: number;
  bytesReceived: number;
  /** Packets found missing (gaps in the sequence). */
  packetsLost: number;
  /** Packets that arrived with the retransmitted flag. */
  packetsRetransmitted: number;
  /** Missing packets given up at their delivery time. */
  packetsDropped: number;
  /** Packets that came after their place was delivered or given up. */
  packetsBelated: number;
  packetsDuplicate: number;
  /** Packets refused because the buffer was full. */
  packetsOverflow: number;
  packetsDelivered: number;
  naksSent: number;
  acksSent: number;
  /** Smoothed round-trip time and its variance, µs. */
  rttUs: number;
  rttVarianceUs: number;
}

/** Settings of a receiver. */
export interface ReceiverOptions {
  /** Sequence number of the first data packet (the caller's initial sequence number). */
  readonly initialSequence: number;
  /** Negotiated TSBPD latency, µs. */
  readonly latencyUs: number;
  /** Local time (µs) minus the sender's timestamp (µs) at the handshake. */
  readonly timeBaseUs: number;
  /** Most packets held (the flow window). */
  readonly bufferPackets: number;
}

interface Slot {
  readonly sequence: number;
  readonly deliverAt: number;
  readonly payload: Uint8Array;
}

const ACK_INTERVAL_US = 10_000;
const MIN_NAK_INTERVAL_US = 20_000;
/** A full ACK is sent at least this often even when nothing new arrived (keeps the RTT measured). */
const IDLE_ACK_INTERVAL_US = 100_000;
/** Most loss entries reported in one NAK (fits a 1500-byte datagram). */
const MAX_NAK_RANGES = 160;
const TIMESTAMP_WRAP = 2 ** 32;

/** One connection's receive side. */
export class SrtReceiver {
  readonly stats: ReceiverStats = {
    packetsReceived: 0,
    bytesReceived: 0,
    packetsLost: 0,
    packetsRetransmitted: 0,
    packetsDropped: 0,
    packetsBelated: 0,
    packetsDuplicate: 0,
    packetsOverflow: 0,
    packetsDelivered: 0,
    naksSent: 0,
    acksSent: 0,
    rttUs: 100_000,
    rttVarianceUs: 50_000,
  };
  private readonly slots: (Slot | undefined)[];
  /** The next sequence number to deliver. */
  private nextDeliver: number;
  /** One past the highest sequence number received. */
  private nextExpected: number;
  /** Missing sequence numbers → when they were last reported (µs). */
  private readonly losses = new Map<number, number>();
  private held = 0;
  private ackNumber = 0;
  private lastAckSequence = -1;
  private lastAckAt = 0;
  /** Sent full ACKs awaiting their ACKACK: number → send time (µs). */
  private readonly pendingAcks = new Map<number, number>();
  private lastPeriodicNak = 0;
  /** Timestamp unwrapping: the last unwrapped timestamp. */
  private lastTimestamp: number | undefined;
  private recentPackets = 0;
  private recentBytes = 0;
  private rateWindowStart = 0;
  private packetRate = 0;
  private byteRate = 0;

  constructor(
    private readonly options: ReceiverOptions,
    private readonly output: ReceiverOutput,
  ) {
    this.slots = new Array(options.bufferPackets);
    this.nextDeliver = options.initialSequence;
    this.nextExpected = options.initialSequence;
  }

  /** Packets held in the buffer (received, not yet delivered). */
  get bufferedPackets(): number {
    return this.held;
  }

  /** Current missing packets awaiting retransmission. */
  get lossCount(): number {
    return this.losses.size;
  }

  /** Payload bytes per second over the last second. */
  get bytesPerSecond(): number {
    return this.byteRate;
  }

  /** A data packet arrived at `now` (µs). The payload is kept (not copied). */
  receive(sequence: number, timestamp: number, retransmitted: boolean, payload: Uint8Array, now: number): void {
    const stats = this.stats;
    stats.packetsReceived++;
    stats.bytesReceived += payload.byteLength;
    this.recentPackets++;
    this.recentBytes += payload.byteLength;
    if (retransmitted) {
      stats.packetsRetransmitted++;
    }
    const offset = sequenceDistance(this.nextDeliver, sequence);
    if (offset < 0) {
      stats.packetsBelated++;
      return;
    }
    if (offset >= this.slots.length) {
      stats.packetsOverflow++;
      return;
    }
    const ahead = sequenceDistance(this.nextExpected, sequence);
    if (ahead >= 0) {
      if (ahead > 0) {
        this.lose(this.nextExpected, sequenceAdd(sequence, -1), now);
      }
      this.nextExpected = sequenceAdd(sequence, 1);
    } else {
      this.losses.delete(sequence);
    }
    const index = sequence % this.slots.length;
    if (this.slots[index] !== undefined) {
      stats.packetsDuplicate++;
      return;
    }
    this.slots[index] = { sequence, deliverAt: this.deliveryTime(timestamp), payload };
    this.held++;
  }

  /** An ACKACK for `ackNumber` arrived at `now`: one round-trip sample. */
  ackAcknowledged(ackNumber: number, now: number): void {
    const sentAt = this.pendingAcks.get(ackNumber);
    if (sentAt === undefined) {
      return;
    }
    this.pendingAcks.delete(ackNumber);
    const sample = Math.max(0, now - sentAt);
    const stats = this.stats;
    stats.rttVarianceUs = Math.round((3 * stats.rttVarianceUs + Math.abs(stats.rttUs - sample)) / 4);
    stats.rttUs = Math.round((7 * stats.rttUs + sample) / 8);
  }

  /** The sender gave up `range` (DROPREQ): stop waiting for it. */
  dropRange(range: LossRange): void {
    const count = sequenceDistance(range.from, range.to);
    if (count < 0 || count > this.slots.length) {
      return;
    }
    for (let i = 0; i <= count; i++) {
      this.losses.delete(sequenceAdd(range.from, i));
    }
  }

  /** Runs timers at `now` (µs): delivery, ACK, periodic NAK. Call every few ms. */
  tick(now: number): void {
    this.deliverDue(now);
    this.updateRates(now);
    this.sendAck(now);
    this.sendPeriodicNak(now);
  }

  /** Delivers everything held, in order, giving up the holes (the peer closed). */
  flush(): void {
    while (this.held > 0) {
      const index = this.nextDeliver % this.slots.length;
      const slot = this.slots[index];
      if (slot) {
        this.slots[index] = undefined;
        this.held--;
        this.stats.packetsDelivered++;
        this.output.deliver(slot.payload);
      } else {
        this.stats.packetsDropped++;
      }
      this.nextDeliver = sequenceAdd(this.nextDeliver, 1);
    }
    this.losses.clear();
  }

  private lose(from: number, to: number, now: number): void {
    const count = sequenceDistance(from, to) + 1;
    this.stats.packetsLost += count;
    for (let i = 0; i < count; i++) {
      this.losses.set(sequenceAdd(from, i), now);
    }
    this.stats.naksSent++;
    this.output.nak([{ from, to }]);
  }

  private deliveryTime(timestamp: number): number {
    let unwrapped = timestamp;
    if (this.lastTimestamp !== undefined) {
      const base = this.lastTimestamp - (this.lastTimestamp % TIMESTAMP_WRAP);
      unwrapped = base + timestamp;
      if (unwrapped - this.lastTimestamp > TIMESTAMP_WRAP / 2) {
        unwrapped -= TIMESTAMP_WRAP;
      } else if (this.lastTimestamp - unwrapped > TIMESTAMP_WRAP / 2) {
        unwrapped += TIMESTAMP_WRAP;
      }
    }
    if (this.lastTimestamp === undefined || unwrapped > this.lastTimestamp) {
      this.lastTimestamp = unwrapped;
    }
    return this.options.timeBaseUs + unwrapped + this.options.latencyUs;
  }

  private deliverDue(now: number): void {
    const size = this.slots.length;
    while (this.held > 0) {
      const index = this.nextDeliver % size;
      const slot = this.slots[index];
      if (slot) {
        if (slot.deliverAt > now) {
          return;
        }
        this.slots[index] = undefined;
        this.held--;
        this.stats.packetsDelivered++;
        this.nextDeliver = sequenceAdd(this.nextDeliver, 1);
        this.output.deliver(slot.payload);
        continue;
      }
      const next = this.nextHeld();
      if (next === undefined || next.deliverAt > now) {
        return;
      }
      const skipped = sequenceDistance(this.nextDeliver, next.sequence);
      this.stats.packetsDropped += skipped;
      for (let i = 0; i < skipped; i++) {
        this.losses.delete(sequenceAdd(this.nextDeliver, i));
      }
      this.nextDeliver = next.sequence;
    }
  }

  /** The first held packet after the hole at nextDeliver. */
  private nextHeld(): Slot | undefined {
    const size = this.slots.length;
    const span = sequenceDistance(this.nextDeliver, this.nextExpected);
    for (let i = 1; i < span; i++) {
      const slot = this.slots[sequenceAdd(this.nextDeliver, i) % size];
      if (slot) {
        return slot;
      }
    }
    return undefined;
  }

  private updateRates(now: number): void {
    const elapsed = now - this.rateWindowStart;
    if (elapsed >= 1_000_000) {
      this.packetRate = Math.round((this.recentPackets * 1_000_000) / elapsed);
      this.byteRate = Math.round((this.recentBytes * 1_000_000) / elapsed);
      this.recentPackets = 0;
      this.recentBytes = 0;
      this.rateWindowStart = now;
    }
  }

  /** The first sequence number not received: the oldest loss, else one past the highest. */
  private ackSequence(): number {
    let first = this.nextExpected;
    for (const sequence of this.losses.keys()) {
      if (sequenceDistance(sequence, first) > 0) {
        first = sequence;
      }
    }
    return sequenceDistance(this.nextDeliver, first) < 0 ? this.nextDeliver : first;
  }

  private sendAck(now: number): void {
    if (now - this.lastAckAt < ACK_INTERVAL_US) {
      return;
    }
    const sequence = this.ackSequence();
    if (sequence === this.lastAckSequence && now - this.lastAckAt < IDLE_ACK_INTERVAL_US) {
      return;
    }
    this.lastAckSequence = sequence;
    this.lastAckAt = now;
    this.ackNumber = (this.ackNumber + 1) >>> 0 || 1;
    this.pendingAcks.set(this.ackNumber, now);
    if (this.pendingAcks.size > 64) {
      const oldest = this.pendingAcks.keys().next().value as number;
      this.pendingAcks.delete(oldest);
    }
    this.stats.acksSent++;
    this.output.ack(this.ackNumber, {
      lastAcknowledged: sequence,
      rttUs: this.stats.rttUs,
      rttVarianceUs: this.stats.rttVarianceUs,
      availableBuffer: Math.max(2, this.slots.length - this.held),
      packetsPerSecond: this.packetRate,
      linkCapacity: this.packetRate,
      bytesPerSecond: this.byteRate,
    });
  }

  private sendPeriodicNak(now: number): void {
    if (this.losses.size === 0) {
      return;
    }
    const interval = Math.max(MIN_NAK_INTERVAL_US, this.stats.rttUs / 2);
    if (now - this.lastPeriodicNak < interval) {
      return;
    }
    this.lastPeriodicNak = now;
    const due = [...this.losses.entries()]
      .filter(([, reported]) => now - reported >= interval)
      .map(([sequence]) => sequence)
      .sort((a, b) => sequenceDistance(b, a));
    if (due.length === 0) {
      return;
    }
    const ranges: LossRange[] = [];
    for (const sequence of due) {
      const last = ranges[ranges.length - 1];
      if (last && sequenceAdd(last.to, 1) === sequence) {
        ranges[ranges.length - 1] = { from: last.from, to: sequence };
      } else if (ranges.length < MAX_NAK_RANGES) {
        ranges.push({ from: sequence, to: sequence });
      } else {
        break;
      }
      this.losses.set(sequence, now);
    }
    this.stats.naksSent++;
    this.output.nak(ranges);
  }
}
