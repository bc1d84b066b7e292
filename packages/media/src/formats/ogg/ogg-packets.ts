/**
 * Ogg (RFC 3533 §6) read incrementally from a byte stream (a child's stdout): bytes are held until
 * they form whole pages whose last packet ends on them, and those pages are read with
 * readOggPackets. One logical stream is assumed (ffmpeg's Ogg Opus output).
 */
import { ParseError } from '../../errors.js';
import { readOggPackets } from './ogg.js';

const HEADER_BYTES = 27;
/** Most bytes held while waiting for a packet to end (a bound on a broken or hostile stream). */
export const MAX_OGG_PENDING_BYTES = 1024 * 1024;

/** Splits an Ogg byte stream into packets as it arrives. */
export class OggPacketReader {
  private buffer: Uint8Array = new Uint8Array(0);

  /** Adds bytes; returns the packets they completed, in order. Throws ParseError on a broken stream. */
  push(chunk: Uint8Array): Uint8Array[] {
    const joined = new Uint8Array(this.buffer.length + chunk.length);
    joined.set(this.buffer, 0);
    joined.set(chunk, this.buffer.length);
    let offset = 0;
    let readable = 0;
    while (joined.length - offset >= HEADER_BYTES) {
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
      offset = tableEnd + bodyBytes;
      if (segments > 0 && (joined[tableEnd - 1] as number) < 255) {
        readable = offset;
      }
    }
    if (joined.length - readable > MAX_OGG_PENDING_BYTES) {
      throw new ParseError(`more than ${MAX_OGG_PENDING_BYTES} Ogg bytes without a packet end`);
    }
    this.buffer = joined.slice(readable);
    return readable === 0 ? [] : readOggPackets(joined.subarray(0, readable)).map((packet) => packet.data);
  }
}
