/**
 * IVF, the container libvpx/libaom write for VP8/VP9/AV1 elementary streams (32-byte file header
 * "DKIF", then per frame a 12-byte header: u32le size, u64le timestamp in timebase units).
 */
import { ParseError, UnsupportedError } from '../../errors.js';

/** The IVF file header. */
export interface IvfHeader {
  /** FourCC of the codec (`VP90`, `AV01`, `VP80`). */
  readonly fourCc: string;
  readonly width: number;
  readonly height: number;
  /** Timebase numerator/denominator: a timestamp of t means t * num / den seconds. */
  readonly timebaseNum: number;
  readonly timebaseDen: number;
}

/** One frame of an IVF file. */
export interface IvfFrame {
  /** Presentation timestamp in timebase units. */
  readonly timestamp: number;
  readonly data: Uint8Array;
}

const FILE_HEADER = 32;
const FRAME_HEADER = 12;
/** Largest frame accepted (a VP9/AV1 frame of a 8K picture fits well below this). */
const MAX_FRAME = 32 * 1024 * 1024;

/** Parses a whole IVF file; ParseError on a bad header or a truncated frame. */
export function parseIvf(bytes: Uint8Array): { header: IvfHeader; frames: IvfFrame[] } {
  if (bytes.length < FILE_HEADER) {
    throw new ParseError(`IVF of ${bytes.length} bytes is shorter than its 32-byte header`, 0);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (String.fromCharCode(...bytes.subarray(0, 4)) !== 'DKIF') {
    throw new ParseError('IVF signature is not DKIF', 0);
  }
  const headerLength = view.getUint16(6, true);
  if (headerLength < FILE_HEADER || headerLength > bytes.length) {
    throw new ParseError(`IVF header length ${headerLength} is not in 32..${bytes.length}`, 6);
  }
  const header: IvfHeader = {
    fourCc: String.fromCharCode(...bytes.subarray(8, 12)),
    width: view.getUint16(12, true),
    height: view.getUint16(14, true),
    timebaseDen: view.getUint32(16, true),
    timebaseNum: view.getUint32(20, true),
  };
  if (header.timebaseDen === 0 || header.timebaseNum === 0) {
    throw new UnsupportedError(`IVF timebase ${header.timebaseNum}/${header.timebaseDen}`);
  }
  const frames: IvfFrame[] = [];
  let offset = headerLength;
  while (offset < bytes.length) {
    if (offset + FRAME_HEADER > bytes.length) {
      throw new ParseError('IVF frame header is truncated', offset);
    }
    const size = view.getUint32(offset, true);
    if (size > MAX_FRAME || offset + FRAME_HEADER + size > bytes.length) {
      throw new ParseError(`IVF frame of ${size} bytes does not fit the file`, offset);
    }
    const timestamp = view.getUint32(offset + 4, true) + view.getUint32(offset + 8, true) * 2 ** 32;
    frames.push({ timestamp, data: bytes.subarray(offset + FRAME_HEADER, offset + FRAME_HEADER + size) });
    offset += FRAME_HEADER + size;
  }
  return { header, frames };
}
