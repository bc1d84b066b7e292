/** Whole byte arrays: comparison (decoder configs, init segments), concatenation and allocation. */
import { Buffer } from 'node:buffer';

/** True when `a` and `b` hold the same bytes. */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) {
    return false;
  }
  for (let i = 0; i < a.byteLength; i++) {
    if (a[i] !== b[i]) {
      return false;
    }
  }
  return true;
}

/** Concatenates byte arrays into one new array. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) {
    length += part.byteLength;
  }
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}

/**
 * `size` bytes of memory of their own, not zero-filled, as a plain Uint8Array (not a Buffer, so
 * every payload has one type). Only for memory whose every byte is written before it is read.
 */
export function uninitialisedBytes(size: number): Uint8Array {
  const memory = Buffer.allocUnsafeSlow(size);
  return new Uint8Array(memory.buffer, memory.byteOffset, size);
}
