/**
 * Transport stream packets of ISO/IEC 13818-1 §2.4.3.2 (Table 2-2) and adaptation fields of
 * §2.4.3.4 (Table 2-6): 188-byte packets with per-PID continuity counters, PCR,
 * random_access_indicator and stuffing, appended to write-once blocks.
 */
import { concatBytes } from '../../bits/bytes.js';
import { SpareBuffer } from '../../bits/spare-buffer.js';
import { wrapTimestamp } from './pes.js';

/** Size of every transport stream packet. */
export const TS_PACKET_SIZE = 188;

const SYNC_BYTE = 0x47;
const HEADER_SIZE = 4;
const PAYLOAD_SIZE = TS_PACKET_SIZE - HEADER_SIZE;
const FLAG_RANDOM_ACCESS = 0x40;
const FLAG_PCR = 0x10;
const PCR_SIZE = 6;
const STUFFING = 0xff;

/** Adaptation field contents of the first packet of a payload unit. */
export interface PacketOptions {
  /** 90 kHz PCR base (27 MHz extension 0), wrapped to 33 bits. */
  readonly pcr?: number;
  readonly randomAccess?: boolean;
}

/** Packets per block allocated when no reserve() asked for more. */
const DEFAULT_BLOCK_PACKETS = 64;
/** PIDs are 13 bits. */
const PID_COUNT = 0x2000;

/**
 * Accumulates transport stream packets in blocks that are written once and never reused, so
 * take() can hand out views instead of copies; reserve() sizes the next block (e.g. to the
 * expected segment) so what is taken usually lies in one block.
 *
 * A payload unit is written in place: beginUnit() returns where in `bytes` the caller puts the
 * unit's bytes (the tail of the room its packets take), endUnit() then moves them forward into
 * the packets, writing each packet header in front of its share. No per-packet or per-unit
 * buffer is allocated.
 */
export class TsPacketWriter {
  private buffer = new Uint8Array(TS_PACKET_SIZE * DEFAULT_BLOCK_PACKETS);
  /** Where the bytes not yet taken start in `buffer`. */
  private start = 0;
  private length = 0;
  /** Bytes not yet taken that lie in earlier, full blocks. */
  private readonly filled: Uint8Array[] = [];
  private filledBytes = 0;
  private readonly counters = new Uint8Array(PID_COUNT);
  private readonly spare = new SpareBuffer();
  /** The unit between beginUnit() and endUnit(): its byte count (0 when none is open) and first-packet fields. */
  private unitBytes = 0;
  private unitPcr = -1;
  private unitRandomAccess = false;

  /** Bytes written since the last take(). */
  get size(): number {
    return this.filledBytes + this.length - this.start;
  }

  /** The block beginUnit() offsets point into (valid until endUnit()). */
  get bytes(): Uint8Array {
    return this.buffer;
  }

  /**
   * Makes the next `bytes` bytes (rounded up to whole packets) land in one block: starts a new
   * block of that size unless the current one has the room.
   */
  reserve(bytes: number): void {
    const packets = Math.max(1, Math.ceil(bytes / TS_PACKET_SIZE));
    if (this.buffer.length - this.length < packets * TS_PACKET_SIZE) {
      this.startBlock(packets * TS_PACKET_SIZE);
    }
  }

  /**
   * Starts a block of its own for what follows (a segment), at least `bytes` long, in the spare
   * buffer when one was handed back: everything taken later starts at offset 0 of that block,
   * so a segment's buffer holds that segment only and can be handed back with `recycle`.
   */
  startOwnBlock(bytes: number): void {
    if (this.length > this.start) {
      this.filled.push(this.buffer.subarray(this.start, this.length));
      this.filledBytes += this.length - this.start;
    }
    this.buffer = this.spare.take(Math.max(DEFAULT_BLOCK_PACKETS, Math.ceil(bytes / TS_PACKET_SIZE)) * TS_PACKET_SIZE);
    this.start = 0;
    this.length = 0;
  }

  /**
   * Takes back the buffer of a segment nothing reads any more, for the next `startOwnBlock`: also
   * the current block once everything written to it was taken (the next segment then starts at
   * its offset 0).
   */
  recycle(buffer: ArrayBuffer): void {
    this.spare.give(buffer, this.start === this.length ? undefined : this.buffer.buffer);
  }

  /** Bytes of the buffer kept for the next block. */
  get spareBytes(): number {
    return this.spare.bytes;
  }

  /**
   * Opens a payload unit (a PSI section with its pointer_field, or a PES packet) of `unitBytes`
   * bytes (at least 1) and returns the offset in `bytes` where the caller writes them, all of
   * them, before endUnit(). `pcr` (90 kHz base, wrapped to 33 bits; negative for none) and
   * `randomAccess` go into the adaptation field of the first packet.
   */
  beginUnit(unitBytes: number, pcr = -1, randomAccess = false): number {
    if (!(unitBytes >= 1)) {
      throw new RangeError(`a payload unit needs at least one byte, got ${unitBytes}`);
    }
    const room = packetCount(unitBytes, pcr >= 0, randomAccess) * TS_PACKET_SIZE;
    if (this.buffer.length - this.length < room) {
      const grown = Math.ceil(this.size / 4 / TS_PACKET_SIZE) * TS_PACKET_SIZE;
      this.startBlock(Math.max(room, TS_PACKET_SIZE * DEFAULT_BLOCK_PACKETS, grown));
    }
    this.unitBytes = unitBytes;
    this.unitPcr = pcr;
    this.unitRandomAccess = randomAccess;
    return this.length + room - unitBytes;
  }

