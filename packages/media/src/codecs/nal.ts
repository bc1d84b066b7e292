/**
 * NAL unit framing shared by H.264 and H.265: Annex B byte streams (ITU-T H.264 Annex B,
 * H.265 Annex B), length-prefixed samples (ISO/IEC 14496-15 §5.3.2, §8.3.2) and emulation
 * prevention bytes (H.264 §7.4.1, H.265 §7.4.2).
 */
import { ParseError } from '../errors.js';

/** The three bytes every Annex B start code ends with. */
const START_CODE = Buffer.from([0, 0, 1]);

/**
 * Finds the NAL units of an Annex B byte stream (start codes 00 00 01 / 00 00 00 01) with the
 * native byte search: fills `ranges` with a [start, end) pair of offsets per NAL unit (start codes
 * and the zero bytes before the next one left out) and returns how many there are. Bytes before
 * the first start code are skipped; data without any start code throws ParseError (empty data
 * has no NAL units).
 */
export function annexBRanges(data: Uint8Array, ranges: number[]): number {
  ranges.length = 0;
  const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  let at = bytes.indexOf(START_CODE);
  if (at < 0) {
    if (data.length > 0) {
      throw new ParseError('no Annex B start code found', 0);
    }
    return 0;
  }
  while (at >= 0) {
    const start = at + 3;
    at = bytes.indexOf(START_CODE, start);
    let stop = at < 0 ? data.length : at;
    while (stop > start && data[stop - 1] === 0) {
      stop--;
    }
    if (stop > start) {
      ranges.push(start, stop);
    }
  }
  return ranges.length / 2;
}

/** Splits an Annex B byte stream on 00 00 01 / 00 00 00 01 start codes; returns views without start codes. */
export function splitAnnexB(data: Uint8Array): Uint8Array[] {
  const ranges: number[] = [];
  const count = annexBRanges(data, ranges);
  const nals: Uint8Array[] = new Array(count);
  for (let i = 0; i < count; i++) {
    nals[i] = data.subarray(ranges[2 * i] as number, ranges[2 * i + 1] as number);
  }
  return nals;
}

/** Splits a length-prefixed sample (AVCC/HVCC, `lengthSize` 1, 2 or 4) into NAL unit views. */
export function splitLengthPrefixed(data: Uint8Array, lengthSize = 4): Uint8Array[] {
  checkLengthSize(lengthSize);
  const nals: Uint8Array[] = [];
  let offset = 0;
  while (offset < data.length) {
    if (offset + lengthSize > data.length) {
      throw new ParseError(`truncated ${lengthSize}-byte NAL length`, offset);
    }
    let length = 0;
    for (let i = 0; i < lengthSize; i++) {
      length = length * 256 + (data[offset + i] as number);
    }
    offset += lengthSize;
    if (length === 0) {
      throw new ParseError('zero-length NAL unit', offset - lengthSize);
    }
    if (offset + length > data.length) {
      throw new ParseError(`NAL unit of ${length} bytes overruns the sample`, offset - lengthSize);
    }
    nals.push(data.subarray(offset, offset + length));
    offset += length;
  }
  return nals;
}

/** Converts a length-prefixed sample to Annex B with 4-byte start codes. */
export function toAnnexB(lengthPrefixed: Uint8Array, lengthSize = 4): Uint8Array {
  const nals = splitLengthPrefixed(lengthPrefixed, lengthSize);
  let total = 0;
  for (const nal of nals) {
    total += 4 + nal.length;
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const nal of nals) {
    out[offset + 3] = 1;
    out.set(nal, offset + 4);
    offset += 4 + nal.length;
  }
  return out;
}

/** Joins NAL units into one sample with 4-byte big-endian length prefixes. */
export function toLengthPrefixed(nals: readonly Uint8Array[]): Uint8Array {
  let total = 0;
  for (const nal of nals) {
    total += 4 + nal.length;
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const nal of nals) {
    offset = writeLengthPrefixed(out, offset, nal, 0, nal.length);
  }
  return out;
}

/** Writes `data[start, end)` as one NAL unit with its 4-byte big-endian length at `offset` of `out`; returns the offset after it. */
export function writeLengthPrefixed(
  out: Uint8Array,
  offset: number,
  data: Uint8Array,
  start: number,
  end: number,
): number {
  const length = end - start;
  out[offset] = length >>> 24;
  out[offset + 1] = (length >>> 16) & 0xff;
  out[offset + 2] = (length >>> 8) & 0xff;
  out[offset + 3] = length & 0xff;
  out.set(start === 0 && end === data.length ? data : data.subarray(start, end), offset + 4);
  return offset + 4 + length;
}

/** Removes emulation prevention bytes (00 00 03 → 00 00) to get the RBSP; returns the input when there are none. */
export function removeEmulationPrevention(nal: Uint8Array): Uint8Array {
  let zeros = 0;
  let first = -1;
  for (let i = 0; i < nal.length; i++) {
    const byte = nal[i] as number;
    if (zeros >= 2 && byte === 3) {
      first = i;
      break;
    }
    zeros = byte === 0 ? zeros + 1 : 0;
  }
  if (first < 0) {
    return nal;
  }
  const out = new Uint8Array(nal.length);
  out.set(nal.subarray(0, first));
  let length = first;
  zeros = 0;
  for (let i = first + 1; i < nal.length; i++) {
    const byte = nal[i] as number;
    if (zeros >= 2 && byte === 3) {
      zeros = 0;
      continue;
    }
    out[length++] = byte;
    zeros = byte === 0 ? zeros + 1 : 0;
  }
  return out.subarray(0, length);
}

/** Inserts emulation prevention bytes into an RBSP so it contains no start code (inverse of removeEmulationPrevention). */
export function addEmulationPrevention(rbsp: Uint8Array): Uint8Array {
  const out: number[] = [];
  let zeros = 0;
  for (const byte of rbsp) {
    if (zeros >= 2 && byte <= 3) {
      out.push(3);
      zeros = 0;
    }
    out.push(byte);
    zeros = byte === 0 ? zeros + 1 : 0;
  }
  return Uint8Array.from(out);
}

/** Throws unless `lengthSize` is a NAL length field size allowed by ISO/IEC 14496-15 (1, 2 or 4). */
export function checkLengthSize(lengthSize: number): void {
  if (lengthSize !== 1 && lengthSize !== 2 && lengthSize !== 4) {
    throw new ParseError(`NAL length size ${lengthSize} is not 1, 2 or 4`);
  }
}
