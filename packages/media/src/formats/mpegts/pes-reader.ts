/**
 * Reading PES packets of ISO/IEC 13818-1 §2.4.3.6 (Table 2-21) out of transport stream payloads:
 * reassembly per PID (bounded by PES_packet_length, or unbounded video packets ended by the next
 * payload_unit_start_indicator) and the header fields the demuxer needs (PTS, DTS of §2.4.3.7).
 */

/** The fields of one reassembled PES packet. */
export interface PesPacket {
  readonly streamId: number;
  /** 33-bit 90 kHz presentation timestamp as written, when present. */
  readonly pts: number | undefined;
  /** 33-bit 90 kHz decode timestamp as written, when present (else equal to the PTS). */
  readonly dts: number | undefined;
  /** The elementary stream bytes after the header. */
  readonly payload: Uint8Array;
}

/** Why a PES packet was not delivered. */
export type PesDropReason = 'truncated' | 'oversized' | 'bad-header' | 'scrambled';

/** Stream ids without the optional PES header (§2.4.3.7 Table 2-22: PSM, padding, private 2, ECM, EMM, DSMCC, H.222.1 E, PSD). */
const NO_OPTIONAL_HEADER = new Set([0xbc, 0xbe, 0xbf, 0xf0, 0xf1, 0xf2, 0xf8, 0xff]);

/** Reads a 5-byte PTS/DTS field (4-bit prefix, 33 bits split 3/15/15 with marker bits). */
export function readPesTimestamp(data: Uint8Array, offset: number): number {
  const high = ((data[offset] as number) >>> 1) & 0x07;
  const middle = ((data[offset + 1] as number) << 7) | ((data[offset + 2] as number) >>> 1);
  const low = ((data[offset + 3] as number) << 7) | ((data[offset + 4] as number) >>> 1);
  return high * 2 ** 30 + middle * 2 ** 15 + low;
}

/**
 * Parses a complete PES packet; returns why not for a packet that is not one (no start code,
 * header longer than the packet) or whose payload is scrambled — the caller counts it.
 */
export function parsePesPacket(data: Uint8Array): PesPacket | PesDropReason {
  if (data.length < 6 || data[0] !== 0 || data[1] !== 0 || data[2] !== 1) {
    return 'bad-header';
  }
  const streamId = data[3] as number;
  if (NO_OPTIONAL_HEADER.has(streamId)) {
    return { streamId, pts: undefined, dts: undefined, payload: data.subarray(6) };
  }
  if (data.length < 9 || ((data[6] as number) & 0xc0) !== 0x80) {
    return 'bad-header';
  }
  if (((data[6] as number) & 0x30) !== 0) {
    return 'scrambled';
  }
  const flags = (data[7] as number) >>> 6;
  const headerEnd = 9 + (data[8] as number);
  if (headerEnd > data.length || (flags >= 2 && headerEnd < 14) || (flags === 3 && headerEnd < 19) || flags === 1) {
    return 'bad-header';
  }
  const pts = flags >= 2 ? readPesTimestamp(data, 9) : undefined;
  const dts = flags === 3 ? readPesTimestamp(data, 14) : pts;
  return { streamId, pts, dts, payload: data.subarray(headerEnd) };
}

/** First size of an assembler's buffer; it grows to the largest packet seen (up to `maxBytes`). */
const INITIAL_CAPACITY = 4096;

/**
 * Gathers one PID's PES packets from transport stream payloads into one reused buffer (so the
 * caller's packets are never retained). `start()` on a payload_unit_start_indicator, `add()` for
 * the following packets; a packet is complete when its PES_packet_length is reached or, for
 * unbounded packets, when the next one starts (or `finish()` is called at the end). The bytes
 * handed to `onPacket` are valid until the next call into the assembler: keep a copy.
 */
export class PesAssembler {
  private buffer = new Uint8Array(INITIAL_CAPACITY);
  private received = 0;
  /** Total bytes of the packet (6 + PES_packet_length), 0 while unknown, -1 for unbounded. */
  private expected = 0;
  /** False after a packet completed or was dropped: continuation pieces wait for the next start. */
  private accepting = false;

  constructor(
    /** Largest PES packet accepted; a longer one is dropped as 'oversized'. */
    private readonly maxBytes: number,
    /** Called with each complete packet's bytes. */
    private readonly onPacket: (bytes: Uint8Array) => void,
    /** Called when a packet is dropped. */
    private readonly onDrop: (reason: PesDropReason) => void,
  ) {}

  /** A payload_unit_start_indicator: ends the packet in progress (complete if unbounded) and starts a new one with `data[from, to)`. */
  start(data: Uint8Array, from: number, to: number): void {
    this.finish();
    this.accepting = true;
    this.add(data, from, to);
  }

  /** Adds the continuation piece `data[from, to)`; ignored when no packet is open (its start was lost or it is complete). */
  add(data: Uint8Array, from: number, to: number): void {
    if (to <= from || !this.accepting) {
      return;
    }
    const end = this.received + (to - from);
    if (end > this.maxBytes) {
      this.drop('oversized');
      return;
    }
    if (end > this.buffer.length) {
      const grown = new Uint8Array(Math.min(this.maxBytes, Math.max(end, this.buffer.length * 2)));
      grown.set(this.buffer.subarray(0, this.received));
      this.buffer = grown;
    }
    // One native copy per piece: a JS byte loop over 184 bytes costs ~3× the view and memmove.
    this.buffer.set(data.subarray(from, to), this.received);
    this.received = end;
    if (this.expected === 0 && this.received >= 6) {
      const length = ((this.buffer[4] as number) << 8) | (this.buffer[5] as number);
      this.expected = length === 0 ? -1 : 6 + length;
    }
    if (this.expected > 0 && this.received >= this.expected) {
      this.complete(this.expected);
    }
  }

  /** Ends the packet in progress: delivered when unbounded, dropped as truncated when short. */
  finish(): void {
    if (this.received === 0) {
      this.reset();
    } else if (this.expected === -1) {
      this.complete(this.received);
    } else {
      this.drop('truncated');
    }
  }

  /** Forgets the packet in progress (after a continuity error), counting it as truncated. */
  discard(): void {
    if (this.received > 0) {
      this.drop('truncated');
    } else {
      this.reset();
    }
  }

  private complete(length: number): void {
    this.reset();
    this.onPacket(this.buffer.subarray(0, length));
  }

  private drop(reason: PesDropReason): void {
    this.reset();
    this.onDrop(reason);
  }

  private reset(): void {
    this.received = 0;
    this.expected = 0;
    this.accepting = false;
  }
}
