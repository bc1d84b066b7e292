/**
 * 16-bit length-prefixed parameter sets as the decoder configuration records of
 * ISO/IEC 14496-15 (avcC §5.3.3.1, hvcC §8.3.3.1) store them, and what H.264 and H.265 records
 * both say about a video track.
 */
import { ParseError } from '../errors.js';

/** What an avcC or hvcC (and its first SPS) says about a video track. */
export interface ParameterSetDescription {
  readonly width: number;
  readonly height: number;
  readonly fps?: number;
  readonly codecString: string;
  readonly profile: number;
  readonly level: number;
  readonly bitDepth: number;
  readonly chromaFormatIdc: number;
  readonly lengthSize: number;
}

/** Reads `count` NAL units, each with a 16-bit length, at `offset`; returns them and the next offset. */
export function readU16PrefixedList(data: Uint8Array, offset: number, count: number): [Uint8Array[], number] {
  const nals: Uint8Array[] = [];
  let at = offset;
  for (let i = 0; i < count; i++) {
    if (at + 2 > data.length) {
      throw new ParseError('truncated 16-bit length', at);
    }
    const length = ((data[at] as number) << 8) | (data[at + 1] as number);
    if (length === 0) {
      throw new ParseError('zero-length parameter set', at);
    }
    const end = at + 2 + length;
    if (end > data.length) {
      throw new ParseError(`parameter set of ${length} bytes overruns the record`, at);
    }
    nals.push(data.subarray(at + 2, end));
    at = end;
  }
  return [nals, at];
}

/** Bytes the NAL units take with 16-bit lengths; throws unless each fits such a length. */
export function u16PrefixedSize(nals: readonly Uint8Array[]): number {
  let size = 0;
  for (const nal of nals) {
    if (nal.length === 0 || nal.length > 0xffff) {
      throw new ParseError(`parameter set of ${nal.length} bytes does not fit a 16-bit length`);
    }
    size += 2 + nal.length;
  }
  return size;
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
