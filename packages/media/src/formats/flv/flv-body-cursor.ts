/**
 * A bounds-checked cursor over one FLV tag body (FLV v10.1 Annex E, E-RTMP v2 field widths:
 * UI8, UI16, UI24, SI24, FOURCC), raising ParseError on truncation.
 */
import { ByteCursor } from '../../bits/byte-cursor.js';
import { fourCcAt } from './flv-packet.js';

/** Sequential big-endian reads over a tag body, with the FLV-only SI24 and FOURCC fields. */
export class FlvBodyCursor extends ByteCursor {
  /** SI24 (two's complement). */
  s24(field: string): number {
    const value = this.u24(field);
    return value & 0x800000 ? value - 0x1000000 : value;
  }

  /** FOURCC. */
  fourCc(field: string): string {
    this.need(4, field);
    const value = fourCcAt(this.bytes, this.offset);
    this.offset += 4;
    return value;
  }
}
