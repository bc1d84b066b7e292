/**
 * RTMP chunk stream reader (Adobe RTMP Specification 1.0 §5.3): basic headers with 1-3 byte
 * chunk stream ids, message headers of types 0-3, extended timestamps (also on type-3
 * continuation chunks, as ffmpeg and librtmp send them), per-chunk-stream state, Set Chunk Size
 * and Abort applied as they arrive, and limits on message size and chunk stream count.
 *
 * Cost per message is kept low: every message is copied out of the read (so the caller may reuse
 * its read memory) into a slab of uninitialised memory shared by the messages of a few hundred
 * milliseconds (one ArrayBuffer per slab, not one per message), or into a buffer of its own when
 * large (uninitialised too: a message is handed out only once all of its bytes were written);
 * chunk state lives in fields, not in an object per chunk.
 */
import { concatBytes, uninitialisedBytes } from '../../bits/bytes.js';
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
/**
 * Size of a slab that reassembled audio/video messages are copied into: below glibc's mmap
 * threshold (128 KiB), so a slab comes from the heap instead of fresh mmap'ed pages that fault on
 * first write and cost a syscall pair each.
 */
const SLAB_BYTES = 64 * 1024;
/** Largest message placed in a slab (most video frames up to ~8 Mb/s); larger ones get a buffer of their own. */
const MAX_SLAB_MESSAGE = SLAB_BYTES / 2;
const EMPTY = new Uint8Array(0);

interface ChunkStreamState {
  timestamp: number;
  delta: number;
  length: number;
  typeId: number;
  streamId: number;
  extended: boolean;
  /** True from a message's first chunk header until it completes or is aborted. */
  receiving: boolean;
  /** Where the message is reassembled; allocated when its first data bytes arrive. */
  payload: Uint8Array | undefined;
  received: number;
}

/** Reassembles RTMP messages from chunks arriving in arbitrary pieces. */
export class ChunkReader {
  /** Bytes of an incomplete chunk header (at most 18). */
  private pending: Uint8Array = EMPTY;
  /** The chunk stream whose chunk data is being read, if any. */
  private current: ChunkStreamState | undefined;
  private currentCsid = 0;
  /** Data bytes the current chunk still has. */
  private remaining = 0;
  private readonly streams = new Map<number, ChunkStreamState>();
  /** The states of chunk streams 2-63 (one-byte basic headers) by id, for a lookup without hashing. */
  private readonly shortIds: (ChunkStreamState | undefined)[] = new Array(64).fill(undefined);
  private readonly maxMessageSize: number;
  private readonly maxChunkStreams: number;
  private size = DEFAULT_CHUNK_SIZE;
  private slab: ArrayBuffer | undefined;
  private slabUsed = 0;

  constructor(limits: ChunkReaderLimits = {}) {
    this.maxMessageSize = limits.maxMessageSize ?? 8 * 1024 * 1024;
    this.maxChunkStreams = limits.maxChunkStreams ?? 64;
  }

  /** The peer's current chunk size. */
  get chunkSize(): number {
    return this.size;
  }

