/**
 * Opus: the identification header OpusHead (RFC 7845 §5.1, channel mapping §5.1.1) and packet
 * durations from the TOC byte (RFC 6716 §3.1, §3.2). The codec string is `opus` (RFC 7845 Appendix,
 * as used by ISO BMFF "Opus in ISOBMFF" and browsers).
 */
import { ParseError, UnsupportedError } from '../errors.js';

/** A parsed OpusHead. */
export interface OpusHead {
  readonly version: number;
  readonly channels: number;
  /** Samples (at 48 kHz) to discard from the decoder output at the start. */
  readonly preSkip: number;
  /** Sample rate of the original input (informational; Opus always decodes at 48 kHz here). */
  readonly inputSampleRate: number;
  /** Output gain in Q7.8 dB. */
  readonly outputGain: number;
  readonly mappingFamily: number;
  readonly streamCount?: number;
  readonly coupledCount?: number;
  readonly channelMapping?: Uint8Array;
}

/** Opus always runs at 48 kHz; timestamps of Opus tracks use this clock. */
export const OPUS_SAMPLE_RATE = 48_000;

const MAGIC = [0x4f, 0x70, 0x75, 0x73, 0x48, 0x65, 0x61, 0x64];

/** Parses an OpusHead packet (the first Ogg packet, the MP4 dOps contents after conversion, or an E-RTMP Opus start). */
export function parseOpusHead(data: Uint8Array): OpusHead {
  if (data.length < 19) {
    throw new ParseError(`OpusHead of ${data.length} bytes is shorter than 19`, 0);
  }
  for (let i = 0; i < MAGIC.length; i++) {
    if (data[i] !== MAGIC[i]) {
      throw new ParseError('missing "OpusHead" magic', i);
    }
  }
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const version = view.getUint8(8);
  if (version >> 4 !== 0) {
    throw new UnsupportedError(`OpusHead version ${version} (major version 0 only)`);
  }
  const channels = view.getUint8(9);
  if (channels === 0) {
    throw new ParseError('OpusHead channel count 0', 9);
  }
  const preSkip = view.getUint16(10, true);
  const inputSampleRate = view.getUint32(12, true);
  const outputGain = view.getInt16(16, true);
  const mappingFamily = view.getUint8(18);
  if (mappingFamily === 0) {
    if (channels > 2) {
      throw new ParseError(`mapping family 0 with ${channels} channels`, 9);
    }
    return { version, channels, preSkip, inputSampleRate, outputGain, mappingFamily };
  }
  if (mappingFamily === 1 && channels > 8) {
    throw new ParseError(`mapping family 1 with ${channels} channels`, 9);
  }
  if (data.length < 21 + channels) {
    throw new ParseError(`OpusHead channel mapping table needs ${21 + channels} bytes`, 19);
  }
  const streamCount = view.getUint8(19);
  const coupledCount = view.getUint8(20);
  if (streamCount === 0 || coupledCount > streamCount || streamCount + coupledCount > 255) {
    throw new ParseError(`OpusHead stream count ${streamCount}, coupled count ${coupledCount}`, 19);
  }
  const channelMapping = data.slice(21, 21 + channels);
  for (let i = 0; i < channelMapping.length; i++) {
    const entry = channelMapping[i] as number;
    if (entry !== 255 && entry >= streamCount + coupledCount) {
      throw new ParseError(`channel mapping ${entry} beyond ${streamCount + coupledCount} decoded channels`, 21 + i);
    }
  }
  return {
    version,
    channels,
    preSkip,
    inputSampleRate,
    outputGain,
    mappingFamily,
    streamCount,
    coupledCount,
    channelMapping,
  };
}

/** What buildOpusHead needs; mapping family 0 (mono/stereo) unless a mapping is given. */
export interface OpusHeadFields {
  readonly channels: number;
  readonly preSkip?: number;
  readonly inputSampleRate?: number;
  readonly outputGain?: number;
  readonly mappingFamily?: number;
  readonly streamCount?: number;
  readonly coupledCount?: number;
  readonly channelMapping?: Uint8Array;
}

/** Builds an OpusHead packet (version 1). */
export function buildOpusHead(fields: OpusHeadFields): Uint8Array {
  const family = fields.mappingFamily ?? 0;
  const mapping = family === 0 ? undefined : fields.channelMapping;
  if (family !== 0 && (!mapping || mapping.length !== fields.channels || fields.streamCount === undefined)) {
    throw new UnsupportedError('mapping family other than 0 needs streamCount and a channelMapping per channel');
  }
  if (family === 0 && (fields.channels < 1 || fields.channels > 2)) {
    throw new UnsupportedError(`mapping family 0 carries 1 or 2 channels, not ${fields.channels}`);
  }
  const u16 = (value: number) => Number.isInteger(value) && value >= 0 && value <= 0xffff;
  if (
    fields.channels > 255 ||
    !u16(fields.preSkip ?? 0) ||
    !u16((fields.outputGain ?? 0) + 0x8000) ||
    !Number.isInteger(fields.inputSampleRate ?? 0) ||
    (fields.inputSampleRate ?? 0) < 0 ||
    (fields.inputSampleRate ?? 0) > 0xffffffff
  ) {
    throw new UnsupportedError('OpusHead field out of range (channels ≤ 255, 16-bit pre-skip and gain, 32-bit rate)');
  }
  const out = new Uint8Array(19 + (mapping ? 2 + mapping.length : 0));
  const view = new DataView(out.buffer);
  out.set(MAGIC, 0);
  out[8] = 1;
  out[9] = fields.channels;
  view.setUint16(10, fields.preSkip ?? 312, true);
  view.setUint32(12, fields.inputSampleRate ?? OPUS_SAMPLE_RATE, true);
  view.setInt16(16, fields.outputGain ?? 0, true);
  out[18] = family;
  if (mapping) {
    out[19] = fields.streamCount ?? 1;
    out[20] = fields.coupledCount ?? 0;
    out.set(mapping, 21);
  }
  return out;
}

/** Samples per frame at 48 kHz for each TOC config (RFC 6716 Table 2). */
function frameSamples(config: number): number {
  if (config < 12) {
    return [480, 960, 1920, 2880][config % 4] as number;
  }
  if (config < 16) {
    return config % 2 === 0 ? 480 : 960;
  }
  return [120, 240, 480, 960][config % 4] as number;
}

/** Longest packet duration allowed (120 ms at 48 kHz). */
const MAX_PACKET_SAMPLES = 5760;

/** Number of 48 kHz samples an Opus packet decodes to (frames × frame size, from its TOC). */
export function opusPacketSamples(packet: Uint8Array): number {
  const toc = packet[0];
  if (toc === undefined) {
    throw new ParseError('empty Opus packet', 0);
  }
  const code = toc & 3;
  let frames = code === 0 ? 1 : 2;
  if (code === 3) {
    const count = packet[1];
    if (count === undefined) {
      throw new ParseError('Opus code 3 packet without frame count byte', 1);
    }
    frames = count & 0x3f;
    if (frames === 0) {
      throw new ParseError('Opus code 3 packet with 0 frames', 1);
    }
  }
  const samples = frames * frameSamples(toc >>> 3);
  if (samples > MAX_PACKET_SAMPLES) {
    throw new ParseError(`Opus packet of ${samples} samples exceeds 120 ms`, 1);
  }
  return samples;
}

/** Codec string of Opus tracks (`opus`). */
export function opusCodecString(): string {
  return 'opus';
}
