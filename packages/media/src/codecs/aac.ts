/**
 * AAC: AudioSpecificConfig (ISO/IEC 14496-3 §1.6.2.1, GASpecificConfig §4.4.1,
 * program_config_element §4.4.1.1, SBR/PS signalling §1.6.5 / §1.6.6), ADTS framing
 * (ISO/IEC 14496-3 §1.A.2.2) and RFC 6381 §3.3 codec strings (`mp4a.40.<audioObjectType>`).
 */
import { BitReader } from '../bits/bit-reader.js';
import { BitWriter } from '../bits/bit-writer.js';
import { ParseError, UnsupportedError } from '../errors.js';

/** Sampling frequencies by samplingFrequencyIndex (Table 1.18). */
export const AAC_SAMPLE_RATES: readonly number[] = [
  96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350,
];

/** Channels by channelConfiguration (Table 1.19); 0 means "in a program_config_element". */
const CHANNELS_BY_CONFIGURATION: readonly (number | undefined)[] = [
  0,
  1,
  2,
  3,
  4,
  5,
  6,
  8,
  undefined,
  undefined,
  undefined,
  7,
  8,
  24,
  8,
];

/** Object types that use GASpecificConfig. */
const GA_OBJECT_TYPES = new Set([1, 2, 3, 4, 6, 7, 17, 19, 20, 21, 22, 23]);

/** Error-resilient object types, whose config carries epConfig after GASpecificConfig. */
const ER_OBJECT_TYPES = new Set([17, 19, 20, 21, 22, 23]);

/** Highest sample rate accepted from an explicit 24-bit samplingFrequency. */
const MAX_SAMPLE_RATE = 384_000;

/** A parsed AudioSpecificConfig. */
export interface AudioSpecificConfig {
  /** The first audioObjectType signalled: the X of `mp4a.40.X` (5 or 29 for explicit HE-AAC). */
  readonly objectType: number;
  /** Object type of the core coder (2 for HE-AAC over AAC-LC). */
  readonly coreObjectType: number;
  /** Output sample rate (the SBR rate when SBR is signalled). */
  readonly sampleRate: number;
  /** Sample rate of the core coder. */
  readonly coreSampleRate: number;
  /** samplingFrequencyIndex of the core coder; 15 when the rate is explicit. */
  readonly samplingFrequencyIndex: number;
  readonly channelConfiguration: number;
  /** Output channels (2 for parametric stereo over a mono core). */
  readonly channels: number;
  /** Output samples per frame at `sampleRate` (1024, 960, 2048 with SBR, 512/480 for LD). */
  readonly samplesPerFrame: number;
  readonly frameLengthFlag: boolean;
  readonly sbr: boolean;
  readonly ps: boolean;
}

/** Reads GetAudioObjectType() (§1.6.2.1). */
function readObjectType(r: BitReader): number {
  const type = r.readBits(5);
  return type === 31 ? 32 + r.readBits(6) : type;
}

/** Reads a samplingFrequencyIndex and, for index 15, the explicit 24-bit rate. */
function readSampleRate(r: BitReader): { index: number; rate: number } {
  const at = r.offset();
  const index = r.readBits(4);
  if (index === 15) {
    const rate = r.readBits(24);
    if (rate === 0 || rate > MAX_SAMPLE_RATE) {
      throw new ParseError(`explicit samplingFrequency ${rate}`, at);
    }
    return { index, rate };
  }
  const rate = AAC_SAMPLE_RATES[index];
  if (rate === undefined) {
    throw new ParseError(`reserved samplingFrequencyIndex ${index}`, at);
  }
  return { index, rate };
}

/** Parses an AudioSpecificConfig (esds DecoderSpecificInfo or the FLV AAC sequence header body). */
export function parseAudioSpecificConfig(asc: Uint8Array): AudioSpecificConfig {
  return readAudioSpecificConfig(new BitReader(asc), true);
}

/**
 * Reads an AudioSpecificConfig from `r` and leaves it after the config (as LATM's StreamMuxConfig
 * embeds one without a length). `lookForExtension` also reads a trailing backward-compatible SBR/PS
 * extension, which only a config of known length may carry.
 */
