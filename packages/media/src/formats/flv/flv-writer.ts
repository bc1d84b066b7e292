/**
 * FLV writer (Adobe Flash Video File Format Specification v10.1, Annex E.2-E.4): the file header
 * and tags with their PreviousTagSize trailer.
 */
import { FLV_HEADER_SIZE, FLV_TAG_HEADER_SIZE, type FlvTag } from './flv-tag.js';

/** The 9-byte FLV header followed by PreviousTagSize0. */
export function encodeFlvHeader(flags: { audio: boolean; video: boolean }): Uint8Array {
  const out = new Uint8Array(FLV_HEADER_SIZE + 4);
  out.set([0x46, 0x4c, 0x56, 1, (flags.audio ? 0x04 : 0) | (flags.video ? 0x01 : 0), 0, 0, 0, FLV_HEADER_SIZE]);
  return out;
}

/** One tag: 11-byte header, body and the 4-byte PreviousTagSize. */
export function encodeFlvTag(tag: FlvTag): Uint8Array {
  const size = tag.data.byteLength;
  if (size > 0xffffff) {
    throw new RangeError(`FLV tag body of ${size} bytes exceeds 16 MiB`);
  }
  const out = new Uint8Array(FLV_TAG_HEADER_SIZE + size + 4);
  const view = new DataView(out.buffer);
  const ts = tag.timestampMs >>> 0;
  view.setUint8(0, tag.type);
  view.setUint8(1, size >>> 16);
  view.setUint16(2, size & 0xffff);
  view.setUint8(4, (ts >>> 16) & 0xff);
  view.setUint16(5, ts & 0xffff);
  view.setUint8(7, ts >>> 24);
  out.set(tag.data, FLV_TAG_HEADER_SIZE);
  view.setUint32(FLV_TAG_HEADER_SIZE + size, FLV_TAG_HEADER_SIZE + size);
  return out;
}
