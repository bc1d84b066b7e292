/**
 * H.264 RTP depacketization (RFC 6184, packetization-mode 0 and 1): single NAL unit packets
 * (§5.6), STAP-A aggregation (§5.7.1) and FU-A fragmentation (§5.8) are reassembled into access
 * units, one per RTP timestamp, closed by the marker bit or a new timestamp. STAP-B, MTAP and FU-B
 * belong to the interleaved mode, which is never negotiated, and are refused. A lost packet
 * corrupts the access unit it belongs to: it is dropped, and so is every frame until the next IDR.
 */
import { concatBytes } from '../../../bits/bytes.js';
import { ParseError, UnsupportedError } from '../../../errors.js';
import { type AssembledUnit, FrameAssembler, MAX_ACCESS_UNIT_BYTES } from './frame-assembler.js';

const STAP_A = 24;
const FU_A = 28;
/** NAL types that make an access unit a random access point. */
const IDR = 5;
/** Most NAL units in one access unit. */
export const MAX_NALS_PER_ACCESS_UNIT = 1024;

/** One reassembled access unit. */
export interface H264AccessUnit extends AssembledUnit {
  /** NAL units in decoding order, without start codes or length prefixes. */
  readonly nals: readonly Uint8Array[];
  /** True when it holds an IDR slice. */
  readonly key: boolean;
}

/** Reassembles one H.264 RTP stream (packets given in sequence order). */
export class H264Depacketizer extends FrameAssembler<H264AccessUnit> {
  private nals: Uint8Array[] = [];
  private bytes = 0;
  private fragment: Uint8Array[] | undefined;
  private fragmentBytes = 0;

  protected parse(payload: Uint8Array): void {
    const header = payload[0] as number;
    if (header & 0x80) {
      throw new ParseError('H.264 NAL header has forbidden_zero_bit set', 0);
    }
    const type = header & 0x1f;
    if (type >= 1 && type <= 23) {
      this.endFragment();
      this.add(payload);
    } else if (type === STAP_A) {
      this.endFragment();
      this.parseStapA(payload);
    } else if (type === FU_A) {
      this.parseFuA(payload);
    } else if (type === 0 || type >= 30) {
      throw new ParseError(`H.264 RTP payload type ${type} is reserved`, 0);
    } else {
      throw new UnsupportedError(
        `H.264 RTP payload type ${type} (STAP-B, MTAP or FU-B) needs interleaved mode, which is not negotiated`,
      );
    }
  }

  private parseStapA(payload: Uint8Array): void {
    let offset = 1;
    if (payload.length < 3) {
      throw new ParseError('STAP-A without a NAL unit', 1);
    }
    while (offset < payload.length) {
      if (offset + 2 > payload.length) {
        throw new ParseError('STAP-A NAL size cut short', offset);
      }
      const size = ((payload[offset] as number) << 8) | (payload[offset + 1] as number);
      offset += 2;
      if (size === 0 || offset + size > payload.length) {
        throw new ParseError(`STAP-A NAL size ${size} does not fit the packet`, offset - 2);
      }
      this.add(payload.subarray(offset, offset + size));
      offset += size;
    }
  }

  private parseFuA(payload: Uint8Array): void {
    if (payload.length < 3) {
      throw new ParseError('FU-A packet shorter than its headers');
    }
    const indicator = payload[0] as number;
    const fuHeader = payload[1] as number;
    const start = (fuHeader & 0x80) !== 0;
    const end = (fuHeader & 0x40) !== 0;
    if (start && end) {
      throw new ParseError('FU-A with both start and end bits', 1);
    }
    const body = payload.subarray(2);
    if (start) {
      this.endFragment();
      this.fragment = [Uint8Array.of((indicator & 0xe0) | (fuHeader & 0x1f)), body];
      this.fragmentBytes = 1 + body.length;
    } else {
      if (!this.fragment) {
        // Its start was lost (or never sent): the NAL cannot be rebuilt.
        this.broken = true;
        return;
      }
      this.fragment.push(body);
      this.fragmentBytes += body.length;
    }
    if (this.fragmentBytes + this.bytes > MAX_ACCESS_UNIT_BYTES) {
      this.fragment = undefined;
      throw new ParseError(`H.264 access unit larger than ${MAX_ACCESS_UNIT_BYTES} bytes`);
    }
    if (end) {
      const nal = concatBytes(this.fragment);
      this.fragment = undefined;
      this.fragmentBytes = 0;
      this.add(nal);
    }
  }

  private endFragment(): void {
    if (this.fragment) {
      // A fragmented NAL never saw its end packet.
      this.fragment = undefined;
      this.fragmentBytes = 0;
      this.broken = true;
    }
  }

  private add(nal: Uint8Array): void {
    if (this.nals.length >= MAX_NALS_PER_ACCESS_UNIT) {
      throw new ParseError(`more than ${MAX_NALS_PER_ACCESS_UNIT} NAL units in one access unit`);
    }
    this.bytes += nal.length;
    if (this.bytes > MAX_ACCESS_UNIT_BYTES) {
      throw new ParseError(`H.264 access unit larger than ${MAX_ACCESS_UNIT_BYTES} bytes`);
    }
    this.nals.push(nal);
  }

  protected abandon(): void {
    this.fragment = undefined;
    this.fragmentBytes = 0;
  }

  protected take(timestamp: number): H264AccessUnit | undefined {
    this.endFragment();
    const nals = this.nals;
    this.nals = [];
    this.bytes = 0;
    if (nals.length === 0) {
      return undefined;
    }
    const key = nals.some((nal) => ((nal[0] as number) & 0x1f) === IDR);
    return { timestamp, nals, key };
  }
}