export function readAudioSpecificConfig(r: BitReader, lookForExtension: boolean): AudioSpecificConfig {
  const objectType = readObjectType(r);
  if (objectType === 0) {
    throw new ParseError('audioObjectType 0 is null', 0);
  }
  const core = readSampleRate(r);
  const channelConfiguration = r.readBits(4);
  let coreObjectType = objectType;
  let sbr = false;
  let ps = false;
  let extensionRate: number | undefined;
  if (objectType === 5 || objectType === 29) {
    sbr = true;
    ps = objectType === 29;
    extensionRate = readSampleRate(r).rate;
    coreObjectType = readObjectType(r);
    if (coreObjectType === 22) {
      r.skipBits(4);
    }
  }
  if (!GA_OBJECT_TYPES.has(coreObjectType)) {
    throw new UnsupportedError(
      `AAC audioObjectType ${coreObjectType} (supported: AAC Main/LC/SSR/LTP/Scalable, ER AAC, HE-AAC v1/v2)`,
    );
  }
  const ga = readGaSpecificConfig(r, channelConfiguration, coreObjectType);
  // epConfig 2 and 3 are followed by an ErrorProtectionSpecificConfig, which ends the look for extensions.
  const epConfig = ER_OBJECT_TYPES.has(coreObjectType) ? r.readBits(2) : 0;
  if (lookForExtension && !sbr && epConfig < 2 && r.bitsLeft() >= 16) {
    const explicit = readBackwardCompatibleExtension(r);
    if (explicit.sbr) {
      sbr = true;
      ps = explicit.ps;
      extensionRate = explicit.rate;
    }
  }
  const channels = ps && ga.channels === 1 ? 2 : ga.channels;
  const baseFrame = coreObjectType === 23 ? (ga.frameLengthFlag ? 480 : 512) : ga.frameLengthFlag ? 960 : 1024;
  const sampleRate = sbr ? (extensionRate ?? core.rate * 2) : core.rate;
  const samplesPerFrame = Math.round((baseFrame * sampleRate) / core.rate);
  return {
    objectType,
    coreObjectType,
    sampleRate,
    coreSampleRate: core.rate,
    samplingFrequencyIndex: core.index,
    channelConfiguration,
    channels,
    samplesPerFrame,
    frameLengthFlag: ga.frameLengthFlag,
    sbr,
    ps,
  };
}

/** Reads GASpecificConfig() (§4.4.1) far enough for the frame length and the channel count. */
function readGaSpecificConfig(
  r: BitReader,
  channelConfiguration: number,
  objectType: number,
): { frameLengthFlag: boolean; channels: number } {
  const frameLengthFlag = r.readFlag();
  if (r.readFlag()) {
    r.skipBits(14);
  }
  const extensionFlag = r.readFlag();
  let channels = CHANNELS_BY_CONFIGURATION[channelConfiguration];
  if (channels === undefined) {
    throw new UnsupportedError(`reserved channelConfiguration ${channelConfiguration}`);
  }
  if (channelConfiguration === 0) {
    channels = readProgramConfigChannels(r);
  }
  if (objectType === 6 || objectType === 20) {
    r.skipBits(3);
  }
  if (extensionFlag) {
    if (objectType === 22) {
      r.skipBits(5 + 11);
    }
    if (objectType === 17 || objectType === 19 || objectType === 20 || objectType === 23) {
      r.skipBits(3);
    }
    r.skipBits(1);
  }
  return { frameLengthFlag, channels };
}

/** Reads program_config_element() (§4.4.1.1) and returns its channel count. */
function readProgramConfigChannels(r: BitReader): number {
  r.skipBits(4 + 2 + 4);
  const front = r.readBits(4);
  const side = r.readBits(4);
  const back = r.readBits(4);
  const lfe = r.readBits(2);
  const assoc = r.readBits(3);
  const cc = r.readBits(4);
  if (r.readFlag()) {
    r.skipBits(4);
  }
  if (r.readFlag()) {
    r.skipBits(4);
  }
  if (r.readFlag()) {
    r.skipBits(3);
  }
  let channels = lfe;
  for (let i = 0; i < front + side + back; i++) {
    channels += r.readFlag() ? 2 : 1;
    r.skipBits(4);
  }
  r.skipBits(4 * lfe + 4 * assoc + 5 * cc);
  r.byteAlign();
  r.skipBits(8 * r.readBits(8));
  if (channels === 0) {
    throw new ParseError('program_config_element with no channels', r.offset());
  }
  return channels;
}

