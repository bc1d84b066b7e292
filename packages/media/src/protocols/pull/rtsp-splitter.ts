/**
 * Splits what an RTSP server sends on its control connection (RFC 2326 §4 messages, §10.12
 * interleaved binary data) into whole items: a message is a start line and headers ended by an
 * empty line plus a Content-Length body; an interleaved frame is `$`, a channel byte, a 16-bit
 * length and the data. Sizes are bounded.
 */
import { ProtocolError } from '../../errors.js';

/** Longest message head (start line and headers). */
export const RTSP_MAX_HEAD_BYTES = 64 * 1024;
/** Largest message body (an SDP). */
export const RTSP_MAX_BODY_BYTES = 1024 * 1024;

/** One whole item and its bytes as received. */
export type RtspItem =
  | { readonly kind: 'message'; readonly head: string; readonly raw: Uint8Array }
  | { readonly kind: 'interleaved'; readonly raw: Uint8Array };

const DOLLAR = 0x24;
const latin1 = new TextDecoder('latin1');

/** Incremental splitter of one direction of an RTSP connection. */
export class RtspSplitter {
  private pending = new Uint8Array(0);

  /** Adds received bytes; returns the items they complete. Throws ProtocolError past the limits. */
  push(chunk: Uint8Array): RtspItem[] {
    let bytes = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (this.pending.byteLength > 0) {
      const joined = new Uint8Array(this.pending.byteLength + bytes.byteLength);
      joined.set(this.pending);
      joined.set(bytes, this.pending.byteLength);
      bytes = joined;
    }
    const items: RtspItem[] = [];
    let at = 0;
    while (at < bytes.byteLength) {
      const item = bytes[at] === DOLLAR ? frameAt(bytes, at) : messageAt(bytes, at);
      if (!item) {
        break;
      }
      items.push(item);
      at += item.raw.byteLength;
    }
    this.pending = bytes.slice(at);
    return items;
  }
}

function frameAt(bytes: Uint8Array, at: number): RtspItem | undefined {
  if (bytes.byteLength - at < 4) {
    return undefined;
  }
  const length = ((bytes[at + 2] ?? 0) << 8) | (bytes[at + 3] ?? 0);
  if (bytes.byteLength - at < 4 + length) {
    return undefined;
  }
  return { kind: 'interleaved', raw: bytes.subarray(at, at + 4 + length) };
}

function messageAt(bytes: Uint8Array, at: number): RtspItem | undefined {
  const limit = Math.min(bytes.byteLength, at + RTSP_MAX_HEAD_BYTES);
  let headEnd = -1;
  for (let i = at; i + 3 < limit; i++) {
    if (bytes[i] === 0x0d && bytes[i + 1] === 0x0a && bytes[i + 2] === 0x0d && bytes[i + 3] === 0x0a) {
      headEnd = i + 4;
      break;
    }
  }
  if (headEnd < 0) {
    if (bytes.byteLength - at >= RTSP_MAX_HEAD_BYTES) {
      throw new ProtocolError(`RTSP message head longer than ${RTSP_MAX_HEAD_BYTES} bytes`);
    }
    return undefined;
  }
  const head = latin1.decode(bytes.subarray(at, headEnd));
  if (!/^(RTSP\/\d\.\d [0-9]{3}|[A-Z_]+ \S+ RTSP\/\d\.\d)/.test(head)) {
    throw new ProtocolError(`not an RTSP message: ${JSON.stringify(head.slice(0, 40))}`);
  }
  const lengthHeader = /\r\ncontent-length:[ \t]*(\d+)/i.exec(head)?.[1];
  const bodyLength = lengthHeader === undefined ? 0 : Number(lengthHeader);
  if (bodyLength > RTSP_MAX_BODY_BYTES) {
    throw new ProtocolError(`RTSP message body of ${bodyLength} bytes exceeds ${RTSP_MAX_BODY_BYTES}`);
  }
  if (bytes.byteLength < headEnd + bodyLength) {
    return undefined;
  }
  return { kind: 'message', head, raw: bytes.subarray(at, headEnd + bodyLength) };
}

/** The status code of a response head, or undefined for a request. */
export function rtspStatus(head: string): number | undefined {
  const match = /^RTSP\/\d\.\d ([0-9]{3})/.exec(head);
  return match ? Number(match[1]) : undefined;
}

/** A header's value in a message head. */
export function rtspHeader(head: string, name: string): string | undefined {
  const pattern = new RegExp(`\\r\\n${name}:[ \\t]*([^\\r\\n]*)`, 'i');
  return pattern.exec(head)?.[1]?.trim();
}
