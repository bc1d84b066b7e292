/**
 * Reads what an RTSP server sends on the control connection (RFC 2326 §4 / RFC 7826 §8:
 * responses and server requests with their bodies; RFC 2326 §10.12 / RFC 7826 §14: interleaved
 * binary frames `$`, channel, 16-bit length, data) into whole items, however the chunks cut them.
 * Frames that sit whole in one chunk are handed on as views (no copy). Sizes are bounded; bytes
 * that are neither a frame nor an RTSP message are a ProtocolError.
 */
import { concatBytes } from '../../../bits/bytes.js';
import { ProtocolError } from '../../../errors.js';
import { findHeadEnd, RTSP_MAX_BODY_BYTES, RTSP_MAX_HEAD_BYTES } from '../rtsp-scanner.js';

/** Most header lines in one message head. */
export const RTSP_MAX_HEADERS = 256;

/** Header fields of one message (names lower-cased, repeated fields kept in order). */
export class RtspHeaders {
  private readonly fields = new Map<string, string[]>();

  /** Adds a field. */
  add(name: string, value: string): void {
    const key = name.toLowerCase();
    const list = this.fields.get(key);
    if (list) {
      list.push(value);
    } else {
      this.fields.set(key, [value]);
    }
  }

  /** The first value of a field. */
  get(name: string): string | undefined {
    return this.fields.get(name.toLowerCase())?.[0];
  }

  /** Every value of a field. */
  all(name: string): readonly string[] {
    return this.fields.get(name.toLowerCase()) ?? [];
  }
}

/** A response of the server. */
export interface RtspResponse {
  readonly kind: 'response';
  readonly status: number;
  readonly reason: string;
  readonly headers: RtspHeaders;
  readonly body: Uint8Array;
}

/** A request the server sends to the client (OPTIONS, GET_PARAMETER, ANNOUNCE, REDIRECT, …). */
export interface RtspServerRequest {
  readonly kind: 'request';
  readonly method: string;
  readonly uri: string;
  readonly headers: RtspHeaders;
  readonly body: Uint8Array;
}

/** One interleaved binary frame. */
export interface RtspFrame {
  readonly kind: 'frame';
  readonly channel: number;
  readonly data: Uint8Array;
}

/** What the reader yields. */
export type RtspItem = RtspResponse | RtspServerRequest | RtspFrame;

const DOLLAR = 0x24;
const EMPTY = new Uint8Array(0);
const latin1 = new TextDecoder('latin1');
const STATUS_LINE = /^RTSP\/(\d)\.(\d) ([0-9]{3})(?: ([^\r\n]*))?$/;
const REQUEST_LINE = /^([A-Z_]{1,32}) (\S{1,4096}) RTSP\/\d\.\d$/;

/** A message whose head is read, or a frame whose header is read, waiting for its bytes. */
interface Pending {
  readonly length: number;
  readonly parts: Uint8Array[];
  have: number;
  complete(data: Uint8Array): RtspItem;
}

/** Incremental reader of the server-to-client direction of one RTSP connection. */
export class RtspReader {
  private held: Uint8Array = EMPTY;
  private pending: Pending | undefined;