/** Reads the backward-compatible SBR/PS extension after the core config (§1.6.2.1, syncExtensionType 0x2b7). */
function readBackwardCompatibleExtension(r: BitReader): { sbr: boolean; ps: boolean; rate?: number } {
  if (r.readBits(11) !== 0x2b7) {
    return { sbr: false, ps: false };
  }
  const extensionType = readObjectType(r);
  if (extensionType !== 5 && extensionType !== 22) {
    return { sbr: false, ps: false };
  }
  if (!r.readFlag()) {
    return { sbr: false, ps: false };
  }
  const rate = readSampleRate(r).rate;
  let ps = false;
  if (extensionType === 5 && r.bitsLeft() >= 12 && r.readBits(11) === 0x548) {
    ps = r.readFlag();
  }
  return { sbr: extensionType === 5, ps, rate };
}

/** What buildAudioSpecificConfig needs. */
export interface AudioSpecificConfigFields {
  /** audioObjectType of the core coder (2 for AAC-LC). */
  readonly objectType: number;
  readonly sampleRate: number;
  /** 1..6 or 8 (channelConfiguration 1..7). */
  readonly channels: number;
  readonly frameLengthFlag?: boolean;
}

/** Builds a minimal AudioSpecificConfig with a GASpecificConfig (explicit rate when not in the table). */
export function buildAudioSpecificConfig(fields: AudioSpecificConfigFields): Uint8Array {
  if (!Number.isInteger(fields.objectType) || fields.objectType < 1 || fields.objectType > 95) {
    throw new UnsupportedError(`audioObjectType ${fields.objectType} (1..95)`);
  }
  if (!Number.isInteger(fields.sampleRate) || fields.sampleRate < 1 || fields.sampleRate > MAX_SAMPLE_RATE) {
    throw new UnsupportedError(`AAC sample rate ${fields.sampleRate} (1..${MAX_SAMPLE_RATE})`);
  }
  const w = new BitWriter();
  if (fields.objectType >= 31) {
    w.writeBits(31, 5).writeBits(fields.objectType - 32, 6);
  } else {
    w.writeBits(fields.objectType, 5);
  }
  const index = AAC_SAMPLE_RATES.indexOf(fields.sampleRate);
  if (index >= 0) {
    w.writeBits(index, 4);
  } else {
    w.writeBits(15, 4).writeBits(fields.sampleRate, 24);
  }
  w.writeBits(channelConfigurationFor(fields.channels), 4);
  w.writeBit(fields.frameLengthFlag === true)
    .writeBit(0)
    .writeBit(0);
  return w.byteAlign().toBytes();
}

/** channelConfiguration for a channel count (1..6 → same, 8 → 7). */
function channelConfigurationFor(channels: number): number {
  if (channels >= 1 && channels <= 6) {
    return channels;
  }
  if (channels === 8) {
    return 7;
  }
  throw new UnsupportedError(`no AAC channelConfiguration for ${channels} channels (1..6 or 8)`);
}

/** RFC 6381 codec string `mp4a.40.<objectType>`. */
export function aacCodecString(objectType: number): string {
  return `mp4a.40.${objectType}`;
}

/** Length of an ADTS header without CRC. */
export const ADTS_HEADER_LENGTH = 7;

/** Largest frame an ADTS header can describe (13-bit aac_frame_length). */
const MAX_ADTS_FRAME = 0x1fff;

/**
 * Writes the 7-byte ADTS header (no CRC) for one raw AAC frame of `payloadLength` bytes. ADTS
 * signals the core coder only; SBR/PS are implicit in the payload.
 */
