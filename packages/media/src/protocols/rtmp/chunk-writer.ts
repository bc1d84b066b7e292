/**
 * RTMP chunk stream writer (Adobe RTMP Specification 1.0 §5.3): a type-0 header per message,
 * type-3 headers for continuation chunks (repeating the extended timestamp when one is used).
 * A message whose timestamp needs no extended field can also be written as its type-0 header
 * plus a body (`body`) that depends only on the payload, the chunk stream id and the chunk size,
 * so one body serves every connection that sends the same payload (push targets of one stream).
 */
import type { RtmpMessage } from './messages.js';

/** Largest timestamp a chunk header carries without the extended field. */
export const MAX_SHORT_TIMESTAMP = 0xfffffe;

/** Splits messages into chunks of the current outgoing chunk size. */
export class ChunkWriter {
  private size = 128;

  /** The chunk size announced to the peer (send Set Chunk Size first, then call this). */
  set chunkSize(value: number) {
    this.size = Math.max(1, Math.min(value, 0xffffff));
  }

  /** Current outgoing chunk size. */
  get chunkSize(): number {
    return this.size;
  }

  /** Serialises one message into its chunks (one buffer). */
  write(message: RtmpMessage): Uint8Array {
    const timestamp = message.timestamp >>> 0;
    const extended = timestamp > MAX_SHORT_TIMESTAMP;
    const first = headerLength(message.csid, extended);
    const out = new Uint8Array(first + bodyLength(message.csid, message.payload.byteLength, this.size, extended));
    writeHeader(out, message.csid, message.typeId, message.streamId, timestamp, message.payload.byteLength);
    writeBody(out, first, message.csid, message.payload, this.size, extended ? timestamp : undefined);
    return out;
  }

  /** The type-0 header of a message whose timestamp is at most MAX_SHORT_TIMESTAMP; `body` follows it. */
  header(csid: number, typeId: number, streamId: number, timestamp: number, payloadLength: number): Buffer {
    const out = Buffer.allocUnsafe(headerLength(csid, false));
    writeHeader(out, csid, typeId, streamId, timestamp >>> 0, payloadLength);
    return out;
  }

  /**
   * The payload `head` + `data` cut into chunks after the first header, with type-3 headers
   * between (no extended timestamp), built with one copy of `data`.
   */
  body(csid: number, head: Uint8Array, data: Uint8Array): Buffer {
    const length = head.byteLength + data.byteLength;
    const out = Buffer.allocUnsafeSlow(bodyLength(csid, length, this.size, false));
    if (head.byteLength < this.size) {
      out.set(head);
      writeBody(out, head.byteLength, csid, data, this.size, undefined, head.byteLength);
    } else {
      writeBody(out, 0, csid, Buffer.concat([head, data]), this.size, undefined);
    }
    return out;
  }
}

function basicLength(csid: number): number {
  return csid < 64 ? 1 : csid < 320 ? 2 : 3;
}

function headerLength(csid: number, extended: boolean): number {
  return basicLength(csid) + 11 + (extended ? 4 : 0);
}

function bodyLength(csid: number, length: number, size: number, extended: boolean): number {
  const chunks = Math.max(1, Math.ceil(length / size));
  return length + (chunks - 1) * (basicLength(csid) + (extended ? 4 : 0));
}

/** Type-0 header at 0 (the extended timestamp field too, when the timestamp needs it). */
function writeHeader(
  out: Uint8Array,
  csid: number,
  typeId: number,
  streamId: number,
  timestamp: number,
  length: number,
): void {
  const extended = timestamp > MAX_SHORT_TIMESTAMP;
  const p = writeBasicHeader(out, 0, 0, csid);
  writeU24(out, p, extended ? 0xffffff : timestamp);
  writeU24(out, p + 3, length);
  out[p + 6] = typeId;
  out[p + 7] = streamId & 0xff;
  out[p + 8] = (streamId >>> 8) & 0xff;
  out[p + 9] = (streamId >>> 16) & 0xff;
  out[p + 10] = (streamId >>> 24) & 0xff;
  if (extended) {
    writeU32(out, p + 11, timestamp);
  }
}

function writeU24(out: Uint8Array, p: number, value: number): void {
  out[p] = (value >>> 16) & 0xff;
  out[p + 1] = (value >>> 8) & 0xff;
  out[p + 2] = value & 0xff;
}

function writeU32(out: Uint8Array, p: number, value: number): void {
  out[p] = (value >>> 24) & 0xff;
  writeU24(out, p + 1, value);
}

/**
 * The payload's chunks from `start`, type-3 headers (with `extendedTimestamp` when given) between
 * them; `filled` bytes of the first chunk were written already.
 */
function writeBody(
  out: Uint8Array,
  start: number,
  csid: number,
  payload: Uint8Array,
  size: number,
  extendedTimestamp: number | undefined,
  filled = 0,
): void {
  let p = start;
  for (let offset = 0; offset < payload.byteLength; ) {
    const room = offset === 0 ? size - filled : size;
    if (offset > 0) {
      p = writeBasicHeader(out, p, 3, csid);
      if (extendedTimestamp !== undefined) {
        writeU32(out, p, extendedTimestamp);
        p += 4;
      }
    }
    const end = Math.min(offset + room, payload.byteLength);
    out.set(payload.subarray(offset, end), p);
    p += end - offset;
    offset = end;
  }
}

function writeBasicHeader(out: Uint8Array, p: number, fmt: number, csid: number): number {
  if (csid < 64) {
    out[p] = (fmt << 6) | csid;
    return p + 1;
  }
  if (csid < 320) {
    out[p] = fmt << 6;
    out[p + 1] = csid - 64;
    return p + 2;
  }
  out[p] = (fmt << 6) | 1;
  out[p + 1] = (csid - 64) & 0xff;
  out[p + 2] = (csid - 64) >> 8;
  return p + 3;
}
