/**
 * A bounds-checked cursor for sequential big-endian reads over bytes (the field widths of FLV
 * tag bodies and AMF0 values), raising ParseError that names the field on truncation.
 */
import { ParseError } from '../errors.js';

/** The error of a `field` of `what` at `offset` needing `count` bytes where only `have` remain. */
export function truncated(what: string, field: string, count: number, have: number, offset: number): ParseError {
  return new ParseError(`${what}: ${field} truncated (need ${count} bytes, have ${have})`, offset);
}

/** Sequential big-endian reads over `bytes`; `what` names the structure in errors. */
export class ByteCursor {
  private view: DataView | undefined;

  constructor(
    readonly bytes: Uint8Array,
    private readonly what: string,
    public offset = 0,
  ) {}

  /** Bytes left after the cursor. */
  get remaining(): number {
    return this.bytes.byteLength - this.offset;
  }

  /** Throws ParseError unless `count` bytes remain. */
  need(count: number, field: string): void {
    if (this.remaining < count) {
      throw truncated(this.what, field, count, this.remaining, this.offset);
    }
  }

  /** Unsigned 8 bits. */
  u8(field: string): number {
    this.need(1, field);
    const value = this.bytes[this.offset] ?? 0;
    this.offset += 1;
    return value;
  }

  /** Unsigned 16 bits. */
  u16(field: string): number {
    this.need(2, field);
    const value = ((this.bytes[this.offset] ?? 0) << 8) | (this.bytes[this.offset + 1] ?? 0);
    this.offset += 2;
    return value;
  }

  /** Unsigned 24 bits. */
  u24(field: string): number {
    this.need(3, field);
    const value = this.peekU24(this.offset);
    this.offset += 3;
    return value;
  }

  /** Unsigned 32 bits. */
  u32(field: string): number {
    this.need(4, field);
    const value = (this.bytes[this.offset] ?? 0) * 0x1000000 + this.peekU24(this.offset + 1);
    this.offset += 4;
    return value;
  }

  /** IEEE 754 double. */
  f64(field: string): number {
    this.need(8, field);
    this.view ??= new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength);
    const value = this.view.getFloat64(this.offset);
    this.offset += 8;
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

  private peekU24(at: number): number {
    return ((this.bytes[at] ?? 0) << 16) | ((this.bytes[at + 1] ?? 0) << 8) | (this.bytes[at + 2] ?? 0);
  }
}
