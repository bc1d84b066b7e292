/**
 * FLV file header and tag framing (Adobe Flash Video File Format Specification v10.1, Annex E.2-E.4):
 * a whole-file reader and an incremental reader that accepts bytes as they arrive.
 */
import { concatBytes } from '../../bits/bytes.js';
import { ParseError, UnsupportedError } from '../../errors.js';

/** FLV tag types (E.4.1). */
export const FlvTagType = { audio: 8, video: 9, script: 18 } as const;

/** One FLV tag type value. */
export type FlvTagTypeValue = (typeof FlvTagType)[keyof typeof FlvTagType];

/** One FLV tag: type, 32-bit millisecond timestamp and the body (the RTMP message payload). */
export interface FlvTag {
  readonly type: FlvTagTypeValue;
  /** Milliseconds, TimestampExtended as the upper 8 bits. */
  readonly timestampMs: number;
  readonly data: Uint8Array;
}

/** The FLV file header (E.2). */
export interface FlvHeader {
  readonly version: number;
  readonly hasAudio: boolean;
  readonly hasVideo: boolean;
  /** Offset of PreviousTagSize0 (usually 9). */
  readonly dataOffset: number;
}

/** Bytes of the FLV header this writer emits and the smallest one a reader accepts. */
export const FLV_HEADER_SIZE = 9;
/** Bytes of a tag header (E.4.1). */
export const FLV_TAG_HEADER_SIZE = 11;

/** Parses the 9-byte FLV header; throws ParseError when the signature or offset is wrong. */
export function parseFlvHeader(bytes: Uint8Array): FlvHeader {
  if (bytes.byteLength < FLV_HEADER_SIZE) {
    throw new ParseError(`FLV header needs ${FLV_HEADER_SIZE} bytes, have ${bytes.byteLength}`);
  }
  if (bytes[0] !== 0x46 || bytes[1] !== 0x4c || bytes[2] !== 0x56) {
    throw new ParseError('not an FLV file: signature is not "FLV"', 0);
  }
  const flags = bytes[4] ?? 0;
  const dataOffset = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(5);
  if (dataOffset < FLV_HEADER_SIZE || dataOffset > 1024) {
    throw new ParseError(`FLV header DataOffset ${dataOffset} is not valid`, 5);
  }
  return { version: bytes[3] ?? 0, hasAudio: (flags & 0x04) !== 0, hasVideo: (flags & 0x01) !== 0, dataOffset };
}

/** Options of the incremental reader. */
export interface FlvTagReaderOptions {
  /** False when the stream starts at the first tag (no header, no PreviousTagSize0). Default true. */
  readonly expectHeader?: boolean;
  /** Largest tag body accepted (default 16 MiB, the 24-bit maximum). */
  readonly maxTagSize?: number;
  /**
   * True when tag data may be views of the bytes pushed (no copy): for callers that never reuse
   * or change those bytes, such as an RTMP aggregate message. Default false (copies).
   */
  readonly views?: boolean;
}

/** Reads FLV tags from bytes that arrive in arbitrary pieces (a file, a pipe, a socket). */
export class FlvTagReader {
  private pending: Uint8Array = new Uint8Array(0);
  private consumed = 0;
  private headerState: 'header' | 'skip' | 'tags';
  private skip = 0;
  private readonly maxTagSize: number;
  private readonly views: boolean;
  /** The file header once read. */
  header: FlvHeader | undefined;

  constructor(options: FlvTagReaderOptions = {}) {
    this.headerState = options.expectHeader === false ? 'tags' : 'header';
    this.maxTagSize = options.maxTagSize ?? 0xffffff;
    this.views = options.views ?? false;
  }

  /** Appends bytes and returns every tag completed by them. */
  push(chunk: Uint8Array): FlvTag[] {
    this.pending = this.pending.byteLength === 0 ? chunk : concatBytes([this.pending, chunk]);
    const tags: FlvTag[] = [];
    let at = 0;
    for (;;) {
      const available = this.pending.byteLength - at;
      if (this.headerState === 'header') {
        if (available < FLV_HEADER_SIZE) {
          break;
        }
        this.header = parseFlvHeader(this.pending.subarray(at, at + FLV_HEADER_SIZE));
        at += FLV_HEADER_SIZE;
        this.skip = this.header.dataOffset - FLV_HEADER_SIZE + 4;
        this.headerState = 'skip';
        continue;
      }
      if (this.headerState === 'skip') {
        const step = Math.min(this.skip, available);
        at += step;
        this.skip -= step;
        if (this.skip > 0) {
          break;
        }
        this.headerState = 'tags';
        continue;
      }
      if (available < FLV_TAG_HEADER_SIZE) {
        break;
      }
      const bytes = this.pending;
      const typeByte = bytes[at] ?? 0;
      if ((typeByte & 0x20) !== 0) {
        throw new UnsupportedError('encrypted FLV tags (Filter bit set) are not supported');
      }
      const type = typeByte & 0x1f;
      if (type !== FlvTagType.audio && type !== FlvTagType.video && type !== FlvTagType.script) {
        throw new ParseError(`FLV tag type ${type} is not audio (8), video (9) or script (18)`, this.consumed + at);
      }
      const size = ((bytes[at + 1] ?? 0) << 16) | ((bytes[at + 2] ?? 0) << 8) | (bytes[at + 3] ?? 0);
      if (size > this.maxTagSize) {
        throw new ParseError(`FLV tag of ${size} bytes exceeds the ${this.maxTagSize}-byte limit`, this.consumed + at);
      }
      if (available < FLV_TAG_HEADER_SIZE + size + 4) {
        break;
      }
      // UI24 timestamp, then its extension byte as the upper 8 bits.
      const timestampMs =
        (((bytes[at + 7] ?? 0) << 24) |
          ((bytes[at + 4] ?? 0) << 16) |
          ((bytes[at + 5] ?? 0) << 8) |
          (bytes[at + 6] ?? 0)) >>>
        0;
      const start = at + FLV_TAG_HEADER_SIZE;
      const data = this.views ? bytes.subarray(start, start + size) : bytes.slice(start, start + size);
      tags.push({ type, timestampMs, data });
      at = start + size + 4;
    }
    this.consumed += at;
    this.pending = at >= this.pending.byteLength ? new Uint8Array(0) : this.pending.slice(at);
    return tags;
  }

  /** Bytes received but not yet part of a whole tag. */
  get buffered(): number {
    return this.pending.byteLength;
  }
}

/** Reads every tag of a whole FLV file; a truncated last tag is ignored, like players do. */
export function readFlvTags(bytes: Uint8Array, options: FlvTagReaderOptions = {}): FlvTag[] {
  return new FlvTagReader(options).push(bytes);
}
