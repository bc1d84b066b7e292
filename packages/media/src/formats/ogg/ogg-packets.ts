/**
 * Ogg bitstream pages (RFC 3533 §6) read incrementally from a byte stream, with packets rebuilt
 * from their lacing values (a segment of 255 bytes continues the packet, a shorter one ends it).
 * One logical stream is assumed (ffmpeg's Ogg Opus output); CRCs are not checked (the input is
 * our own child's pipe, not the network).
 */
import { concatBytes } from '../../bits/bytes.js';
import { ParseError } from '../../errors.js';

const CAPTURE = [0x4f, 0x67, 0x67, 0x53] as const;
const HEADER_BYTES = 27;
/** Largest packet rebuilt across pages. */
export const MAX_OGG_PACKET_BYTES = 1024 * 1024;

/** Splits an Ogg byte stream into packets. */
export class OggPacketReader {
  private buffer: Uint8Array = new Uint8Array(0);
  private partial: Uint8Array[] = [];
  private partialBytes = 0;

  /** Adds bytes; returns the packets they completed, in order. Throws ParseError on a broken stream. */
  push(chunk: Uint8Array): Uint8Array[] {
    const joined = new Uint8Array(this.buffer.length + chunk.length);
    joined.set(this.buffer, 0);
    joined.set(chunk, this.buffer.length);
    const packets: Uint8Array[] = [];
    let offset = 0;
    for (;;) {
      if (joined.length - offset < HEADER_BYTES) {
        break;
      }
      if (CAPTURE.some((byte, i) => joined[offset + i] !== byte)) {
        throw new ParseError('Ogg page does not start with OggS', offset);
      }
      const segments = joined[offset + 26] as number;
      const tableEnd = offset + HEADER_BYTES + segments;
      if (joined.length < tableEnd) {
        break;
      }
      let bodyBytes = 0;
      for (let i = 0; i < segments; i++) {
        bodyBytes += joined[offset + HEADER_BYTES + i] as number;
      }
      if (joined.length < tableEnd + bodyBytes) {
        break;
      }
      let cursor = tableEnd;
      for (let i = 0; i < segments; i++) {
        const lace = joined[offset + HEADER_BYTES + i] as number;
        this.partial.push(joined.subarray(cursor, cursor + lace));
        this.partialBytes += lace;
        cursor += lace;
        if (this.partialBytes > MAX_OGG_PACKET_BYTES) {
          throw new ParseError(`Ogg packet larger than ${MAX_OGG_PACKET_BYTES} bytes`, cursor);
        }
        if (lace < 255) {
          packets.push(concatBytes(this.partial));
          this.partial = [];
          this.partialBytes = 0;
        }
      }
      offset = cursor;
    }
    this.buffer = joined.slice(offset);
    return packets;
  }
}
