/**
 * RTMP chunk stream reader (Adobe RTMP Specification 1.0 §5.3): basic headers with 1-3 byte
 * chunk stream ids, message headers of types 0-3, extended timestamps (also on type-3
 * continuation chunks, as ffmpeg and librtmp send them), per-chunk-stream state, Set Chunk Size
 * and Abort applied as they arrive, and limits on message size and chunk stream count.
 */
import { concatBytes } from '../../bits/bytes.js';
import { ProtocolError } from '../../errors.js';
import { MessageType, type RtmpMessage, readU32 } from './messages.js';

/** Limits of one reader. */
export interface ChunkReaderLimits {
  /** Largest message accepted, in bytes (default 8 MiB; the format allows 16 MiB). */
  readonly maxMessageSize?: number;
  /** Most chunk streams a peer may use at once (default 64). */
  readonly maxChunkStreams?: number;
}

/** Chunk size before any Set Chunk Size (§5.4.1). */
export const DEFAULT_CHUNK_SIZE = 128;
/** Largest chunk size honoured; larger announcements are clamped (a message is at most 16 MiB). */
export const MAX_CHUNK_SIZE = 0xffffff;

const MESSAGE_HEADER_SIZE = [11, 7, 3, 0] as const;
/** Longest chunk header: 3-byte basic header, 11-byte message header, 4-byte extended timestamp. */
const MAX_CHUNK_HEADER_BYTES = 18;
/** A message buffer starts this small and doubles as chunks arrive, so a header alone cannot reserve megabytes. */
const INITIAL_PAYLOAD_BYTES = 64 * 1024;

interface ChunkStreamState {
  timestamp: number;
  delta: number;
  length: number;
  typeId: number;
  streamId: number;
  extended: boolean;
  payload: Uint8Array | undefined;
  received: number;
}

/** Reassembles RTMP messages from chunks arriving in arbitrary pieces. */
export class ChunkReader {
  /** Bytes of an incomplete chunk header (at most 18). */
  private pending: Uint8Array = new Uint8Array(0);
  /** The chunk whose data is being read, and how many data bytes it still has. */
  private inChunk: { readonly csid: number; readonly state: ChunkStreamState; remaining: number } | undefined;
  private readonly streams = new Map<number, ChunkStreamState>();
  private readonly maxMessageSize: number;
  private readonly maxChunkStreams: number;
  private size = DEFAULT_CHUNK_SIZE;

  constructor(limits: ChunkReaderLimits = {}) {
    this.maxMessageSize = limits.maxMessageSize ?? 8 * 1024 * 1024;
    this.maxChunkStreams = limits.maxChunkStreams ?? 64;
  }

  /** The peer's current chunk size. */
  get chunkSize(): number {
    return this.size;
  }

  /** Feeds bytes; returns every message completed. Throws ProtocolError on a broken chunk stream. */
  push(chunk: Uint8Array): RtmpMessage[] {
    const out: RtmpMessage[] = [];
    const buf = chunk;
    let at = 0;
    if (this.pending.byteLength > 0) {
      at = this.completePendingHeader(chunk, out);
      if (at < 0) {
        return out;
      }
    }
    while (at < buf.byteLength) {
      const current = this.inChunk;
      if (current) {
        const take = Math.min(current.remaining, buf.byteLength - at);
        this.append(current.state, buf.subarray(at, at + take));
        current.remaining -= take;
        at += take;
        if (current.remaining > 0) {
          break;
        }
        this.inChunk = undefined;
        this.complete(current.csid, current.state, out);
        continue;
      }
      const next = this.readHeader(buf, at);
      if (next < 0) {
        this.pending = buf.slice(at);
        break;
      }
      at = next;
      this.completeEmptyChunk(out);
    }
    return out;
  }

  /**
   * Finishes a chunk header split across reads: joins the held bytes with only as many new bytes
   * as a header can need (not the whole read), parses it, and returns the offset in `chunk` after
   * the header, or -1 when `chunk` still did not complete it (its bytes are then held too).
   */
  private completePendingHeader(chunk: Uint8Array, out: RtmpMessage[]): number {
    const held = this.pending.byteLength;
    const joined = concatBytes([this.pending, chunk.subarray(0, MAX_CHUNK_HEADER_BYTES)]);
    this.pending = new Uint8Array(0);
    const next = this.readHeader(joined, 0);
    if (next < 0) {
      this.pending = joined;
      return -1;
    }
    this.completeEmptyChunk(out);
    return next - held;
  }

  /** A header just read starts a chunk with no data left to read (a zero-length message): completes it. */
  private completeEmptyChunk(out: RtmpMessage[]): void {
    const started = this.inChunk;
    if (started && started.remaining === 0) {
      this.inChunk = undefined;
      this.complete(started.csid, started.state, out);
    }
  }