export function adtsHeader(config: AudioSpecificConfig, payloadLength: number): Uint8Array {
  const profile = config.coreObjectType - 1;
  if (profile < 0 || profile > 3) {
    throw new UnsupportedError(`ADTS cannot carry audioObjectType ${config.coreObjectType} (1..4 only)`);
  }
  if (config.samplingFrequencyIndex > 12) {
    throw new UnsupportedError(`ADTS cannot carry the explicit sample rate ${config.coreSampleRate}`);
  }
  if (config.channelConfiguration > 7) {
    throw new UnsupportedError(`ADTS cannot carry channelConfiguration ${config.channelConfiguration}`);
  }
  const frameLength = payloadLength + ADTS_HEADER_LENGTH;
  if (!Number.isInteger(payloadLength) || payloadLength < 0 || frameLength > MAX_ADTS_FRAME) {
    throw new UnsupportedError(`AAC frame of ${payloadLength} bytes does not fit an ADTS frame`);
  }
  const w = new BitWriter();
  w.writeBits(0xfff, 12).writeBits(0, 1).writeBits(0, 2).writeBits(1, 1);
  w.writeBits(profile, 2).writeBits(config.samplingFrequencyIndex, 4).writeBits(0, 1);
  w.writeBits(config.channelConfiguration, 3).writeBits(0, 4);
  w.writeBits(frameLength, 13).writeBits(0x7ff, 11).writeBits(0, 2);
  return w.toBytes();
}

/** One ADTS frame found in a buffer. */
export interface AdtsFrame {
  /** The config the header describes (core coder; implicit SBR cannot be seen here). */
  readonly config: AudioSpecificConfig;
  /** Offset of the ADTS header in the buffer. */
  readonly offset: number;
  /** Raw AAC payload (after the header and the optional CRC). */
  readonly payload: Uint8Array;
  /** number_of_raw_data_blocks_in_frame + 1. */
  readonly rawDataBlocks: number;
}

/**
 * Splits ADTS data into frames. A trailing incomplete frame is left for the caller: `consumed`
 * says how many bytes the returned frames cover. Bytes that are not an ADTS sync word throw.
 */
export function parseAdtsFrames(data: Uint8Array): { frames: AdtsFrame[]; consumed: number } {
  const frames: AdtsFrame[] = [];
  let offset = 0;
  let cachedKey = -1;
  let cached: AudioSpecificConfig | undefined;
  while (offset + ADTS_HEADER_LENGTH <= data.length) {
    const b1 = data[offset + 1] as number;
    if (data[offset] !== 0xff || (b1 & 0xf6) !== 0xf0) {
      throw new ParseError('no ADTS sync word', offset);
    }
    const b2 = data[offset + 2] as number;
    const b3 = data[offset + 3] as number;
    const protectionAbsent = (b1 & 1) === 1;
    const profile = b2 >>> 6;
    const index = (b2 >>> 2) & 0x0f;
    const channelConfiguration = ((b2 & 1) << 2) | (b3 >>> 6);
    const frameLength = ((b3 & 3) << 11) | ((data[offset + 4] as number) << 3) | ((data[offset + 5] as number) >>> 5);
    const rawDataBlocks = ((data[offset + 6] as number) & 3) + 1;
    const headerLength = protectionAbsent ? ADTS_HEADER_LENGTH : ADTS_HEADER_LENGTH + 2;
    if (frameLength < headerLength) {
      throw new ParseError(`ADTS aac_frame_length ${frameLength} shorter than its header`, offset);
    }
    if (offset + frameLength > data.length) {
      break;
    }
    const key = (profile << 8) | (index << 4) | channelConfiguration;
    if (key !== cachedKey || !cached) {
      const rate = AAC_SAMPLE_RATES[index];
      if (rate === undefined) {
        throw new ParseError(`reserved ADTS sampling_frequency_index ${index}`, offset + 2);
      }
      const channels = CHANNELS_BY_CONFIGURATION[channelConfiguration] ?? 0;
      cached = {
        objectType: profile + 1,
        coreObjectType: profile + 1,
        sampleRate: rate,
        coreSampleRate: rate,
        samplingFrequencyIndex: index,
        channelConfiguration,
        channels,
        samplesPerFrame: 1024,
        frameLengthFlag: false,
        sbr: false,
        ps: false,
      };
      cachedKey = key;
    }
    frames.push({
      config: cached,
      offset,
      payload: data.subarray(offset + headerLength, offset + frameLength),
      rawDataBlocks,
    });
    offset += frameLength;
  }
  return { frames, consumed: offset };
}

/** The AudioSpecificConfig bytes an ADTS frame's header corresponds to (for MP4/FLV sequence headers). */
export function adtsToAudioSpecificConfig(config: AudioSpecificConfig): Uint8Array {
  const w = new BitWriter();
  w.writeBits(config.coreObjectType, 5).writeBits(config.samplingFrequencyIndex, 4);
  w.writeBits(config.channelConfiguration, 4).writeBits(0, 3);
  return w.toBytes();
}
