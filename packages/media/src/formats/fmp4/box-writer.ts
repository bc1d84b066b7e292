/**
 * ISO/IEC 14496-12 §4.2 box serialisation: a box is a 32-bit size, a four-character type and a
 * payload; a full box adds an 8-bit version and 24-bit flags. Every box this package writes goes
 * through these helpers.
 */
import { ByteWriter } from '../../bits/byte-writer.js';

/** Size of a box header without the 64-bit largesize. */
export const BOX_HEADER_SIZE = 8;

/** A box type: its four-character code, or the code's 32-bit value (fourccValue) computed once by a hot writer. */
export type BoxType = string | number;

/** Writes a big-endian box header (size, type) at `offset` and returns the offset after it. */
export function writeBoxHeader(view: DataView, offset: number, size: number, type: BoxType): number {
  view.setUint32(offset, size);
  view.setUint32(offset + 4, typeof type === 'number' ? type : fourccValue(type));
  return offset + BOX_HEADER_SIZE;
}

/** Size of a full box header: box header, version and flags. */
export const FULL_BOX_HEADER_SIZE = 12;

/** Writes a full box header (size, type, version, flags) at `offset` and returns the offset after it. */
export function writeFullBoxHeader(
  view: DataView,
  offset: number,
  size: number,
  type: BoxType,
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

/** Big-endian field writer for box payloads (ByteWriter plus four-character codes). */
export class Fields extends ByteWriter {
  /** Appends a four-character code. */
  fourcc(type: string): this {
    return this.u32(fourccValue(type));
  }
}