  /**
   * Feeds bytes; returns every message completed. Throws ProtocolError on a broken chunk stream.
   * Nothing returned or kept refers to `buf`'s memory: the caller may reuse it.
   */
  push(buf: Uint8Array): RtmpMessage[] {
    const out: RtmpMessage[] = [];
    const end = buf.byteLength;
    let at = 0;
    if (this.pending.byteLength > 0) {
      at = this.completePendingHeader(buf, out);
      if (at < 0) {
        return out;
      }
    }
    while (at < end) {
      const state = this.current;
      if (state) {
        const take = Math.min(this.remaining, end - at);
        this.append(state, buf, at, take);
        this.remaining -= take;
        at += take;
        if (this.remaining > 0) {
          break;
        }
        this.current = undefined;
        this.complete(this.currentCsid, state, out);
        continue;
      }
      const next = this.readHeader(buf, at);
      if (next < 0) {
        // A copy (Buffer's `slice` would be a view).
        this.pending = new Uint8Array(buf.subarray(at));
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
    this.pending = EMPTY;
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
    const started = this.current;
    if (started && this.remaining === 0) {
      this.current = undefined;
      this.complete(this.currentCsid, started, out);
    }
  }

  /** Parses one chunk header at `p`, updates the chunk stream state; returns the offset after it or -1. */
  private readHeader(buf: Uint8Array, p: number): number {
    const available = buf.byteLength - p;
    const first = buf[p] ?? 0;
    const fmt = first >> 6;
    let csid = first & 0x3f;
    if (fmt === 3 && csid > 1) {
      // The common case: the next chunk of a message in progress, a one-byte header.
      const state = this.shortIds[csid];
      if (state?.receiving && !state.extended) {
        this.current = state;
        this.currentCsid = csid;
        this.remaining = Math.min(this.size, state.length - state.received);
        return p + 1;
      }
    }
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
    const state = csid < 64 ? this.shortIds[csid] : this.streams.get(csid);
    if (fmt !== 0 && !state) {
      throw new ProtocolError(`chunk type ${fmt} on chunk stream ${csid} before any type-0 header`);
    }
    let field = 0;
    let length = state ? state.length : 0;
    let typeId = state ? state.typeId : 0;
    let streamId = state ? state.streamId : 0;
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
    const extended = fmt <= 2 ? field === 0xffffff : state ? state.extended : false;
    if (extended) {
      if (buf.byteLength - q < 4) {
        return -1;
      }
      if (fmt <= 2) {
        field = (buf[q] ?? 0) * 0x1000000 + u24(buf, q + 1);
      }
      q += 4;
    }
    const continuing = fmt === 3 && state !== undefined && state.receiving;
    if (!continuing && length > this.maxMessageSize) {
      throw new ProtocolError(`message of ${length} bytes on chunk stream ${csid} exceeds ${this.maxMessageSize}`);
    }
    let current = state;
    if (!current) {
      if (this.streams.size >= this.maxChunkStreams) {
        throw new ProtocolError(`peer uses more than ${this.maxChunkStreams} chunk streams`);
      }
      current = {
        timestamp: 0,
        delta: 0,
        length,
        typeId,
        streamId,
        extended,
        receiving: false,
        payload: undefined,
        received: 0,
      };
      this.streams.set(csid, current);
      if (csid < 64) {
        this.shortIds[csid] = current;
      }
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
      current.receiving = true;
      current.payload = undefined;
      current.received = 0;
    }
    current.extended = extended;
    this.current = current;
    this.currentCsid = csid;
    this.remaining = Math.min(this.size, current.length - current.received);
    return q;
  }

  /** Copies `count` bytes of `buf` at `at` after the bytes `state` has received. */
  private append(state: ChunkStreamState, buf: Uint8Array, at: number, count: number): void {
    let payload = state.payload;
    if (payload === undefined) {
      payload = this.allocate(state);
      state.payload = payload;
    }
    const received = state.received;
    if (received + count > payload.byteLength) {
      const grown = uninitialisedBytes(Math.min(state.length, Math.max(payload.byteLength * 2, received + count)));
      grown.set(payload.subarray(0, received));
      payload = grown;
      state.payload = grown;
    }
    payload.set(buf.subarray(at, at + count), received);
    state.received = received + count;
  }

  /** The buffer a message spread over chunks is reassembled in: a slab slice for small media messages. */
  private allocate(state: ChunkStreamState): Uint8Array {
    const length = state.length;
    if (length > MAX_SLAB_MESSAGE || (state.typeId !== MessageType.audio && state.typeId !== MessageType.video)) {
      return uninitialisedBytes(Math.min(length, INITIAL_PAYLOAD_BYTES));
    }
    if (this.slab === undefined || this.slabUsed + length > SLAB_BYTES) {
      this.slab = uninitialisedBytes(SLAB_BYTES).buffer as ArrayBuffer;
      this.slabUsed = 0;
    }
    const view = new Uint8Array(this.slab, this.slabUsed, length);
    // Keep slices 8-byte aligned so a consumer's DataView or wider typed array over them stays aligned.
    this.slabUsed += (length + 7) & ~7;
    return view;
  }

  private complete(csid: number, state: ChunkStreamState, out: RtmpMessage[]): void {
    if (state.received < state.length) {
      return;
    }
    const payload = state.payload ?? EMPTY;
    state.payload = undefined;
    state.receiving = false;
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
        stream.receiving = false;
      }
      if (this.current !== undefined && this.currentCsid === target) {
        this.current = undefined;
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
