/**
 * RTMP chunk stream writer (Adobe RTMP Specification 1.0 §5.3): a type-0 header per message,
 * type-3 headers for continuation chunks (repeating the extended timestamp when one is used).
 */
import type { RtmpMessage } from './messages.js';

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
    const { csid, payload } = message;
    const basic = csid < 64 ? 1 : csid < 320 ? 2 : 3;
    const timestamp = message.timestamp >>> 0;
    const extended = timestamp >= 0xffffff;
    const chunks = Math.max(1, Math.ceil(payload.byteLength / this.size));
    const continuationHeader = basic + (extended ? 4 : 0);
    const total = basic + 11 + (extended ? 4 : 0) + payload.byteLength + (chunks - 1) * continuationHeader;
    const out = new Uint8Array(total);
    const view = new DataView(out.buffer);
    let p = writeBasicHeader(out, 0, 0, csid);
    const field = extended ? 0xffffff : timestamp;
    view.setUint8(p, field >>> 16);
    view.setUint16(p + 1, field & 0xffff);
    view.setUint8(p + 3, payload.byteLength >>> 16);
    view.setUint16(p + 4, payload.byteLength & 0xffff);
    view.setUint8(p + 6, message.typeId);
    view.setUint32(p + 7, message.streamId, true);
    p += 11;
    if (extended) {
      view.setUint32(p, timestamp);
      p += 4;
    }
    for (let offset = 0; offset < payload.byteLength || offset === 0; ) {
      if (offset > 0) {
        p = writeBasicHeader(out, p, 3, csid);
        if (extended) {
          view.setUint32(p, timestamp);
          p += 4;
        }
      }
      const end = Math.min(offset + this.size, payload.byteLength);
      out.set(payload.subarray(offset, end), p);
      p += end - offset;
      offset = end;
      if (end === payload.byteLength) {
        break;
      }
    }
    return out;
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
