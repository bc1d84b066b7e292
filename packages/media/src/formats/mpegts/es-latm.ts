/**
 * AAC in LATM/LOAS (ISO/IEC 13818-1 stream_type 0x11; ISO/IEC 14496-3 §1.7): AudioSyncStream
 * frames (syncword 0x2B7, audioMuxLengthBytes) each holding an AudioMuxElement(1) with an in-band
 * StreamMuxConfig. The simple profile that encoders (ffmpeg `-mpegts_flags latm`, DVB-T2 AAC)
 * write is read: one program, one layer, one subframe, all streams on the same time framing,
 * frameLengthType 0. Anything else is dropped with its reason.
 */
import { BitReader } from '../../bits/bit-reader.js';
import { BitWriter } from '../../bits/bit-writer.js';
import { readAudioSpecificConfig } from '../../codecs/aac.js';
import { ParseError, UnsupportedError } from '../../errors.js';
import { AacEsFrames } from './aac-es-frames.js';
import type { EsOutput, EsReader } from './es-reader.js';

/** LOAS header: 11-bit syncword and 13-bit audioMuxLengthBytes. */
const LOAS_HEADER = 3;
const LOAS_SYNC = 0x2b7;

/** What a StreamMuxConfig says (in band here; in the SDP `config` of RTP's MP4A-LATM, RFC 6416). */
export interface MuxConfig {
  readonly asc: Uint8Array;
  readonly sampleRate: number;
  readonly channels: number;
  readonly objectType: number;
  readonly samplesPerFrame: number;
}

/** LatmGetValue() of §1.7.3. */
function latmValue(r: BitReader): number {
  const bytes = r.readBits(2) + 1;
  return r.readBits(8 * bytes);
}

/** Copies bits [from, to) of `data` into whole bytes (zero-padded). */
function bitsToBytes(data: Uint8Array, from: number, to: number): Uint8Array {
  const r = new BitReader(data);
  r.skipBits(from);
  const w = new BitWriter();
  for (let left = to - from; left > 0; left -= Math.min(8, left)) {
    w.writeBits(r.readBits(Math.min(8, left)), Math.min(8, left));
  }
  return w.toBytes();
}

/** Reads StreamMuxConfig() (§1.7.3 Table 1.42) for the supported profile; `data` is what `r` reads. */
export function readStreamMuxConfig(r: BitReader, data: Uint8Array): MuxConfig {
  const version = r.readBit();
  if (version === 1 && r.readBit() === 1) {
    throw new UnsupportedError('LATM audioMuxVersionA 1');
  }
  if (version === 1) {
    latmValue(r);
  }
  const sameTimeFraming = r.readBit();
  const subFrames = r.readBits(6);
  const programs = r.readBits(4);
  const layers = r.readBits(3);
  if (sameTimeFraming !== 1 || subFrames !== 0 || programs !== 0 || layers !== 0) {
    throw new UnsupportedError('LATM with several programs, layers or subframes');
  }
  let ascLength = 0;
  if (version === 1) {
    ascLength = latmValue(r);
  }
  const ascStart = r.bitPosition;
  const config = readAudioSpecificConfig(r, false);
  const ascEnd = r.bitPosition;
  if (version === 1) {
    if (ascLength < ascEnd - ascStart) {
      throw new ParseError('LATM ascLen shorter than its AudioSpecificConfig', r.offset());
    }
    r.skipBits(ascLength - (ascEnd - ascStart));
  }
  if (r.readBits(3) !== 0) {
    throw new UnsupportedError('LATM frameLengthType other than 0');
  }
  r.skipBits(8);
  if (r.readFlag()) {
    // otherDataLenBits: the other data follows the payload, which is all this reader takes.
    if (version === 1) {
      latmValue(r);
    } else {
      while (r.readBit() === 1) {
        r.skipBits(8);
      }
      r.skipBits(8);
    }
  }
  if (r.readFlag()) {
    r.skipBits(8);
  }
  return {
    asc: bitsToBytes(data, ascStart, ascEnd),
    sampleRate: config.sampleRate,
    channels: config.channels,
    objectType: config.objectType,
    samplesPerFrame: config.samplesPerFrame,
  };
}

/** Reads a LOAS/LATM elementary stream into one AAC track. */
export class LatmEsReader implements EsReader {
  private config: MuxConfig | undefined;
  private readonly frames: AacEsFrames;

  constructor(trackId: number) {
    this.frames = new AacEsFrames(trackId);
  }

  /** Splits one PES payload into AudioSyncStream frames; a frame may continue into the next PES. */
  pes(payload: Uint8Array, pts: number | undefined, _dts: number | undefined, out: EsOutput): void {
    const { data, carried } = this.frames.begin(payload, pts);
    let offset = 0;
    while (offset + LOAS_HEADER <= data.length) {
      const header =
        ((data[offset] as number) << 16) | ((data[offset + 1] as number) << 8) | (data[offset + 2] as number);
      if (header >>> 13 !== LOAS_SYNC) {
        const sync = this.nextSync(data, offset + 1);
        out.drop(`LATM: no LOAS syncword; ${sync - offset} bytes skipped`);
        offset = sync;
        continue;
      }
      const end = offset + LOAS_HEADER + (header & 0x1fff);
      if (end > data.length) {
        break;
      }
      this.frame(data.subarray(offset + LOAS_HEADER, end), offset >= carried, out);
      offset = end;
    }
    if (offset < data.length) {
      this.frames.keep(data, offset);
    }
  }

  private nextSync(data: Uint8Array, from: number): number {
    for (let at = from; at + 1 < data.length; at++) {
      if (data[at] === 0x56 && ((data[at + 1] as number) & 0xe0) === 0xe0) {
        return at;
      }
    }
    return data.length;
  }

  /** One AudioMuxElement(1). */
  private frame(element: Uint8Array, startsInThisPes: boolean, out: EsOutput): void {
    let payload: Uint8Array;
    let config = this.config;
    try {
      const r = new BitReader(element);
      if (r.readBit() === 0) {
        config = readStreamMuxConfig(r, element);
        this.config = config;
      }
      if (!config) {
        out.drop('LATM frame before the first StreamMuxConfig');
        return;
      }
      let length = 0;
      let byte = 255;
      while (byte === 255) {
        byte = r.readBits(8);
        length += byte;
      }
      payload = new Uint8Array(length);
      for (let i = 0; i < length; i++) {
        payload[i] = r.readBits(8);
      }
    } catch (error) {
      if (error instanceof ParseError || error instanceof UnsupportedError) {
        out.drop(`LATM: ${error.message}`);
        return;
      }
      throw error;
    }
    const muxConfig = config;
    this.frames.emit(payload, muxConfig, () => muxConfig.asc, startsInThisPes, out);
  }
}
