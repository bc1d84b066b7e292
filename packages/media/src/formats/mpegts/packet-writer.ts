/**
 * Transport stream packets of ISO/IEC 13818-1 §2.4.3.2 (Table 2-2) and adaptation fields of
 * §2.4.3.4 (Table 2-6): 188-byte packets with per-PID continuity counters, PCR,
 * random_access_indicator and stuffing, appended to write-once blocks.
 */
import { concatBytes } from '../../bits/bytes.js';
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

/**
 * Accumulates transport stream packets in blocks that are written once and never reused, so
 * take() can hand out views instead of copies; reserve() sizes the next block (e.g. to the
 * expected segment) so what is taken usually lies in one block.
 */
export class TsPacketWriter {
  private buffer = new Uint8Array(TS_PACKET_SIZE * DEFAULT_BLOCK_PACKETS);
  /** Where the bytes not yet taken start in `buffer`. */
  private start = 0;
  private length = 0;
  /** Bytes not yet taken that lie in earlier, full blocks. */
  private readonly filled: Uint8Array[] = [];
  private filledBytes = 0;
  private readonly counters = new Map<number, number>();

  /** Bytes written since the last take(). */
  get size(): number {
    return this.filledBytes + this.length - this.start;
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
   * Writes one payload unit (a PSI section with its pointer_field, or a PES packet) given as
   * consecutive parts, starting a new packet with payload_unit_start_indicator set.
   */
  writeUnit(pid: number, parts: readonly Uint8Array[], options: PacketOptions = {}): void {
    let remaining = 0;
    for (const part of parts) {
      remaining += part.length;
    }
    let partIndex = 0;
    let partOffset = 0;
    let first = true;
    while (remaining > 0) {
      const pcr = first ? options.pcr : undefined;
      const randomAccess = first && options.randomAccess === true;
      const minAdaptation = pcr !== undefined || randomAccess ? 1 + (pcr !== undefined ? PCR_SIZE : 0) : 0;
      const capacity = minAdaptation > 0 ? PAYLOAD_SIZE - 1 - minAdaptation : PAYLOAD_SIZE;
      const payloadLength = Math.min(remaining, capacity);
      const hasAdaptation = minAdaptation > 0 || payloadLength < PAYLOAD_SIZE;
      const at = this.nextPacket();
      const out = this.buffer;
      out[at] = SYNC_BYTE;
      out[at + 1] = (first ? 0x40 : 0) | ((pid >>> 8) & 0x1f);
      out[at + 2] = pid & 0xff;
      out[at + 3] = (hasAdaptation ? 0x30 : 0x10) | this.nextCounter(pid);
      let offset = at + HEADER_SIZE;
      if (hasAdaptation) {
        const adaptationLength = PAYLOAD_SIZE - 1 - payloadLength;
        out[offset++] = adaptationLength;
        if (adaptationLength > 0) {
          const end = offset + adaptationLength;
          out[offset++] = (randomAccess ? FLAG_RANDOM_ACCESS : 0) | (pcr !== undefined ? FLAG_PCR : 0);
          if (pcr !== undefined) {
            writePcr(out, offset, pcr);
            offset += PCR_SIZE;
          }
          out.fill(STUFFING, offset, end);
          offset = end;
        }
      }
      let toCopy = payloadLength;
      while (toCopy > 0) {
        const part = parts[partIndex] as Uint8Array;
        const chunk = Math.min(toCopy, part.length - partOffset);
        copyInto(out, offset, part, partOffset, chunk);
        offset += chunk;
        toCopy -= chunk;
        partOffset += chunk;
        if (partOffset === part.length) {
          partIndex++;
          partOffset = 0;
        }
      }
      remaining -= payloadLength;
      first = false;
    }
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

  private nextCounter(pid: number): number {
    const counter = this.counters.get(pid) ?? 0;
    this.counters.set(pid, (counter + 1) & 0x0f);
    return counter;
  }

  /** The offset of the next packet, in a new block when the current one is full. */
  private nextPacket(): number {
    if (this.length + TS_PACKET_SIZE > this.buffer.length) {
      this.startBlock(TS_PACKET_SIZE * DEFAULT_BLOCK_PACKETS);
    }
    const at = this.length;
    this.length = at + TS_PACKET_SIZE;
    return at;
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

/**
 * Copies `count` bytes of `source` from `from` to `target` at `at`: a whole part (AUD, PES and
 * ADTS headers, short NAL units) without a view; a packet's share of a larger part through a
 * view, as set() of a view (native copy) is several times faster than a byte loop.
 */
function copyInto(target: Uint8Array, at: number, source: Uint8Array, from: number, count: number): void {
  target.set(from === 0 && count === source.length ? source : source.subarray(from, from + count), at);
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
