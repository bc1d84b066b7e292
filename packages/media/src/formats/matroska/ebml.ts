/**
 * EBML variable-size integers (RFC 8794 §4): element IDs keep their length marker, data sizes
 * drop it, and a size of all ones means "unknown" (a live Matroska Segment or Cluster).
 */
import { ParseError } from '../../errors.js';

/** A read variable-size integer and its length in bytes. */
export interface Vint {
  readonly value: number;
  readonly length: number;
}

/** Size value meaning "unknown size". */
export const UNKNOWN_SIZE = -1;

function widthOf(first: number, max: number, at: number): number {
  for (let width = 1; width <= max; width++) {
    if (first & (0x80 >> (width - 1))) {
      return width;
    }
  }
  throw new ParseError(`EBML variable-size integer longer than ${max} bytes`, at);
}

/** The element ID at `at` (marker kept), or undefined when the bytes end first. */
export function readElementId(bytes: Uint8Array, at: number): Vint | undefined {
  if (at >= bytes.byteLength) {
    return undefined;
  }
  const length = widthOf(bytes[at] ?? 0, 4, at);
  if (at + length > bytes.byteLength) {
    return undefined;
  }
  let value = 0;
  for (let i = 0; i < length; i++) {
    value = value * 256 + (bytes[at + i] ?? 0);
  }
  return { value, length };
}

/** The data size at `at` (UNKNOWN_SIZE for all ones), or undefined when the bytes end first. */
export function readDataSize(bytes: Uint8Array, at: number): Vint | undefined {
  if (at >= bytes.byteLength) {
    return undefined;
  }
  const first = bytes[at] ?? 0;
  const length = widthOf(first, 8, at);
  if (at + length > bytes.byteLength) {
    return undefined;
  }
  let value = first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    const byte = bytes[at + i] ?? 0;
    allOnes &&= byte === 0xff;
    value = value * 256 + byte;
  }
  if (allOnes) {
    return { value: UNKNOWN_SIZE, length };
  }
  if (!Number.isSafeInteger(value)) {
    throw new ParseError('EBML data size beyond 2^53', at);
  }
  return { value, length };
}

/** An unsigned integer element's value (0 to 8 bytes, big-endian). */
export function readUnsigned(payload: Uint8Array): number {
  if (payload.byteLength > 8) {
    throw new ParseError(`EBML unsigned integer of ${payload.byteLength} bytes`);
  }
  let value = 0;
  for (const byte of payload) {
    value = value * 256 + byte;
  }
  return value;
}

/** A float element's value (0, 4 or 8 bytes). */
export function readFloat(payload: Uint8Array): number {
  const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  if (payload.byteLength === 4) {
    return view.getFloat32(0);
  }
  if (payload.byteLength === 8) {
    return view.getFloat64(0);
  }
  if (payload.byteLength === 0) {
    return 0;
  }
  throw new ParseError(`EBML float of ${payload.byteLength} bytes`);
}
