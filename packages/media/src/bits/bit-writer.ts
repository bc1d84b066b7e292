/**
 * MSB-first bit writer, the inverse of BitReader, with exp-Golomb codes (ITU-T H.264 §9.1).
 * Used to build headers (ADTS, AudioSpecificConfig, decoder configuration records) and test streams.
 */

/** Accumulates bits most-significant first into a growable byte buffer. */
export class BitWriter {
  private buffer = new Uint8Array(64);
  private position = 0;

  /** Number of bits written so far. */
  get bitLength(): number {
    return this.position;
  }

  /** Writes the low `n` (0..32) bits of `value`. */
  writeBits(value: number, n: number): this {
    if (!Number.isInteger(n) || n < 0 || n > 32) {
      throw new RangeError(`BitWriter.writeBits: n must be an integer 0..32, got ${n}`);
    }
    if (!Number.isInteger(value) || value < 0 || value >= 2 ** n) {
      throw new RangeError(`BitWriter.writeBits: ${value} does not fit in ${n} bits`);
    }
    this.ensure(n);
    for (let i = n - 1; i >= 0; i--) {
      const bit = Math.floor(value / 2 ** i) & 1;
      if (bit === 1) {
        const index = this.position >>> 3;
        this.buffer[index] = (this.buffer[index] ?? 0) | (0x80 >>> (this.position & 7));
      }
      this.position++;
    }
    return this;
  }

  /** Writes one bit. */
  writeBit(bit: number | boolean): this {
    return this.writeBits(bit === true || bit === 1 ? 1 : 0, 1);
  }

  /** Writes an unsigned exp-Golomb code ue(v). */
  writeUE(value: number): this {
    if (!Number.isInteger(value) || value < 0 || value > 2 ** 32 - 2) {
      throw new RangeError(`BitWriter.writeUE: ${value} out of range`);
    }
    const code = value + 1;
    let length = 0;
    while (2 ** (length + 1) <= code) {
      length++;
    }
    this.writeBits(0, length);
    if (length + 1 > 32) {
      this.writeBits(1, 1);
      return this.writeBits(code - 2 ** length, length);
    }
    return this.writeBits(code, length + 1);
  }

  /** Writes a signed exp-Golomb code se(v). */
  writeSE(value: number): this {
    return this.writeUE(value > 0 ? 2 * value - 1 : -2 * value);
  }

  /** Writes whole bytes (the writer must be byte-aligned). */
  writeBytes(bytes: Uint8Array): this {
    if ((this.position & 7) !== 0) {
      throw new RangeError('BitWriter.writeBytes: not byte-aligned');
    }
    this.ensure(bytes.length * 8);
    this.buffer.set(bytes, this.position >>> 3);
    this.position += bytes.length * 8;
    return this;
  }

  /** Pads with zero bits to the next byte boundary. */
  byteAlign(): this {
    const rest = (8 - (this.position & 7)) & 7;
    return this.writeBits(0, rest);
  }

  /** Returns the written bytes (a partial last byte is zero-padded). */
  toBytes(): Uint8Array {
    return this.buffer.slice(0, Math.ceil(this.position / 8));
  }

  private ensure(bits: number): void {
    const needed = Math.ceil((this.position + bits) / 8);
    if (needed > this.buffer.length) {
      const next = new Uint8Array(Math.max(needed, this.buffer.length * 2));
      next.set(this.buffer);
      this.buffer = next;
    }
  }
}
