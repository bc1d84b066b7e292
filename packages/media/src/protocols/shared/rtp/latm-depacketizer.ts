/**
 * AAC in LATM over RTP (`MP4A-LATM`, RFC 6416 §6.1) with the StreamMuxConfig out of band
 * (`cpresent=0`, the SDP's `config`): each payload holds one or more AudioMuxElements of the
 * simple profile (ISO/IEC 14496-3 §1.7.3: one program, one layer, one subframe), each a
 * PayloadLengthInfo (bytes of 255 summed up to the first smaller one) and that many bytes of AAC
 * frame. An element may continue into the packets that follow with the same timestamp. Elements
 * of one packet are timed one frame apart.
 */
import { BitReader } from '../../../bits/bit-reader.js';
import { concatBytes } from '../../../bits/bytes.js';
import { ParseError, UnsupportedError } from '../../../errors.js';
import { type MuxConfig, readStreamMuxConfig } from '../../../formats/mpegts/es-latm.js';
import type { Mpeg4AccessUnit } from './mpeg4-generic-depacketizer.js';

/** Largest element joined from fragments. */
const MAX_ELEMENT_BYTES = 64 * 1024;
/** Most elements in one packet. */
const MAX_ELEMENTS_PER_PACKET = 512;

/** The StreamMuxConfig of an SDP `config` (hex); throws ParseError/UnsupportedError. */
export function latmConfig(hex: string): MuxConfig {
  if (!/^([0-9a-f]{2})+$/i.test(hex)) {
    throw new ParseError('MP4A-LATM config is not hexadecimal');
  }
  // Sources often end the config right after the AudioSpecificConfig: the fields after it read as 0.
  const data = new Uint8Array(hex.length / 2 + 4);
  data.set(Buffer.from(hex, 'hex'));
  return readStreamMuxConfig(new BitReader(data), data);
}

/** Splits one MP4A-LATM RTP stream into AAC frames. */
export class LatmDepacketizer {
  private carried: { timestamp: number; bytes: Uint8Array } | undefined;

  /** `frameDuration` is one frame's duration in RTP clock ticks. */
  constructor(private readonly frameDuration: number) {}

  /** Packets were lost: an element in progress is dropped. */
  lost(): void {
    this.carried = undefined;
  }

  /** One RTP payload; returns the frames it completed. Throws ParseError when malformed. */
  push(payload: Uint8Array, timestamp: number): Mpeg4AccessUnit[] {
    const carried = this.carried;
    this.carried = undefined;
    const data = carried?.timestamp === timestamp ? concatBytes([carried.bytes, payload]) : payload;
    const out: Mpeg4AccessUnit[] = [];
    let at = 0;
    while (at < data.length) {
      if (out.length >= MAX_ELEMENTS_PER_PACKET) {
        throw new ParseError(`more than ${MAX_ELEMENTS_PER_PACKET} LATM elements in one packet`);
      }
      let length = 0;
      let cursor = at;
      for (;;) {
        const byte = data[cursor];
        if (byte === undefined) {
          break;
        }
        cursor++;
        length += byte;
        if (byte !== 255) {
          break;
        }
      }
      if (length > MAX_ELEMENT_BYTES) {
        throw new UnsupportedError(`LATM element of ${length} bytes is larger than ${MAX_ELEMENT_BYTES}`);
      }
      if (cursor >= data.length || cursor + length > data.length || data[cursor - 1] === 255) {
        // Cut short: the rest of the element follows in the next packet of this timestamp.
        this.carried = { timestamp, bytes: data.slice(at) };
        break;
      }
      if (length === 0) {
        throw new ParseError('LATM element of 0 bytes', at);
      }
      out.push({
        timestamp: (timestamp + out.length * this.frameDuration) >>> 0,
        data: data.subarray(cursor, cursor + length),
      });
      at = cursor + length;
    }
    return out;
  }
}
