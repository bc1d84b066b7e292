/**
 * Transport stream packets of ISO/IEC 13818-1 §2.4.3.2 (Table 2-2) and adaptation fields of
 * §2.4.3.4 (Table 2-6): 188-byte packets with per-PID continuity counters, PCR,
 * random_access_indicator and stuffing, appended to a growable buffer.
 */
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

/** Accumulates transport stream packets. */
export class TsPacketWriter {
  private buffer = new Uint8Array(TS_PACKET_SIZE * 64);
  private length = 0;
  private readonly counters = new Map<number, number>();

  /** Bytes written since the last take(). */
  get size(): number {
    return this.length;
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
      const at = this.reserve();
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
        out.set(part.subarray(partOffset, partOffset + chunk), offset);
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

  /** Returns everything written so far and starts over. */
  take(): Uint8Array {
    const out = this.buffer.slice(0, this.length);
    this.length = 0;
    return out;
  }

  private nextCounter(pid: number): number {
    const counter = this.counters.get(pid) ?? 0;
    this.counters.set(pid, (counter + 1) & 0x0f);
    return counter;
  }

  private reserve(): number {
    const at = this.length;
    if (at + TS_PACKET_SIZE > this.buffer.length) {
      const grown = new Uint8Array(this.buffer.length * 2);
      grown.set(this.buffer.subarray(0, at));
      this.buffer = grown;
    }
    this.length = at + TS_PACKET_SIZE;
    return at;
  }
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
