/**
 * A bounds-checked cursor over one FLV tag body (FLV v10.1 Annex E, E-RTMP v2 field widths:
 * UI8, UI16, UI24, SI24, FOURCC), raising ParseError on truncation.
 */
import { ParseError } from '../../errors.js';
import { fourCcAt } from './flv-packet.js';

/** Sequential big-endian reads over a tag body. */
export class FlvBodyCursor {
  offset = 0;

  constructor(
    readonly bytes: Uint8Array,
    private readonly what: string,
  ) {}

  /** Bytes left after the cursor. */
  get remaining(): number {
    return this.bytes.byteLength - this.offset;
  }

  /** Throws ParseError unless `count` bytes remain. */
  need(count: number, field: string): void {
    if (this.remaining < count) {
      throw new ParseError(
        `${this.what}: ${field} truncated (need ${count} bytes, have ${this.remaining})`,
        this.offset,
      );
    }
  }

  /** UI8. */
  u8(field: string): number {
    this.need(1, field);
    const value = this.bytes[this.offset] ?? 0;
    this.offset += 1;
    return value;
  }

  /** UI16. */
  u16(field: string): number {
    this.need(2, field);
    const value = ((this.bytes[this.offset] ?? 0) << 8) | (this.bytes[this.offset + 1] ?? 0);
    this.offset += 2;
    return value;
  }

  /** UI24. */
  u24(field: string): number {
    this.need(3, field);
    const b = this.bytes;
    const value = ((b[this.offset] ?? 0) << 16) | ((b[this.offset + 1] ?? 0) << 8) | (b[this.offset + 2] ?? 0);
    this.offset += 3;
    return value;
  }

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

  /** Skips `count` bytes. */
  skip(count: number, field: string): void {
    this.need(count, field);
    this.offset += count;
  }

  /** The next `count` bytes (a view, not a copy). */
  take(count: number, field: string): Uint8Array {
    this.need(count, field);
    const out = this.bytes.subarray(this.offset, this.offset + count);
    this.offset += count;
    return out;
  }

  /** Everything after the cursor. */
  rest(): Uint8Array {
    const out = this.bytes.subarray(this.offset);
    this.offset = this.bytes.byteLength;
    return out;
  }
}
