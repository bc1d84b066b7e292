/**
 * AV1 RTP depacketization (RTP Payload Format for AV1, AOMedia, v1.0 §4): the aggregation header
 * (Z: the first element continues an OBU of the previous packet; Y: the last element continues
 * in the next; W: element count, each but the last length-prefixed, 0 = all length-prefixed; N:
 * a new coded video sequence starts) and its OBU elements become one temporal unit per RTP
 * timestamp, in the low-overhead bitstream format (AV1 §5.2: every OBU with a size field), as
 * the hub carries AV1. Temporal delimiters and tile-list OBUs are dropped (§5). A lost packet
 * drops its temporal unit and everything until the next key frame.
 */
import { concatBytes } from '../../../bits/bytes.js';
import { isKeyframe, OBU, readLeb128, writeLeb128 } from '../../../codecs/av1.js';
import { ParseError } from '../../../errors.js';
import { type AssembledUnit, FrameAssembler, MAX_ACCESS_UNIT_BYTES } from './frame-assembler.js';

/** Most OBUs in one temporal unit. */
export const MAX_OBUS_PER_TEMPORAL_UNIT = 1024;

/** One reassembled temporal unit. */
export interface Av1TemporalUnit extends AssembledUnit {
  /** OBUs with size fields, in decoding order. */
  readonly data: Uint8Array;
  /** True when it starts a key frame. */
  readonly key: boolean;
}

/** Reassembles one AV1 RTP stream (packets given in sequence order). */
export class Av1Depacketizer extends FrameAssembler<Av1TemporalUnit> {
  private obus: Uint8Array[] = [];
  private bytes = 0;
  private fragment: Uint8Array[] | undefined;

  protected parse(payload: Uint8Array): void {
    const header = payload[0] as number;
    const continues = (header & 0x80) !== 0;
    const willContinue = (header & 0x40) !== 0;
    const count = (header >>> 4) & 3;
    let offset = 1;
    const elements: Uint8Array[] = [];
    while (offset < payload.length) {
      const last = count !== 0 && elements.length === count - 1;
      let length = payload.length - offset;
      if (!last) {
        const leb = readLeb128(payload, offset);
        offset += leb.length;
        length = leb.value;
      }
      if (offset + length > payload.length) {
        throw new ParseError(`AV1 OBU element of ${length} bytes overruns the packet`, offset);
      }
      elements.push(payload.subarray(offset, offset + length));
      offset += length;
      if (last) {
        break;
      }
    }
    if (count !== 0 && elements.length !== count) {
      throw new ParseError(`AV1 aggregation header announces ${count} elements, the packet holds ${elements.length}`);
    }
    elements.forEach((element, index) => {
      let whole: Uint8Array[] = [element];
      if (index === 0 && continues) {
        if (!this.fragment) {
          this.broken = true;
          return;
        }
        whole = [...this.fragment, element];
        this.fragment = undefined;
      } else if (index === 0 && this.fragment) {
        // The previous packet promised a continuation that never came.
        this.fragment = undefined;
        this.broken = true;
      }
      if (index === elements.length - 1 && willContinue) {
        this.fragment = whole;
        if (whole.reduce((sum, part) => sum + part.length, 0) > MAX_ACCESS_UNIT_BYTES) {
          throw new ParseError(`AV1 OBU larger than ${MAX_ACCESS_UNIT_BYTES} bytes`);
        }
        return;
      }
      this.addObu(whole.length === 1 ? element : concatBytes(whole));
    });
  }

  private addObu(element: Uint8Array): void {
    const header = element[0];
    if (header === undefined) {
      return;
    }
    if ((header & 0x80) !== 0) {
      throw new ParseError('obu_forbidden_bit set');
    }
    const type = (header >>> 3) & 0x0f;
    if (type === OBU.temporalDelimiter || type === OBU.tileList) {
      return;
    }
    const headerBytes = (header & 0x04) !== 0 ? 2 : 1;
    if (element.length < headerBytes) {
      throw new ParseError('truncated OBU header');
    }
    let obu = element;
    if ((header & 0x02) === 0) {
      const payload = element.subarray(headerBytes);
      const size = writeLeb128(payload.length);
      obu = new Uint8Array(headerBytes + size.length + payload.length);
      obu.set(element.subarray(0, headerBytes), 0);
      obu[0] = header | 0x02;
      obu.set(size, headerBytes);
      obu.set(payload, headerBytes + size.length);
    }
    if (this.obus.length >= MAX_OBUS_PER_TEMPORAL_UNIT || this.bytes + obu.length > MAX_ACCESS_UNIT_BYTES) {
      throw new ParseError('AV1 temporal unit exceeds its limits');
    }
    this.obus.push(obu);
    this.bytes += obu.length;
  }

  protected abandon(): void {
    this.fragment = undefined;
  }

  protected take(timestamp: number): Av1TemporalUnit | undefined {
    if (this.fragment) {
      // An OBU promised to continue and never did.
      this.fragment = undefined;
      this.broken = true;
    }
    const obus = this.obus;
    this.obus = [];
    this.bytes = 0;
    if (obus.length === 0) {
      return undefined;
    }
    const data = concatBytes(obus);
    try {
      return { timestamp, data, key: isKeyframe(data) };
    } catch {
      this.broken = true;
      return undefined;
    }
  }
}
