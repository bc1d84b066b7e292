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
import type { DepacketizerStats } from './h264-depacketizer.js';
import { MAX_ACCESS_UNIT_BYTES } from './h264-depacketizer.js';

/** Most OBUs in one temporal unit. */
export const MAX_OBUS_PER_TEMPORAL_UNIT = 1024;

/** One reassembled temporal unit. */
export interface Av1TemporalUnit {
  /** RTP timestamp (90 kHz). */
  readonly timestamp: number;
  /** OBUs with size fields, in decoding order. */
  readonly data: Uint8Array;
  /** True when it starts a key frame. */
  readonly key: boolean;
}

/** Reassembles one AV1 RTP stream (packets given in sequence order). */
export class Av1Depacketizer {
  readonly stats: DepacketizerStats = { units: 0, corrupted: 0, skipped: 0 };
  private timestamp: number | undefined;
  private obus: Uint8Array[] = [];
  private bytes = 0;
  private fragment: Uint8Array[] | undefined;
  private broken = false;
  private needKey = true;

  /** True while temporal units are dropped until the next key frame. */
  get waitingForKeyframe(): boolean {
    return this.needKey;
  }

  /** Adds one RTP payload; returns the temporal units it completed. Throws ParseError on a malformed payload. */
  push(payload: Uint8Array, timestamp: number, marker: boolean): Av1TemporalUnit[] {
    const out: Av1TemporalUnit[] = [];
    if (payload.length === 0) {
      return out;
    }
    if (this.timestamp !== undefined && timestamp !== this.timestamp) {
      this.finish(out);
    }
    this.timestamp = timestamp;
    try {
      this.parse(payload);
    } catch (error) {
      this.broken = true;
      this.fragment = undefined;
      if (marker) {
        this.finish(out);
      }
      throw error;
    }
    if (marker) {
      this.finish(out);
    }
    return out;
  }

  /** Packets were lost: the unit in progress cannot be decoded. */
  lost(): void {
    if (this.timestamp !== undefined) {
      this.broken = true;
    }
    this.fragment = undefined;
    this.needKey = true;
  }

  private parse(payload: Uint8Array): void {
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

  private finish(out: Av1TemporalUnit[]): void {
    const obus = this.obus;
    const timestamp = this.timestamp;
    const broken = this.broken || this.fragment !== undefined;
    this.obus = [];
    this.bytes = 0;
    this.broken = false;
    this.fragment = undefined;
    this.timestamp = undefined;
    if (timestamp === undefined) {
      return;
    }
    if (broken) {
      this.stats.corrupted++;
      this.needKey = true;
      return;
    }
    if (obus.length === 0) {
      return;
    }
    const data = concatBytes(obus);
    let key = false;
    try {
      key = isKeyframe(data);
    } catch {
      this.stats.corrupted++;
      this.needKey = true;
      return;
    }
    if (this.needKey && !key) {
      this.stats.skipped++;
      return;
    }
    this.needKey = false;
    this.stats.units++;
    out.push({ timestamp, data, key });
  }
}