  /**
   * Packetizes the unit opened by beginUnit() on `pid`, starting a new packet with
   * payload_unit_start_indicator set; each packet takes as much as fits, only the last is stuffed.
   */
  endUnit(pid: number): void {
    const out = this.buffer;
    let remaining = this.unitBytes;
    const pcr = this.unitPcr;
    let from = this.length + packetCount(remaining, pcr >= 0, this.unitRandomAccess) * TS_PACKET_SIZE - remaining;
    let first = true;
    let at = this.length;
    let counter = this.counters[pid] as number;
    while (remaining > 0) {
      const withPcr = first && pcr >= 0;
      const randomAccess = first && this.unitRandomAccess;
      const payloadLength = Math.min(remaining, payloadCapacity(withPcr, randomAccess));
      const hasAdaptation = withPcr || randomAccess || payloadLength < PAYLOAD_SIZE;
      out[at] = SYNC_BYTE;
      out[at + 1] = (first ? 0x40 : 0) | ((pid >>> 8) & 0x1f);
      out[at + 2] = pid & 0xff;
      out[at + 3] = (hasAdaptation ? 0x30 : 0x10) | counter;
      counter = (counter + 1) & 0x0f;
      let offset = at + HEADER_SIZE;
      if (hasAdaptation) {
        const adaptationLength = PAYLOAD_SIZE - 1 - payloadLength;
        out[offset++] = adaptationLength;
        if (adaptationLength > 0) {
          const end = offset + adaptationLength;
          out[offset++] = (randomAccess ? FLAG_RANDOM_ACCESS : 0) | (withPcr ? FLAG_PCR : 0);
          if (withPcr) {
            writePcr(out, offset, pcr);
            offset += PCR_SIZE;
          }
          out.fill(STUFFING, offset, end);
          offset = end;
        }
      }
      if (offset !== from) {
        out.copyWithin(offset, from, from + payloadLength);
      }
      from += payloadLength;
      remaining -= payloadLength;
      at += TS_PACKET_SIZE;
      first = false;
    }
    this.counters[pid] = counter;
    this.length = at;
    this.unitBytes = 0;
  }

  /** Writes one payload unit given as consecutive parts (see beginUnit() and endUnit()). */
  writeUnit(pid: number, parts: readonly Uint8Array[], options?: PacketOptions): void {
    let total = 0;
    for (const part of parts) {
      total += part.length;
    }
    if (total === 0) {
      return;
    }
    let offset = this.beginUnit(total, options?.pcr ?? -1, options?.randomAccess === true);
    for (const part of parts) {
      this.buffer.set(part, offset);
      offset += part.length;
    }
    this.endUnit(pid);
  }

  /**
   * Returns everything written since the last take(): a view of the current block when it all
   * lies there (the writer never writes those bytes again), else one copy joining the blocks.
   */
  take(): Uint8Array {
    const tail = this.buffer.subarray(this.start, this.length);
    this.start = this.length;
    if (this.filled.length === 0) {
      return tail;
    }
    const out = concatBytes([...this.filled, tail]);
    this.filled.length = 0;
    this.filledBytes = 0;
    return out;
  }

  private startBlock(size: number): void {
    if (this.length > this.start) {
      this.filled.push(this.buffer.subarray(this.start, this.length));
      this.filledBytes += this.length - this.start;
    }
    this.buffer = new Uint8Array(size);
    this.start = 0;
    this.length = 0;
  }
}

/** Packets a payload unit of `unitBytes` takes when its first packet has the given adaptation fields. */
function packetCount(unitBytes: number, withPcr: boolean, randomAccess: boolean): number {
  const firstCapacity = payloadCapacity(withPcr, randomAccess);
  return unitBytes <= firstCapacity ? 1 : 1 + Math.ceil((unitBytes - firstCapacity) / PAYLOAD_SIZE);
}

/** Payload bytes of a packet whose adaptation field carries these fields (length and flags bytes, PCR). */
function payloadCapacity(withPcr: boolean, randomAccess: boolean): number {
  return withPcr ? PAYLOAD_SIZE - 2 - PCR_SIZE : randomAccess ? PAYLOAD_SIZE - 2 : PAYLOAD_SIZE;
}

/** program_clock_reference_base (33 bits), 6 reserved bits, extension (9 bits, here 0). */
function writePcr(out: Uint8Array, offset: number, pcr: number): void {
  const base = wrapTimestamp(pcr);
  const high = Math.floor(base / 2);
  out[offset] = (high >>> 24) & 0xff;
  out[offset + 1] = (high >>> 16) & 0xff;
  out[offset + 2] = (high >>> 8) & 0xff;
  out[offset + 3] = high & 0xff;
  out[offset + 4] = ((base & 1) << 7) | 0x7e;
  out[offset + 5] = 0;
}
