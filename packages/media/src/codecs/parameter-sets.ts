/**
 * 16-bit length-prefixed parameter sets as the decoder configuration records of
 * ISO/IEC 14496-15 (avcC §5.3.3.1, hvcC §8.3.3.1) store them.
 */
import { ParseError } from '../errors.js';

/** Reads a 16-bit length and that many bytes at `offset`; returns the bytes and the next offset. */
export function readU16Prefixed(data: Uint8Array, offset: number): [Uint8Array, number] {
  if (offset + 2 > data.length) {
    throw new ParseError('truncated 16-bit length', offset);
  }
  const length = ((data[offset] as number) << 8) | (data[offset + 1] as number);
  if (length === 0) {
    throw new ParseError('zero-length parameter set', offset);
  }
  const end = offset + 2 + length;
  if (end > data.length) {
    throw new ParseError(`parameter set of ${length} bytes overruns the record`, offset);
  }
  return [data.subarray(offset + 2, end), end];
}

/** Throws unless a parameter set fits a 16-bit length field; returns the length. */
export function checkU16(length: number): number {
  if (length === 0 || length > 0xffff) {
    throw new ParseError(`parameter set of ${length} bytes does not fit a 16-bit length`);
  }
  return length;
}

/** Writes each NAL with a 16-bit length at `offset`; returns the offset after them. */
export function writeU16Prefixed(out: Uint8Array, offset: number, nals: readonly Uint8Array[]): number {
  let at = offset;
  for (const nal of nals) {
    out[at] = nal.length >>> 8;
    out[at + 1] = nal.length & 0xff;
    out.set(nal, at + 2);
    at += 2 + nal.length;
  }
  return at;
}
