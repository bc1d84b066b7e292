/**
 * H.264 RTP depacketization (RFC 6184, packetization-mode 0 and 1): single NAL unit packets
 * (§5.6), STAP-A aggregation (§5.7.1) and FU-A fragmentation (§5.8) are reassembled into access
 * units, one per RTP timestamp, closed by the marker bit or a new timestamp. STAP-B, MTAP and FU-B
 * belong to the interleaved mode, which is never negotiated, and are refused. A lost packet
 * corrupts the access unit it belongs to: it is dropped, and so is every frame until the next IDR.
 */
import { ParseError, UnsupportedError } from '../../../errors.js';
import type { AssembledUnit } from './frame-assembler.js';
import { NalAssembler } from './nal-assembler.js';

const STAP_A = 24;
const FU_A = 28;
/** NAL types that make an access unit a random access point. */
const IDR = 5;

/** One reassembled access unit. */
export interface H264AccessUnit extends AssembledUnit {
  /** NAL units in decoding order, without start codes or length prefixes. */
  readonly nals: readonly Uint8Array[];
  /** True when it holds an IDR slice. */
  readonly key: boolean;
}

/** Reassembles one H.264 RTP stream (packets given in sequence order). */
export class H264Depacketizer extends NalAssembler<H264AccessUnit> {
  constructor() {
    super('H.264');
  }

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
      this.addAggregated(payload, 1, 1);
    } else if (type === FU_A) {
      if (payload.length < 3) {
        throw new ParseError('FU-A packet shorter than its headers');
      }
      const fuHeader = payload[1] as number;
      const nalHeader = Uint8Array.of((header & 0xe0) | (fuHeader & 0x1f));
      this.fragmentPart((fuHeader & 0x80) !== 0, (fuHeader & 0x40) !== 0, nalHeader, payload.subarray(2));
    } else if (type === 0 || type >= 30) {
      throw new ParseError(`H.264 RTP payload type ${type} is reserved`, 0);
    } else {
      throw new UnsupportedError(
        `H.264 RTP payload type ${type} (STAP-B, MTAP or FU-B) needs interleaved mode, which is not negotiated`,
      );
    }
  }

  protected take(timestamp: number): H264AccessUnit | undefined {
    const nals = this.takeNals();
    if (nals.length === 0) {
      return undefined;
    }
    const key = nals.some((nal) => ((nal[0] as number) & 0x1f) === IDR);
    return { timestamp, nals, key };
  }
}
