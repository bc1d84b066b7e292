/**
 * Ogg (RFC 3533): pages of "OggS", version 0, header type, u64le granule position, u32le serial,
 * u32le sequence number, u32le CRC, a segment count and a lacing table; a packet is the
 * concatenation of segments up to one shorter than 255 bytes, and may continue on the next page.
 * This reader takes the first logical bitstream of a file (what ffmpeg writes for one Opus track).
 */
import { ParseError, UnsupportedError } from '../../errors.js';

/** One packet of a logical bitstream. */
export interface OggPacket {
  readonly data: Uint8Array;
  /** Granule position of the page on which the packet ends (-1 when that page ends no packet). */
  readonly granule: bigint;
}

const PAGE_HEADER = 27;
const CONTINUED = 0x01;

/** The packets of the first logical bitstream in `bytes`, in order; ParseError on a bad or truncated page. */
export function readOggPackets(bytes: Uint8Array): OggPacket[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const packets: OggPacket[] = [];
  let serial: number | undefined;
  let pending: Uint8Array[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    if (offset + PAGE_HEADER > bytes.length) {
      throw new ParseError(`Ogg page header at ${offset} is truncated`, offset);
    }
    if (String.fromCharCode(...bytes.subarray(offset, offset + 4)) !== 'OggS') {
      throw new ParseError('Ogg page does not start with OggS', offset);
    }
    if (bytes[offset + 4] !== 0) {
      throw new UnsupportedError(`Ogg version ${bytes[offset + 4]} (0 only)`);
    }
    const headerType = bytes[offset + 5] ?? 0;
    const granule = view.getBigInt64(offset + 6, true);
    const pageSerial = view.getUint32(offset + 14, true);
    const segments = bytes[offset + 26] ?? 0;
    const lacing = bytes.subarray(offset + PAGE_HEADER, offset + PAGE_HEADER + segments);
    let body = offset + PAGE_HEADER + segments;
    const end = body + lacing.reduce((sum, value) => sum + value, 0);
    if (lacing.length < segments || end > bytes.length) {
      throw new ParseError(`Ogg page at ${offset} is truncated`, offset);
    }
    serial ??= pageSerial;
    if (pageSerial === serial) {
      if ((headerType & CONTINUED) === 0 && pending.length > 0) {
        throw new ParseError(`Ogg page at ${offset} drops an unfinished packet`, offset);
      }
      const ended: Uint8Array[] = [];
      for (const size of lacing) {
        pending.push(bytes.subarray(body, body + size));
        body += size;
        if (size < 255) {
          ended.push(concat(pending));
          pending = [];
        }
      }
      for (const data of ended) {
        packets.push({ data, granule });
      }
    }
    offset = end;
  }
  if (pending.length > 0) {
    throw new ParseError('the Ogg stream ends inside a packet', bytes.length);
  }
  return packets;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1 && parts[0]) {
    return parts[0];
  }
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