  /** Reads a chunk; returns the items it completed. Throws ProtocolError on bytes that are not RTSP. */
  push(chunk: Uint8Array): RtspItem[] {
    const out: RtspItem[] = [];
    let bytes = chunk;
    if (this.held.byteLength > 0) {
      bytes = concatBytes([this.held, chunk]);
      this.held = EMPTY;
    }
    let at = 0;
    while (at < bytes.byteLength) {
      const pending = this.pending;
      if (pending) {
        const take = Math.min(pending.length - pending.have, bytes.byteLength - at);
        pending.parts.push(bytes.subarray(at, at + take));
        pending.have += take;
        at += take;
        if (pending.have === pending.length) {
          this.pending = undefined;
          out.push(pending.complete(concatBytes(pending.parts)));
        }
        continue;
      }
      if (bytes[at] === DOLLAR) {
        if (bytes.byteLength - at < 4) {
          break;
        }
        const channel = bytes[at + 1] as number;
        const length = ((bytes[at + 2] as number) << 8) | (bytes[at + 3] as number);
        at += 4;
        if (at + length <= bytes.byteLength) {
          // The common case, a whole frame in the chunk: no completion closure.
          out.push({ kind: 'frame', channel, data: bytes.subarray(at, at + length) });
          at += length;
        } else {
          at = this.body(bytes, at, length, (data) => ({ kind: 'frame', channel, data }), out);
        }
        continue;
      }
      const headEnd = findHeadEnd(bytes, at);
      if (headEnd < 0) {
        if (bytes.byteLength - at >= RTSP_MAX_HEAD_BYTES) {
          throw new ProtocolError(`RTSP message head longer than ${RTSP_MAX_HEAD_BYTES} bytes`);
        }
        if (!couldStartMessage(bytes, at)) {
          throw new ProtocolError(`not RTSP: ${JSON.stringify(latin1.decode(bytes.subarray(at, at + 16)))}`);
        }
        break;
      }
      const head = parseHead(latin1.decode(bytes.subarray(at, headEnd - 4)));
      at = this.body(bytes, headEnd, head.bodyLength, head.complete, out);
    }
    if (at < bytes.byteLength) {
      this.held = bytes.slice(at);
    }
    return out;
  }

  /** Takes `length` bytes from `at` (or starts waiting for them); returns the new offset. */
  private body(
    bytes: Uint8Array,
    at: number,
    length: number,
    complete: (data: Uint8Array) => RtspItem,
    out: RtspItem[],
  ): number {
    if (at + length <= bytes.byteLength) {
      out.push(complete(bytes.subarray(at, at + length)));
      return at + length;
    }
    const part = bytes.subarray(at);
    this.pending = { length, parts: [part], have: part.byteLength, complete };
    return bytes.byteLength;
  }
}

/** Whether the bytes from `at` can still become an RTSP start line (`RTSP/` or an upper-case method). */
function couldStartMessage(bytes: Uint8Array, at: number): boolean {
  const first = bytes[at] as number;
  return first >= 0x41 && first <= 0x5a;
}

function parseHead(text: string): { bodyLength: number; complete: (data: Uint8Array) => RtspItem } {
  const lines = text.split('\r\n');
  const start = lines[0] ?? '';
  if (lines.length > RTSP_MAX_HEADERS + 1) {
    throw new ProtocolError(`RTSP message with more than ${RTSP_MAX_HEADERS} header lines`);
  }
  const headers = new RtspHeaders();
  let last: { name: string; value: string } | undefined;
  const flush = (): void => {
    if (last) {
      headers.add(last.name, last.value.trim());
    }
  };
  for (const line of lines.slice(1)) {
    if ((line.startsWith(' ') || line.startsWith('\t')) && last) {
      last.value += ` ${line.trim()}`;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) {
      throw new ProtocolError(`RTSP header line without a name: ${JSON.stringify(line.slice(0, 40))}`);
    }
    flush();
    last = { name: line.slice(0, colon).trim(), value: line.slice(colon + 1) };
  }
  flush();
  const lengthText = headers.get('content-length');
  const bodyLength = lengthText === undefined ? 0 : Number(lengthText);
  if (!Number.isInteger(bodyLength) || bodyLength < 0 || !/^\d+$/.test(lengthText ?? '0')) {
    throw new ProtocolError(`RTSP Content-Length ${JSON.stringify(lengthText)} is not a number`);
  }
  if (bodyLength > RTSP_MAX_BODY_BYTES) {
    throw new ProtocolError(`RTSP message body of ${bodyLength} bytes exceeds ${RTSP_MAX_BODY_BYTES}`);
  }
  const status = STATUS_LINE.exec(start);
  if (status) {
    const code = Number(status[3]);
    const reason = status[4] ?? '';
    return { bodyLength, complete: (body) => ({ kind: 'response', status: code, reason, headers, body }) };
  }
  const request = REQUEST_LINE.exec(start);
  if (request) {
    const method = request[1] as string;
    const uri = request[2] as string;
    return { bodyLength, complete: (body) => ({ kind: 'request', method, uri, headers, body }) };
  }
  throw new ProtocolError(`not an RTSP message: ${JSON.stringify(start.slice(0, 40))}`);
}
