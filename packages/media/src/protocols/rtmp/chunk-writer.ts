/**
 * RTMP chunk stream writer (Adobe RTMP Specification 1.0 §5.3): a type-0 header per message,
 * type-3 headers for continuation chunks (repeating the extended timestamp when one is used).
 * Several messages can be cut into one buffer (`chunkMessages`) that every connection with the
 * same chunk size and message stream id can send as is (push targets of one stream).
 */
import type { RtmpMessage } from './messages.js';

/** Largest timestamp a chunk header carries without the extended field. */
export const MAX_SHORT_TIMESTAMP = 0xfffffe;

/** One message cut by `chunkMessages`: its payload is `head` followed by `data` (not concatenated). */
export interface MessageParts {
  readonly csid: number;
  readonly typeId: number;
  readonly streamId: number;
  readonly timestamp: number;
  readonly head: Uint8Array;
  readonly data: Uint8Array;
}

const EMPTY = new Uint8Array(0);

/**
 * Heads up to this long are copied byte by byte: an FLV tag head (2–9 bytes) is a small array kept
 * inside V8's heap, and `subarray` of it first moves it to a malloc'ed buffer of its own (one per
 * unit a push sends, measured in ADR 0087).
 */
const SMALL_HEAD = 16;

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
    return chunkMessages([{ ...message, head: message.payload, data: EMPTY }], this.size);
  }
}

/**
 * Serialises messages into one buffer, each a type-0 header then its chunks with type-3 headers
 * between (repeating the extended timestamp when one is used), copying each payload once. The
 * bytes depend only on the messages and the chunk size: connections that send the same messages
 * with the same chunk size can share them (push targets of one stream). `allocate` gives the
 * uninitialised buffer (a slab range for the runs a push cuts often).
 */
export function chunkMessages(
  messages: readonly MessageParts[],
  chunkSize: number,
  allocate: (size: number) => Buffer = (size) => Buffer.allocUnsafe(size),
): Buffer {
  let total = 0;
  for (const message of messages) {
    const extended = message.timestamp >>> 0 > MAX_SHORT_TIMESTAMP;
    const length = message.head.byteLength + message.data.byteLength;
    total += headerLength(message.csid, extended) + bodyLength(message.csid, length, chunkSize, extended);
  }
  const out = allocate(total);
  let p = 0;
  for (const message of messages) {
    const timestamp = message.timestamp >>> 0;
    const extended = timestamp > MAX_SHORT_TIMESTAMP;
    const length = message.head.byteLength + message.data.byteLength;
    writeHeader(out, p, message.csid, message.typeId, message.streamId, timestamp, length);
    p += headerLength(message.csid, extended);
    p = writeBody(out, p, message, chunkSize, extended ? timestamp : undefined);
  }
  return out;
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

/** Type-0 header at `at` (the extended timestamp field too, when the timestamp needs it). */
function writeHeader(
  out: Uint8Array,
  at: number,
  csid: number,
  typeId: number,
  streamId: number,
  timestamp: number,
  length: number,
): void {
  const extended = timestamp > MAX_SHORT_TIMESTAMP;
  const p = writeBasicHeader(out, at, 0, csid);
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
 * The message's payload (`head` then `data`) in chunks from `start`, type-3 headers (with
 * `extendedTimestamp` when given) between them; answers the offset after the last chunk.
 */
function writeBody(
  out: Uint8Array,
  start: number,
  message: MessageParts,
  size: number,
  extendedTimestamp: number | undefined,
): number {
  const { head, data, csid } = message;
  const length = head.byteLength + data.byteLength;
  let p = start;
  for (let offset = 0; offset < length; ) {
    if (offset > 0) {
      p = writeBasicHeader(out, p, 3, csid);
      if (extendedTimestamp !== undefined) {
        writeU32(out, p, extendedTimestamp);
        p += 4;
      }
    }
    const end = Math.min(offset + size, length);
    if (offset < head.byteLength) {
      const headEnd = Math.min(end, head.byteLength);
      if (headEnd - offset <= SMALL_HEAD) {
        // A tag head of a few bytes: a view of it would make V8 give the array its own buffer.
        for (let i = offset; i < headEnd; i++) {
          out[p++] = head[i] as number;
        }
      } else {
        out.set(head.subarray(offset, headEnd), p);
        p += headEnd - offset;
      }
    }
    if (end > head.byteLength) {
      const from = Math.max(0, offset - head.byteLength);
      out.set(data.subarray(from, end - head.byteLength), p);
      p += end - head.byteLength - from;
    }
    offset = end;
  }
  return p;
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
