/**
 * H.265 RTP depacketization (RFC 7798) without decoding-order numbers (`sprop-max-don-diff` 0,
 * what cameras and encoders send): single NAL unit packets (§4.4.1), aggregation packets
 * (§4.4.2, type 48) and fragmentation units (§4.4.3, type 49) are reassembled into access units,
 * one per RTP timestamp. PACI packets (type 50) are refused. A lost or broken fragment drops its
 * access unit and every one after it until the next IRAP picture.
 */
import { isKeyframeNal } from '../../../codecs/h265.js';
import { ParseError, UnsupportedError } from '../../../errors.js';
import type { AssembledUnit } from './frame-assembler.js';
import { NalAssembler } from './nal-assembler.js';

const AP = 48;
const FU = 49;
const PACI = 50;

/** One reassembled H.265 access unit. */
export interface H265AccessUnit extends AssembledUnit {
  /** NAL units in decoding order, without start codes or length prefixes. */
  readonly nals: readonly Uint8Array[];
  /** True when it holds an IRAP picture (IDR, CRA, BLA). */
  readonly key: boolean;
}

/** Reassembles one H.265 RTP stream (packets given in sequence order). */
export class H265Depacketizer extends NalAssembler<H265AccessUnit> {
  constructor() {
    super('H.265');
  }

  protected parse(payload: Uint8Array): void {
    if (payload.length < 3) {
      throw new ParseError('H.265 RTP payload shorter than its header');
    }
    const first = payload[0] as number;
    if (first & 0x80) {
      throw new ParseError('H.265 payload header has the F bit set', 0);
    }
    const type = (first >> 1) & 0x3f;
    if (type < AP) {
      this.endFragment();
      this.add(payload);
    } else if (type === AP) {
      this.endFragment();
      this.addAggregated(payload, 2, 2);
    } else if (type === FU) {
      const header = payload[2] as number;
      const nalHeader = Uint8Array.of((first & 0x81) | ((header & 0x3f) << 1), payload[1] as number);
      this.fragmentPart((header & 0x80) !== 0, (header & 0x40) !== 0, nalHeader, payload.subarray(3));
    } else if (type === PACI) {
      throw new UnsupportedError('H.265 RTP PACI packets are not supported');
    } else {
      throw new ParseError(`H.265 RTP payload type ${type} is reserved`, 0);
    }
  }

  protected take(timestamp: number): H265AccessUnit | undefined {
    const nals = this.takeNals();
    if (nals.length === 0) {
      return undefined;
    }
    const key = nals.some((nal) => isKeyframeNal(((nal[0] as number) >> 1) & 0x3f));
    return { timestamp, nals, key };
  }
}
