/**
 * Scans what an RTSP server sends on its control connection (RFC 2326 §4 messages, §10.12
 * interleaved binary data) without splitting it: each chunk is handed on whole, except a message
 * head not yet complete (held until it is) and a response that must not reach the client (the
 * scan stops before it). Interleaved frames (`$`, channel, 16-bit length, data) and message
 * bodies (Content-Length) are skipped by length, however the chunks cut them. Sizes are bounded.
 */
import { ProtocolError } from '../../errors.js';

/** Longest message head (start line and headers). */
export const RTSP_MAX_HEAD_BYTES = 64 * 1024;
/** Largest message body (an SDP). */
export const RTSP_MAX_BODY_BYTES = 1024 * 1024;

/** What one chunk yields. */
export interface RtspScan {
  /** Bytes to pass on now (a view; may be empty). */
  readonly forward: Uint8Array;
  /** A message head that stopped the scan (`forward` ends before it); nothing after it is scanned. */
  readonly stoppedAt?: string;
}

const DOLLAR = 0x24;
const latin1 = new TextDecoder('latin1');

/** Incremental scanner of one direction of an RTSP connection. */
export class RtspScanner {
  /** Bytes of an item head (frame header or message head) carried over from the last chunk. */
  private held = new Uint8Array(0);
  /** Bytes of the current frame payload or message body still to skip. */
  private skip = 0;

  /** @param stop decides whether a complete message head stops the scan (e.g. a redirect). */
  constructor(private readonly stop: (head: string) => boolean = () => false) {}

  /** Scans a chunk. Throws ProtocolError on bytes that are not RTSP or past the limits. */
  push(chunk: Uint8Array): RtspScan {
    let bytes = chunk;
    if (this.held.byteLength > 0) {
      bytes = new Uint8Array(this.held.byteLength + chunk.byteLength);
      bytes.set(this.held);
      bytes.set(chunk, this.held.byteLength);
      this.held = new Uint8Array(0);
    }
    let at = 0;
    while (at < bytes.byteLength) {
      if (this.skip > 0) {
        const step = Math.min(this.skip, bytes.byteLength - at);
        this.skip -= step;
        at += step;
        continue;
      }
      if (bytes[at] === DOLLAR) {
        if (bytes.byteLength - at < 4) {
          break;
        }
        this.skip = ((bytes[at + 2] ?? 0) << 8) | (bytes[at + 3] ?? 0);
        at += 4;
        continue;
      }
      const headEnd = findHeadEnd(bytes, at);
      if (headEnd < 0) {
        if (bytes.byteLength - at >= RTSP_MAX_HEAD_BYTES) {
          throw new ProtocolError(`RTSP message head longer than ${RTSP_MAX_HEAD_BYTES} bytes`);
        }
        break;
      }
      const head = latin1.decode(bytes.subarray(at, headEnd));
      if (!/^(RTSP\/\d\.\d [0-9]{3}|[A-Z_]+ \S+ RTSP\/\d\.\d)/.test(head)) {
        throw new ProtocolError(`not an RTSP message: ${JSON.stringify(head.slice(0, 40))}`);
      }
      if (this.stop(head)) {
        return { forward: bytes.subarray(0, at), stoppedAt: head };
      }
      const lengthHeader = /\r\ncontent-length:[ \t]*(\d+)/i.exec(head)?.[1];
      const bodyLength = lengthHeader === undefined ? 0 : Number(lengthHeader);
      if (bodyLength > RTSP_MAX_BODY_BYTES) {
        throw new ProtocolError(`RTSP message body of ${bodyLength} bytes exceeds ${RTSP_MAX_BODY_BYTES}`);
      }
      this.skip = bodyLength;
      at = headEnd;
    }
    if (at < bytes.byteLength) {
      this.held = bytes.slice(at);
    }
    return { forward: bytes.subarray(0, at) };
  }
}

/** The offset just past the CRLFCRLF ending the message head that starts at `from`, or -1 (searches at most RTSP_MAX_HEAD_BYTES). */
export function findHeadEnd(bytes: Uint8Array, from: number): number {
  const limit = Math.min(bytes.byteLength, from + RTSP_MAX_HEAD_BYTES);
  for (let i = from; i + 3 < limit; i++) {
    if (bytes[i] === 0x0d && bytes[i + 1] === 0x0a && bytes[i + 2] === 0x0d && bytes[i + 3] === 0x0a) {
      return i + 4;
    }
  }
  return -1;
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
