/**
 * PES packet header of ISO/IEC 13818-1 §2.4.3.6 (Table 2-21) with PTS and optional DTS, and the
 * 33-bit 90 kHz timestamp arithmetic of §2.4.3.7.
 */

import { UnsupportedError } from '../../errors.js';

/** Timestamps of PES headers and PCR bases count modulo 2^33. */
export const TIMESTAMP_MODULO = 2 ** 33;

/** Stream ids of §2.4.3.7 Table 2-22 this muxer uses. */
export const PES_STREAM_ID = { video: 0xe0, audio: 0xc0, privateStream1: 0xbd } as const;

const MAX_PES_PACKET_LENGTH = 0xffff;

/** Wraps a (possibly negative) 90 kHz timestamp into 0..2^33-1. */
export function wrapTimestamp(value: number): number {
  const rounded = Math.round(value);
  return ((rounded % TIMESTAMP_MODULO) + TIMESTAMP_MODULO) % TIMESTAMP_MODULO;
}

/** True when a PES header for these timestamps carries a DTS (it differs from the PTS once wrapped). */
function carriesDts(pts: number, dts: number | undefined): boolean {
  return dts !== undefined && wrapTimestamp(dts) !== wrapTimestamp(pts);
}

/** Length of the PES header pesHeader() / writePesHeader() write for these timestamps: 14, or 19 with a DTS. */
export function pesHeaderLength(pts: number, dts?: number): number {
  return carriesDts(pts, dts) ? 19 : 14;
}

/**
 * Checks that a PES packet of `payloadLength` bytes can be written for `streamId`: PES_packet_length
 * is 0 (unbounded) when the packet exceeds 65535 bytes, which §2.4.3.7 allows only for video; other
 * streams get an UnsupportedError.
 */
export function checkPesLength(streamId: number, headerLength: number, payloadLength: number): void {
  const packetLength = headerLength - 6 + payloadLength;
  if (packetLength > MAX_PES_PACKET_LENGTH && streamId !== PES_STREAM_ID.video) {
    throw new UnsupportedError(`PES packet of ${packetLength} bytes exceeds 65535 on a non-video stream`);
  }
}

/**
 * Writes the PES header of pesHeader() into `out` at `offset` (pesHeaderLength() bytes, every one
 * of them set) and returns the offset after it; call checkPesLength() first.
 */
export function writePesHeader(
  out: Uint8Array,
  offset: number,
  streamId: number,
  payloadLength: number,
  pts: number,
  dts?: number,
): number {
  const withDts = carriesDts(pts, dts);
  const headerDataLength = withDts ? 10 : 5;
  const packetLength = 3 + headerDataLength + payloadLength;
  const bounded = packetLength <= MAX_PES_PACKET_LENGTH;
  out[offset] = 0;
  out[offset + 1] = 0;
  out[offset + 2] = 1;
  out[offset + 3] = streamId;
  out[offset + 4] = bounded ? packetLength >>> 8 : 0;
  out[offset + 5] = bounded ? packetLength & 0xff : 0;
  out[offset + 6] = 0x84;
  out[offset + 7] = withDts ? 0xc0 : 0x80;
  out[offset + 8] = headerDataLength;
  writeTimestamp(out, offset + 9, withDts ? 0b0011 : 0b0010, pts);
  if (withDts) {
    writeTimestamp(out, offset + 14, 0b0001, dts as number);
  }
  return offset + 9 + headerDataLength;
}

/**
 * Builds a PES header for `payloadLength` bytes with data_alignment_indicator set. `dts` is
 * written only when it differs from `pts`. PES_packet_length is 0 (unbounded) when the packet
 * exceeds 65535 bytes, which §2.4.3.7 allows only for video; other streams get an UnsupportedError.
 */
export function pesHeader(streamId: number, payloadLength: number, pts: number, dts?: number): Uint8Array {
  const out = new Uint8Array(pesHeaderLength(pts, dts));
  checkPesLength(streamId, out.length, payloadLength);
  writePesHeader(out, 0, streamId, payloadLength, pts, dts);
  return out;
}

/** Writes the 5-byte PTS/DTS field: 4-bit prefix, 33 bits split 3/15/15 with marker bits. */
function writeTimestamp(out: Uint8Array, offset: number, prefix: number, value: number): void {
  const ts = wrapTimestamp(value);
  const high = Math.floor(ts / 2 ** 30);
  const middle = Math.floor(ts / 2 ** 15) & 0x7fff;
  const low = ts & 0x7fff;
  out[offset] = (prefix << 4) | (high << 1) | 1;
  out[offset + 1] = middle >>> 7;
  out[offset + 2] = ((middle & 0x7f) << 1) | 1;
  out[offset + 3] = low >>> 7;
  out[offset + 4] = ((low & 0x7f) << 1) | 1;
}
