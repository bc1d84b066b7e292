/**
 * Ogg pages (RFC 3533 §6) for one logical stream, one packet per page: how Opus packets are
 * handed to ffmpeg (Ogg Opus, RFC 7845: OpusHead on the first page, OpusTags on the second, then
 * audio with granule positions in 48 kHz samples).
 */
import { crc32Mpeg2 } from '../mpegts/crc32-mpeg2.js';

const HEADER_BYTES = 27;
/** Largest packet one page carries (255 lacing values of 255 bytes). */
export const MAX_OGG_PAGE_PACKET = 255 * 255 - 1;

/** Writes the pages of one logical stream. */
export class OggPageWriter {
  private sequence = 0;

  constructor(private readonly serial: number) {}

  /** One page holding exactly `packet` (at most MAX_OGG_PAGE_PACKET bytes). */
  page(packet: Uint8Array, granule: number, flags: { first?: boolean; last?: boolean } = {}): Uint8Array {
    if (packet.length > MAX_OGG_PAGE_PACKET) {
      throw new RangeError(`a packet of ${packet.length} bytes needs more than one Ogg page`);
    }
    const lacing = Math.floor(packet.length / 255) + 1;
    const out = new Uint8Array(HEADER_BYTES + lacing + packet.length);
    const view = new DataView(out.buffer);
    out.set([0x4f, 0x67, 0x67, 0x53], 0);
    out[4] = 0;
    out[5] = (flags.first ? 0x02 : 0) | (flags.last ? 0x04 : 0);
    view.setBigUint64(6, BigInt(granule), true);
    view.setUint32(14, this.serial, true);
    view.setUint32(18, this.sequence++, true);
    out[26] = lacing;
    out.fill(255, HEADER_BYTES, HEADER_BYTES + lacing - 1);
    out[HEADER_BYTES + lacing - 1] = packet.length % 255;
    out.set(packet, HEADER_BYTES + lacing);
    view.setUint32(22, crc32Mpeg2(out, 0), true);
    return out;
  }
}
