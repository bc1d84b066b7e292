/**
 * MSB-first bit reader with the exp-Golomb codes of ITU-T H.264 §7.2 / §9.1 (also used by
 * H.265 §9.2). Every read past the end throws ParseError with the byte offset of the reader.
 */
import { ParseError } from '../errors.js';

/** Reads bits most-significant first from a byte array. */
export class BitReader {
  private position = 0;
  private readonly end: number;

  /** `baseOffset` is added to the offsets reported in errors (position of `data` in a larger buffer). */
  constructor(
    private readonly data: Uint8Array,
    private readonly baseOffset = 0,
  ) {
    this.end = data.length * 8;
  }

  /** Current position in bits from the start of the data. */
  get bitPosition(): number {
    return this.position;
  }

  /** Current position in whole bytes (rounded down) from the start of the data. */
  get bytePosition(): number {
    return this.position >>> 3;
  }

  /** Bits that can still be read. */
  bitsLeft(): number {
    return this.end - this.position;
  }

  /** True when the position is on a byte boundary. */
  isByteAligned(): boolean {
    return (this.position & 7) === 0;
  }

  /** Reads one bit (0 or 1). */
  readBit(): number {
    if (this.position >= this.end) {
      throw this.pastEnd(1);
    }
    const byte = this.data[this.position >>> 3] ?? 0;
    const bit = (byte >>> (7 - (this.position & 7))) & 1;
    this.position++;
    return bit;
  }

  /** Reads one bit as a boolean. */
  readFlag(): boolean {
    return this.readBit() === 1;
  }

  /** Reads `n` (0..32) bits as an unsigned number. */
  readBits(n: number): number {
    if (!Number.isInteger(n) || n < 0 || n > 32) {
      throw new Error(`BitReader.readBits: n must be an integer 0..32, got ${n}`);
    }
    if (this.position + n > this.end) {
      throw this.pastEnd(n);
    }
    let value = 0;
    let remaining = n;
    let position = this.position;
    while (remaining > 0) {
      const byte = this.data[position >>> 3] ?? 0;
      const used = position & 7;
      const take = Math.min(8 - used, remaining);
      const bits = (byte >>> (8 - used - take)) & ((1 << take) - 1);
      value = value * (1 << take) + bits;
      remaining -= take;
      position += take;
    }
    this.position = position;
    return value;
  }

  /** Skips `n` bits (n ≥ 0). */
  skipBits(n: number): void {
    if (!Number.isInteger(n) || n < 0) {
      throw new Error(`BitReader.skipBits: n must be a non-negative integer, got ${n}`);
    }
    if (this.position + n > this.end) {
      throw this.pastEnd(n);
    }
    this.position += n;
  }

  /** Skips to the next byte boundary (no-op when aligned). */
  byteAlign(): void {
    const rest = (8 - (this.position & 7)) & 7;
    if (rest > 0) {
      this.skipBits(rest);
    }
  }

  /** Reads `n` whole bytes at a byte-aligned position (a view, not a copy). */
  readBytes(n: number): Uint8Array {
    if (!this.isByteAligned()) {
      throw new ParseError('byte read at an unaligned bit position', this.baseOffset + this.bytePosition);
    }
    if (!Number.isInteger(n) || n < 0 || this.position + n * 8 > this.end) {
      throw this.pastEnd(n * 8);
    }
    const start = this.position >>> 3;
    this.position += n * 8;
    return this.data.subarray(start, start + n);
  }

  /** Reads an unsigned exp-Golomb code ue(v); values up to 2^32 - 2. */
  readUE(): number {
    const start = this.position;
    let zeros = 0;
    while (this.readBit() === 0) {
      zeros++;
      if (zeros > 31) {
        throw new ParseError('exp-Golomb code longer than 32 bits', this.baseOffset + (start >>> 3));
      }
    }
    return 2 ** zeros - 1 + this.readBits(zeros);
  }

  /** Reads a signed exp-Golomb code se(v). */
  readSE(): number {
    const k = this.readUE();
    return k % 2 === 1 ? (k + 1) / 2 : 0 - k / 2;
  }

  /** Reads ue(v) and checks it against an inclusive maximum (spec value ranges). */
  readUEMax(max: number, what: string): number {
    const at = this.position;
    const value = this.readUE();
    if (value > max) {
      throw new ParseError(`${what} = ${value} exceeds ${max}`, this.baseOffset + (at >>> 3));
    }
    return value;
  }

  /** Reads se(v) and checks it against an inclusive range. */
  readSERange(min: number, max: number, what: string): number {
    const at = this.position;
    const value = this.readSE();
    if (value < min || value > max) {
      throw new ParseError(`${what} = ${value} outside ${min}..${max}`, this.baseOffset + (at >>> 3));
    }
    return value;
  }

  /** Byte offset (including `baseOffset`) of the current position, for error messages. */
  offset(): number {
    return this.baseOffset + (this.position >>> 3);
  }

  private pastEnd(n: number): ParseError {
    return new ParseError(`read of ${n} bits past the end of ${this.data.length} bytes`, this.offset());
  }
}
