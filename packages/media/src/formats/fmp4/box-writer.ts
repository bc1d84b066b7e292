/**
 * ISO/IEC 14496-12 §4.2 box serialisation: a box is a 32-bit size, a four-character type and a
 * payload; a full box adds an 8-bit version and 24-bit flags. Every box this package writes goes
 * through these helpers.
 */

/** Size of a box header without the 64-bit largesize. */
export const BOX_HEADER_SIZE = 8;

/** Writes a big-endian box header (size, type) at `offset` and returns the offset after it. */
export function writeBoxHeader(view: DataView, offset: number, size: number, type: string): number {
  view.setUint32(offset, size);
  view.setUint32(offset + 4, fourccValue(type));
  return offset + BOX_HEADER_SIZE;
}

/** Size of a full box header: box header, version and flags. */
export const FULL_BOX_HEADER_SIZE = 12;

/** Writes a full box header (size, type, version, flags) at `offset` and returns the offset after it. */
export function writeFullBoxHeader(
  view: DataView,
  offset: number,
  size: number,
  type: string,
  version: number,
  flags: number,
): number {
  const at = writeBoxHeader(view, offset, size, type);
  view.setUint32(at, ((version & 0xff) << 24) | (flags & 0xffffff));
  return at + 4;
}

/** The 32-bit value of a four-character code; throws RangeError unless it is four ASCII characters. */
export function fourccValue(type: string): number {
  if (type.length !== 4) {
    throw new RangeError(`four-character code expected, got "${type}"`);
  }
  let value = 0;
  for (let i = 0; i < 4; i++) {
    const code = type.charCodeAt(i);
    if (code > 0x7f) {
      throw new RangeError(`four-character code must be ASCII, got "${type}"`);
    }
    value = value * 256 + code;
  }
  return value;
}

/** A box: header followed by the concatenated payload parts (children or fields). */
export function box(type: string, ...payload: readonly Uint8Array[]): Uint8Array {
  let size = BOX_HEADER_SIZE;
  for (const part of payload) {
    size += part.length;
  }
  if (size > 0xffffffff) {
    throw new RangeError(`box ${type} of ${size} bytes needs a largesize, which only mdat uses`);
  }
  const out = new Uint8Array(size);
  let offset = writeBoxHeader(new DataView(out.buffer, out.byteOffset, out.byteLength), 0, size, type);
  for (const part of payload) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** A full box: header, version, flags, then the payload parts. */
export function fullBox(type: string, version: number, flags: number, ...payload: readonly Uint8Array[]): Uint8Array {
  return box(type, new Fields().u8(version).u24(flags).bytes(), ...payload);
}

/** Big-endian field writer for box payloads; grows as needed. */
export class Fields {
  private buffer = new Uint8Array(64);
  private view = new DataView(this.buffer.buffer);
  private length = 0;

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

  /** Appends a four-character code. */
  fourcc(type: string): this {
    const at = this.reserve(4);
    this.view.setUint32(at, fourccValue(type));
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