  /** Parses one chunk header at `p`, updates the chunk stream state; returns the offset after it or -1. */
  private readHeader(buf: Uint8Array, p: number): number {
    const available = buf.byteLength - p;
    const first = buf[p] ?? 0;
    const fmt = first >> 6;
    let csid = first & 0x3f;
    let q = p + 1;
    if (csid === 0) {
      if (available < 2) {
        return -1;
      }
      csid = 64 + (buf[q] ?? 0);
      q += 1;
    } else if (csid === 1) {
      if (available < 3) {
        return -1;
      }
      csid = 64 + (buf[q] ?? 0) + (buf[q + 1] ?? 0) * 256;
      q += 2;
    }
    const headerSize = MESSAGE_HEADER_SIZE[fmt] ?? 0;
    if (buf.byteLength - q < headerSize) {
      return -1;
    }
    const state = this.streams.get(csid);
    if (fmt !== 0 && !state) {
      throw new ProtocolError(`chunk type ${fmt} on chunk stream ${csid} before any type-0 header`);
    }
    let field = 0;
    let length = state?.length ?? 0;
    let typeId = state?.typeId ?? 0;
    let streamId = state?.streamId ?? 0;
    if (fmt <= 2) {
      field = u24(buf, q);
    }
    if (fmt <= 1) {
      length = u24(buf, q + 3);
      typeId = buf[q + 6] ?? 0;
    }
    if (fmt === 0) {
      streamId = u32le(buf, q + 7);
    }
    q += headerSize;
    const extended = fmt <= 2 ? field === 0xffffff : (state?.extended ?? false);
    if (extended) {
      if (buf.byteLength - q < 4) {
        return -1;
      }
      if (fmt <= 2) {
        field = (buf[q] ?? 0) * 0x1000000 + u24(buf, q + 1);
      }
      q += 4;
    }
    const continuing = fmt === 3 && state?.payload !== undefined;
    if (!continuing && length > this.maxMessageSize) {
      throw new ProtocolError(`message of ${length} bytes on chunk stream ${csid} exceeds ${this.maxMessageSize}`);
    }
    let current = state;
    if (!current) {
      if (this.streams.size >= this.maxChunkStreams) {
        throw new ProtocolError(`peer uses more than ${this.maxChunkStreams} chunk streams`);
      }
      current = { timestamp: 0, delta: 0, length, typeId, streamId, extended, payload: undefined, received: 0 };
      this.streams.set(csid, current);
    }
    if (!continuing) {
      if (fmt === 0) {
        current.timestamp = field;
        current.delta = field;
      } else if (fmt === 3) {
        current.timestamp = (current.timestamp + current.delta) >>> 0;
      } else {
        current.delta = field;
        current.timestamp = (current.timestamp + field) >>> 0;
      }
      current.length = length;
      current.typeId = typeId;
      current.streamId = streamId;
      current.payload = new Uint8Array(Math.min(length, INITIAL_PAYLOAD_BYTES));
      current.received = 0;
    }
    current.extended = extended;
    this.inChunk = { csid, state: current, remaining: Math.min(this.size, current.length - current.received) };
    return q;
  }

  private append(state: ChunkStreamState, data: Uint8Array): void {
    let payload = state.payload ?? new Uint8Array(0);
    if (state.received + data.byteLength > payload.byteLength) {
      const grown = new Uint8Array(
        Math.min(state.length, Math.max(payload.byteLength * 2, state.received + data.byteLength)),
      );
      grown.set(payload.subarray(0, state.received));
      payload = grown;
      state.payload = grown;
    }
    payload.set(data, state.received);
    state.received += data.byteLength;
  }

  private complete(csid: number, state: ChunkStreamState, out: RtmpMessage[]): void {
    if (state.received < state.length) {
      return;
    }
    const payload = state.payload ?? new Uint8Array(0);
    state.payload = undefined;
    const message: RtmpMessage = {
      csid,
      typeId: state.typeId,
      streamId: state.streamId,
      timestamp: state.timestamp,
      payload,
    };
    this.applyControl(message);
    out.push(message);
  }

  private applyControl(message: RtmpMessage): void {
    if (message.typeId === MessageType.setChunkSize) {
      const value = readU32(message.payload);
      if (value === undefined) {
        throw new ProtocolError('Set Chunk Size message shorter than 4 bytes');
      }
      const size = value & 0x7fffffff;
      if (size < 1) {
        throw new ProtocolError('Set Chunk Size of 0');
      }
      this.size = Math.min(size, MAX_CHUNK_SIZE);
    } else if (message.typeId === MessageType.abort) {
      const target = readU32(message.payload);
      const stream = target === undefined ? undefined : this.streams.get(target);
      if (stream) {
        stream.payload = undefined;
        stream.received = 0;
      }
      if (this.inChunk && this.inChunk.csid === target) {
        this.inChunk = undefined;
      }
    }
  }
}

/** Big-endian 24-bit field at `at` (the caller checked it is there). */
function u24(buf: Uint8Array, at: number): number {
  return ((buf[at] ?? 0) << 16) | ((buf[at + 1] ?? 0) << 8) | (buf[at + 2] ?? 0);
}

/** Little-endian 32-bit field at `at` (the message stream id, §5.3.1.2.1). */
function u32le(buf: Uint8Array, at: number): number {
  return (buf[at + 3] ?? 0) * 0x1000000 + (((buf[at + 2] ?? 0) << 16) | ((buf[at + 1] ?? 0) << 8) | (buf[at] ?? 0));
}
