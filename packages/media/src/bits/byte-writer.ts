/** A growable big-endian byte writer (ISO BMFF box payloads, AMF0 values). */

/** Appends big-endian fields to a buffer that grows as needed; every append returns the writer. */
export class ByteWriter {
  private buffer: Uint8Array;
  private view: DataView;
  private length = 0;

  /** `capacity` is the first buffer size in bytes. */
  constructor(capacity = 64) {
    this.buffer = new Uint8Array(capacity);
    this.view = new DataView(this.buffer.buffer);
  }

  /** Appends an unsigned 8-bit value. */
  u8(value: number): this {
    const at = this.reserve(1);
    this.view.setUint8(at, value);
    return this;
  }

  /** Appends an unsigned 16-bit value. */
  u16(value: number): this {
    const at = this.reserve(2);
    this.view.setUint16(at, value);
    return this;
  }

  /** Appends a signed 16-bit value. */
  i16(value: number): this {
    const at = this.reserve(2);
    this.view.setInt16(at, value);
    return this;
  }

  /** Appends an unsigned 24-bit value. */
  u24(value: number): this {
    const at = this.reserve(3);
    this.view.setUint8(at, (value >>> 16) & 0xff);
    this.view.setUint16(at + 1, value & 0xffff);
    return this;
  }

  /** Appends an unsigned 32-bit value. */
  u32(value: number): this {
    const at = this.reserve(4);
    this.view.setUint32(at, value);
    return this;
  }

  /** Appends a signed 32-bit value. */
  i32(value: number): this {
    const at = this.reserve(4);
    this.view.setInt32(at, value);
    return this;
  }

  /** Appends an unsigned 64-bit value given as a safe integer. */
  u64(value: number): this {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new RangeError(`u64 field needs a non-negative safe integer, got ${value}`);
    }
    const at = this.reserve(8);
    this.view.setBigUint64(at, BigInt(value));
    return this;
  }

  /** Appends an IEEE 754 double. */
  f64(value: number): this {
    const at = this.reserve(8);
    this.view.setFloat64(at, value);
    return this;
  }

  /** Appends `count` zero bytes. */
  zeros(count: number): this {
    this.reserve(count);
    return this;
  }

  /** Appends raw bytes. */
  raw(data: Uint8Array): this {
    const at = this.reserve(data.length);
    this.buffer.set(data, at);
    return this;
  }

  /** Returns a copy of what was written. */
  bytes(): Uint8Array {
    return this.buffer.slice(0, this.length);
  }

  private reserve(count: number): number {
    const at = this.length;
    const needed = at + count;
    if (needed > this.buffer.length) {
      const grown = new Uint8Array(Math.max(needed, this.buffer.length * 2));
      grown.set(this.buffer.subarray(0, at));
      this.buffer = grown;
      this.view = new DataView(grown.buffer);
    }
    this.length = needed;
    return at;
  }
}
