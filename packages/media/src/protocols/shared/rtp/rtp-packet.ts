/**
 * RTP and RTCP packets as they arrive without SRTP (RFC 3550 §5.1 fixed header with CSRCs,
 * §5.3.1 header extension and padding; §6.4.1 sender reports inside compound RTCP packets).
 * The payload is a view into the input.
 */
import { ParseError } from '../../../errors.js';

/** One RTP packet. */
export interface RtpPacket {
  readonly payloadType: number;
  readonly marker: boolean;
  readonly sequence: number;
  readonly timestamp: number;
  readonly ssrc: number;
  readonly payload: Uint8Array;
}

/** The big-endian unsigned 32-bit word at `at`. */
function word(data: Uint8Array, at: number): number {
  return (
    (data[at] as number) * 0x1000000 +
    (((data[at + 1] as number) << 16) | ((data[at + 2] as number) << 8) | (data[at + 3] as number))
  );
}

/** Parses an RTP packet; throws ParseError when it is not one. */
export function parseRtpPacket(data: Uint8Array): RtpPacket {
  if (data.byteLength < 12) {
    throw new ParseError(`RTP packet of ${data.byteLength} bytes is shorter than its header`);
  }
  const first = data[0] as number;
  if (first >> 6 !== 2) {
    throw new ParseError(`RTP version ${first >> 6}`, 0);
  }
  // Read by hand: a DataView per packet costs more than the few fields it reads.
  let start = 12 + (first & 0x0f) * 4;
  if (first & 0x10) {
    if (start + 4 > data.byteLength) {
      throw new ParseError('RTP header extension cut short', start);
    }
    start += 4 + (((data[start + 2] as number) << 8) | (data[start + 3] as number)) * 4;
  }
  let end = data.byteLength;
  if (first & 0x20) {
    end -= data[end - 1] as number;
  }
  if (start > end) {
    throw new ParseError('RTP header and padding longer than the packet', start);
  }
  const second = data[1] as number;
  return {
    payloadType: second & 0x7f,
    marker: (second & 0x80) !== 0,
    sequence: ((data[2] as number) << 8) | (data[3] as number),
    timestamp: word(data, 4),
    ssrc: word(data, 8),
    payload: data.subarray(start, end),
  };
}

/** What a sender report says: this RTP timestamp was sampled at this wall-clock time. */
export interface SenderReport {
  readonly ssrc: number;
  /** NTP time in milliseconds (since 1900). */
  readonly ntpMs: number;
  readonly rtpTimestamp: number;
}

const RTCP_SR = 200;

/** The sender reports of a compound RTCP packet (other packets skipped); throws ParseError when malformed. */
export function senderReports(data: Uint8Array): SenderReport[] {
  const reports: SenderReport[] = [];
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let at = 0;
  while (at + 4 <= data.byteLength) {
    const first = data[at] as number;
    if (first >> 6 !== 2) {
      throw new ParseError(`RTCP version ${first >> 6}`, at);
    }
    const length = (view.getUint16(at + 2) + 1) * 4;
    if (at + length > data.byteLength) {
      throw new ParseError('RTCP packet longer than its frame', at);
    }
    if (data[at + 1] === RTCP_SR && length >= 28) {
      const seconds = view.getUint32(at + 8);
      const fraction = view.getUint32(at + 12);
      reports.push({
        ssrc: view.getUint32(at + 4),
        ntpMs: seconds * 1000 + (fraction / 2 ** 32) * 1000,
        rtpTimestamp: view.getUint32(at + 16),
      });
    }
    at += length;
  }
  return reports;
}
