/**
 * The sending half of an SRT live-mode connection (draft-sharabayko-srt-01 §3.1, §4.5-§4.10 from
 * the sender's side): each payload goes out at once as a solo data packet (sequence number,
 * message number, timestamp in µs since the connection's start, KK=even when encrypted with
 * AES-CTR) and is kept until acknowledged; the loss list of a NAK is sent again with the
 * retransmitted flag; a full ACK is answered with ACKACK (the receiver's RTT sample); a packet not
 * acknowledged within the drop delay is given up with a DROPREQ (too-late drop: a live stream
 * never waits). Time is passed in (µs) so tests drive it.
 */
import { cryptPayload } from './crypto.js';
import { ControlType, parseAckCif, parseLossList, writeControlPacket, writeDataPacket } from './packet.js';
import { sequenceAdd, sequenceDistance } from './sequence.js';

/** What a sender is set up with. */
export interface SenderOptions {
  /** Sequence number of the first data packet (the handshake's initial sequence number). */
  readonly initialSequence: number;
  readonly peerSocketId: number;
  /** A packet unacknowledged this long after it was first sent is given up (µs). */
  readonly dropDelayUs: number;
  /** Most packets kept for retransmission; the oldest are given up beyond it. */
  readonly bufferPackets: number;
  /** The stream key (even slot) and salt of an encrypted connection. */
  readonly key?: { readonly key: Buffer; readonly salt: Uint8Array };
  /** The packet timestamp (µs since the connection's start, 32 bits) of local time `now` (µs). */
  readonly timestamp: (now: number) => number;
  /** Sends one datagram to the peer. */
  readonly send: (bytes: Uint8Array) => void;
}

/** Counters of one sender. */
export interface SenderStats {
  packetsSent: number;
  bytesSent: number;
  packetsRetransmitted: number;
  /** Packets given up unacknowledged (drop delay passed, or the buffer was full). */
  packetsDropped: number;
  acks: number;
  naks: number;
}

interface Held {
  readonly packet: Uint8Array;
  readonly sentAt: number;
  readonly messageNumber: number;
}

/** Most message numbers (26 bits). */
const MESSAGE_MODULO = 0x4000000;
/** The retransmitted flag (R) in the second header byte's word (bit 26 of word 1 is byte 4, 0x04). */
const RETRANSMITTED_BYTE = 4;
const RETRANSMITTED_BIT = 0x04;

/** One connection's send side. */
export class SrtSender {
  readonly stats: SenderStats = {
    packetsSent: 0,
    bytesSent: 0,
    packetsRetransmitted: 0,
    packetsDropped: 0,
    acks: 0,
    naks: 0,
  };
  private nextSequence: number;
  private messageNumber = 1;
  /** Unacknowledged packets by sequence number, oldest first (insertion order). */
  private readonly held = new Map<number, Held>();

  constructor(private readonly options: SenderOptions) {
    this.nextSequence = options.initialSequence;
  }

  /** Packets sent and not yet acknowledged. */
  get unacknowledged(): number {
    return this.held.size;
  }

  /** Sends one payload (at most 1456 bytes; 1316 for MPEG-TS) at `now` (µs). */
  send(payload: Uint8Array, now: number): void {
    const sequence = this.nextSequence;
    this.nextSequence = sequenceAdd(sequence, 1);
    const messageNumber = this.messageNumber;
    this.messageNumber = (this.messageNumber % (MESSAGE_MODULO - 1)) + 1;
    const key = this.options.key;
    const packet = writeDataPacket({
      sequence,
      messageNumber,
      timestamp: this.options.timestamp(now),
      destinationSocket: this.options.peerSocketId,
      payload: key ? cryptPayload(key.key, key.salt, sequence, payload) : payload,
      keySlot: key ? 1 : 0,
    });
    this.held.set(sequence, { packet, sentAt: now, messageNumber });
    if (this.held.size > this.options.bufferPackets) {
      this.giveUp(1, now);
    }
    this.stats.packetsSent++;
    this.stats.bytesSent += payload.byteLength;
    this.options.send(packet);
  }

  /** An ACK (control info = ACK number, CIF): forgets what it acknowledges; answers ACKACK to a full one. */
  ack(ackNumber: number, cif: Uint8Array, now: number): void {
    const { lastAcknowledged } = parseAckCif(cif);
    this.stats.acks++;
    for (const sequence of this.held.keys()) {
      if (sequenceDistance(sequence, lastAcknowledged) <= 0) {
        break;
      }
      this.held.delete(sequence);
    }
    if (ackNumber !== 0) {
      this.control(ControlType.ackack, ackNumber, now);
    }
  }

  /** A NAK: the packets of its loss list still held go out again, flagged retransmitted. */
  nak(cif: Uint8Array): void {
    this.stats.naks++;
    for (const range of parseLossList(cif)) {
      const count = sequenceDistance(range.from, range.to);
      for (let i = 0; i <= count && i < this.options.bufferPackets; i++) {
        const held = this.held.get(sequenceAdd(range.from, i));
        if (held) {
          const again = held.packet.slice();
          again[RETRANSMITTED_BYTE] = (again[RETRANSMITTED_BYTE] as number) | RETRANSMITTED_BIT;
          this.stats.packetsRetransmitted++;
          this.options.send(again);
        }
      }
    }
  }

  /** Gives up what waited longer than the drop delay at `now` (µs). */
  tick(now: number): void {
    let expired = 0;
    for (const held of this.held.values()) {
      if (now - held.sentAt <= this.options.dropDelayUs) {
        break;
      }
      expired++;
    }
    if (expired > 0) {
      this.giveUp(expired, now);
    }
  }

  /** Forgets the `count` oldest packets and tells the receiver not to wait for them (DROPREQ). */
  private giveUp(count: number, now: number): void {
    let first: number | undefined;
    let last = 0;
    let messageNumber = 0;
    for (const [sequence, held] of this.held) {
      if (count-- <= 0) {
        break;
      }
      first ??= sequence;
      messageNumber = held.messageNumber;
      last = sequence;
      this.held.delete(sequence);
      this.stats.packetsDropped++;
    }
    if (first !== undefined) {
      const cif = new Uint8Array(8);
      const view = new DataView(cif.buffer);
      view.setUint32(0, first);
      view.setUint32(4, last);
      this.control(ControlType.dropRequest, messageNumber, now, cif);
    }
  }

  private control(type: number, info: number, now: number, cif?: Uint8Array): void {
    this.options.send(writeControlPacket(type, 0, info, this.options.timestamp(now), this.options.peerSocketId, cif));
  }
}
