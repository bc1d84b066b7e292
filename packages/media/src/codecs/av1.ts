/**
 * AV1: OBU syntax and leb128 (AV1 Bitstream & Decoding Process Specification §4.10.5, §5.3),
 * sequence header (§5.5), the start of the frame header (§5.9.2), the AV1CodecConfigurationRecord
 * av1C (AV1 Codec ISO Media File Format Binding §2.3) and codec strings (same binding, Annex A).
 */
import { BitReader } from '../bits/bit-reader.js';
import { ParseError, UnsupportedError } from '../errors.js';
import { MAX_VIDEO_DIMENSION } from './video-limits.js';

/** OBU types (AV1 §6.2.2). */
export const OBU = {
  sequenceHeader: 1,
  temporalDelimiter: 2,
  frameHeader: 3,
  tileGroup: 4,
  metadata: 5,
  frame: 6,
  redundantFrameHeader: 7,
  tileList: 8,
  padding: 15,
} as const;

/** Reads an unsigned leb128 (at most 8 bytes, value below 2^32) at `offset`. */
export function readLeb128(data: Uint8Array, offset: number): { value: number; length: number } {
  let value = 0;
  for (let i = 0; i < 8; i++) {
    const byte = data[offset + i];
    if (byte === undefined) {
      throw new ParseError('truncated leb128', offset);
    }
    value += (byte & 0x7f) * 2 ** (7 * i);
    if ((byte & 0x80) === 0) {
      if (value > 0xffffffff) {
        throw new ParseError(`leb128 value ${value} exceeds 2^32 - 1`, offset);
      }
      return { value, length: i + 1 };
    }
  }
  throw new ParseError('leb128 longer than 8 bytes', offset);
}

/** Encodes an unsigned value (below 2^32) as the shortest leb128. */
export function writeLeb128(value: number): Uint8Array {
  if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) {
    throw new RangeError(`leb128 value ${value} out of range`);
  }
  const bytes: number[] = [];
  let rest = value;
  do {
    const low = rest % 128;
    rest = Math.floor(rest / 128);
    bytes.push(rest > 0 ? low | 0x80 : low);
  } while (rest > 0);
  return Uint8Array.from(bytes);
}

/** One OBU located inside a buffer. */
export interface Obu {
  readonly type: number;
  readonly temporalId: number;
  readonly spatialId: number;
  readonly hasSizeField: boolean;
  /** Offset of the OBU header in the buffer that was split. */
  readonly offset: number;
  /** The whole OBU: header, optional size field and payload. */
  readonly bytes: Uint8Array;
  /** The payload only. */
  readonly payload: Uint8Array;
}

/** Reads the OBU at `offset` (§5.3.1); an OBU without a size field runs to the end of the data. */
export function readObu(data: Uint8Array, offset: number): Obu {
  const header = data[offset];
  if (header === undefined) {
    throw new ParseError('truncated OBU header', offset);
  }
  if ((header & 0x80) !== 0) {
    throw new ParseError('obu_forbidden_bit set', offset);
  }
  const type = (header >>> 3) & 0x0f;
  const hasExtension = (header & 0x04) !== 0;
  const hasSizeField = (header & 0x02) !== 0;
  let at = offset + 1;
  let temporalId = 0;
  let spatialId = 0;
  if (hasExtension) {
    const extension = data[at];
    if (extension === undefined) {
      throw new ParseError('truncated OBU extension header', at);
    }
    temporalId = extension >>> 5;
    spatialId = (extension >>> 3) & 3;
    at++;
  }
  let size = data.length - at;
  if (hasSizeField) {
    const leb = readLeb128(data, at);
    at += leb.length;
    size = leb.value;
    if (at + size > data.length) {
      throw new ParseError(`OBU of ${size} bytes overruns the data`, offset);
    }
  }
  return {
    type,
    temporalId,
    spatialId,
    hasSizeField,
    offset,
    bytes: data.subarray(offset, at + size),
    payload: data.subarray(at, at + size),
  };
}

/** Splits a sequence of OBUs (low-overhead bitstream format, §5.2) into its OBUs. */
export function splitObus(data: Uint8Array): Obu[] {
  const obus: Obu[] = [];
  let offset = 0;
  while (offset < data.length) {
    const obu = readObu(data, offset);
    obus.push(obu);
    offset += obu.bytes.length;
  }
  return obus;
}

/** What an AV1 sequence header says (§5.5). */
export interface Av1SequenceHeader {
  readonly seqProfile: number;
  readonly stillPicture: boolean;
  readonly reducedStillPictureHeader: boolean;
  /** seq_level_idx of operating point 0. */
  readonly seqLevelIdx: number;
  /** seq_tier of operating point 0 (0 = Main, 1 = High). */
  readonly seqTier: number;
  readonly bitDepth: number;
  readonly monochrome: boolean;
  readonly subsamplingX: number;
  readonly subsamplingY: number;
  readonly chromaSamplePosition: number;
  readonly colorDescriptionPresent: boolean;
  readonly colorPrimaries: number;
  readonly transferCharacteristics: number;
  readonly matrixCoefficients: number;
  readonly colorRange: number;
  readonly maxFrameWidth: number;
  readonly maxFrameHeight: number;
  readonly frameIdNumbersPresent: boolean;
  readonly filmGrainParamsPresent: boolean;
  /** Frames per second from timing_info with equal_picture_interval, when present. */
  readonly fps?: number;
}

/** Reads uvlc() (§4.10.3). */
function readUvlc(r: BitReader): number {
  let zeros = 0;
  while (r.readBit() === 0) {
    zeros++;
    if (zeros >= 32) {
      throw new ParseError('uvlc longer than 32 bits', r.offset());
    }
  }
  return 2 ** zeros - 1 + r.readBits(zeros);
}

/** Parses the payload of a sequence header OBU (§5.5.1). */
export function parseSequenceHeader(obuPayload: Uint8Array): Av1SequenceHeader {
  const r = new BitReader(obuPayload);
  const seqProfile = r.readBits(3);
  if (seqProfile > 2) {
    throw new ParseError(`seq_profile ${seqProfile} is reserved`, 0);
  }
  const stillPicture = r.readFlag();
  const reducedStillPictureHeader = r.readFlag();
  let seqLevelIdx = 0;
  let seqTier = 0;
  let fps: number | undefined;
  if (reducedStillPictureHeader) {
    seqLevelIdx = r.readBits(5);
  } else {
    let decoderModelInfoPresent = false;
    let bufferDelayLength = 0;
    if (r.readFlag()) {
      const unitsInDisplayTick = r.readBits(32);
      const timeScale = r.readBits(32);
      if (r.readFlag()) {
        const ticksPerPicture = readUvlc(r) + 1;
        if (unitsInDisplayTick > 0 && timeScale > 0) {
          fps = Math.round((timeScale / (unitsInDisplayTick * ticksPerPicture)) * 1000) / 1000;
        }
      }
      decoderModelInfoPresent = r.readFlag();
      if (decoderModelInfoPresent) {
        bufferDelayLength = r.readBits(5) + 1;
        r.skipBits(32 + 5 + 5);
      }
    }
    const initialDisplayDelayPresent = r.readFlag();
    const operatingPoints = r.readBits(5) + 1;
    for (let i = 0; i < operatingPoints; i++) {
      r.skipBits(12);
      const level = r.readBits(5);
      const tier = level > 7 ? r.readBit() : 0;
      if (i === 0) {
        seqLevelIdx = level;
        seqTier = tier;
      }
      if (decoderModelInfoPresent && r.readFlag()) {
        r.skipBits(2 * bufferDelayLength + 1);
      }
      if (initialDisplayDelayPresent && r.readFlag()) {
        r.skipBits(4);
      }
    }
  }
  const widthBits = r.readBits(4) + 1;
  const heightBits = r.readBits(4) + 1;
  const maxFrameWidth = r.readBits(widthBits) + 1;
  const maxFrameHeight = r.readBits(heightBits) + 1;
  if (maxFrameWidth > MAX_VIDEO_DIMENSION || maxFrameHeight > MAX_VIDEO_DIMENSION) {
    throw new UnsupportedError(`AV1 frame ${maxFrameWidth}x${maxFrameHeight} exceeds ${MAX_VIDEO_DIMENSION}`);
  }
  const frameIdNumbersPresent = reducedStillPictureHeader ? false : r.readFlag();
  if (frameIdNumbersPresent) {
    r.skipBits(4 + 3);
  }
  r.skipBits(3);
  if (!reducedStillPictureHeader) {
    r.skipBits(4);
    const enableOrderHint = r.readFlag();
    if (enableOrderHint) {
      r.skipBits(2);
    }
    const forceScreenContentTools = r.readFlag() ? 2 : r.readBit();
    if (forceScreenContentTools > 0 && !r.readFlag()) {
      r.skipBits(1);
    }
    if (enableOrderHint) {
      r.skipBits(3);
    }
  }
  r.skipBits(3);
  const color = readColorConfig(r, seqProfile);
  const filmGrainParamsPresent = r.readFlag();
  return {
    seqProfile,
    stillPicture,
    reducedStillPictureHeader,
    seqLevelIdx,
    seqTier,
    ...color,
    maxFrameWidth,
    maxFrameHeight,
    frameIdNumbersPresent,
    filmGrainParamsPresent,
    ...(fps === undefined ? {} : { fps }),
  };
}

/** Reads color_config() (§5.5.2). */
function readColorConfig(r: BitReader, seqProfile: number) {
  const highBitdepth = r.readFlag();
  let bitDepth = highBitdepth ? 10 : 8;
  if (seqProfile === 2 && highBitdepth) {
    bitDepth = r.readFlag() ? 12 : 10;
  }
  const monochrome = seqProfile === 1 ? false : r.readFlag();
  const colorDescriptionPresent = r.readFlag();
  let colorPrimaries = 2;
  let transferCharacteristics = 2;
  let matrixCoefficients = 2;
  if (colorDescriptionPresent) {
    colorPrimaries = r.readBits(8);
    transferCharacteristics = r.readBits(8);
    matrixCoefficients = r.readBits(8);
  }
  let colorRange = 0;
  let subsamplingX = 1;
  let subsamplingY = 1;
  let chromaSamplePosition = 0;
  if (monochrome) {
    colorRange = r.readBit();
  } else if (colorPrimaries === 1 && transferCharacteristics === 13 && matrixCoefficients === 0) {
    colorRange = 1;
    subsamplingX = 0;
    subsamplingY = 0;
    r.skipBits(1);
  } else {
    colorRange = r.readBit();
    if (seqProfile === 1) {
      subsamplingX = 0;
      subsamplingY = 0;
    } else if (seqProfile === 2) {
      if (bitDepth === 12) {
        subsamplingX = r.readBit();
        subsamplingY = subsamplingX === 1 ? r.readBit() : 0;
      } else {
        subsamplingY = 0;
      }
    }
    if (subsamplingX === 1 && subsamplingY === 1) {
      chromaSamplePosition = r.readBits(2);
    }
    r.skipBits(1);
  }
  return {
    bitDepth,
    monochrome,
    subsamplingX,
    subsamplingY,
    chromaSamplePosition,
    colorDescriptionPresent,
    colorPrimaries,
    transferCharacteristics,
    matrixCoefficients,
    colorRange,
  };
}

/** The fields of an av1C AV1CodecConfigurationRecord. */
export interface Av1C {
  readonly seqProfile: number;
  readonly seqLevelIdx: number;
  readonly seqTier: number;
  readonly highBitdepth: boolean;
  readonly twelveBit: boolean;
  readonly bitDepth: number;
  readonly monochrome: boolean;
  readonly subsamplingX: number;
  readonly subsamplingY: number;
  readonly chromaSamplePosition: number;
  /** initial_presentation_delay_minus_one + 1, when present. */
  readonly initialPresentationDelay?: number;
  /** configOBUs: the OBUs after the 4 fixed bytes (usually the sequence header). */
  readonly configObus: Uint8Array;
  /** The sequence header found in configOBUs, parsed, when there is one. */
  readonly sequenceHeader?: Av1SequenceHeader;
}

/** Parses an AV1CodecConfigurationRecord (av1C box payload or E-RTMP AV1 sequence start). */
export function parseAv1C(record: Uint8Array): Av1C {
  if (record.length < 4) {
    throw new ParseError(`av1C of ${record.length} bytes is shorter than 4`, 0);
  }
  const r = new BitReader(record.subarray(0, 4));
  if (r.readBit() !== 1) {
    throw new ParseError('av1C marker bit is 0', 0);
  }
  const version = r.readBits(7);
  if (version !== 1) {
    throw new UnsupportedError(`av1C version ${version} (only 1 is defined)`);
  }
  const seqProfile = r.readBits(3);
  const seqLevelIdx = r.readBits(5);
  const seqTier = r.readBit();
  const highBitdepth = r.readFlag();
  const twelveBit = r.readFlag();
  const monochrome = r.readFlag();
  const subsamplingX = r.readBit();
  const subsamplingY = r.readBit();
  const chromaSamplePosition = r.readBits(2);
  r.skipBits(3);
  const delayPresent = r.readFlag();
  const delay = r.readBits(4);
  const configObus = record.subarray(4);
  let sequenceHeader: Av1SequenceHeader | undefined;
  for (const obu of splitObus(configObus)) {
    if (obu.type === OBU.sequenceHeader) {
      sequenceHeader = parseSequenceHeader(obu.payload);
      break;
    }
  }
  return {
    seqProfile,
    seqLevelIdx,
    seqTier,
    highBitdepth,
    twelveBit,
    bitDepth: twelveBit ? 12 : highBitdepth ? 10 : 8,
    monochrome,
    subsamplingX,
    subsamplingY,
    chromaSamplePosition,
    ...(delayPresent ? { initialPresentationDelay: delay + 1 } : {}),
    configObus,
    ...(sequenceHeader ? { sequenceHeader } : {}),
  };
}

/** Builds an av1C from a sequence header OBU (re-framed with a size field, as av1C requires). */
export function buildAv1C(sequenceHeaderObu: Uint8Array): Uint8Array {
  const obu = readObu(sequenceHeaderObu, 0);
  if (obu.type !== OBU.sequenceHeader) {
    throw new ParseError(`OBU type ${obu.type} is not a sequence header`, 0);
  }
  const sh = parseSequenceHeader(obu.payload);
  const size = writeLeb128(obu.payload.length);
  const out = new Uint8Array(4 + 1 + size.length + obu.payload.length);
  out[0] = 0x81;
  out[1] = (sh.seqProfile << 5) | sh.seqLevelIdx;
  out[2] =
    (sh.seqTier << 7) |
    (sh.bitDepth > 8 ? 0x40 : 0) |
    (sh.bitDepth === 12 ? 0x20 : 0) |
    (sh.monochrome ? 0x10 : 0) |
    (sh.subsamplingX << 3) |
    (sh.subsamplingY << 2) |
    sh.chromaSamplePosition;
  out[3] = 0;
  out[4] = (OBU.sequenceHeader << 3) | 0x02;
  out.set(size, 5);
  out.set(obu.payload, 5 + size.length);
  return out;
}

/** The fields an AV1 codec string is made of. */
export interface Av1CodecStringFields {
  readonly seqProfile: number;
  readonly seqLevelIdx: number;
  readonly seqTier: number;
  readonly bitDepth: number;
  readonly monochrome?: boolean;
  readonly subsamplingX?: number;
  readonly subsamplingY?: number;
  readonly chromaSamplePosition?: number;
  readonly colorDescriptionPresent?: boolean;
  readonly colorPrimaries?: number;
  readonly transferCharacteristics?: number;
  readonly matrixCoefficients?: number;
  readonly colorRange?: number;
}

/**
 * Codec string `av01.P.LLT.DD` (e.g. `av01.0.04M.08`); the optional colour fields are appended
 * only when they differ from the defaults (4:2:0, BT.709, limited range).
 */
export function av1CodecString(fields: Av1CodecStringFields): string {
  const two = (value: number) => value.toString().padStart(2, '0');
  const base = `av01.${fields.seqProfile}.${two(fields.seqLevelIdx)}${fields.seqTier ? 'H' : 'M'}.${two(fields.bitDepth)}`;
  const mono = fields.monochrome ? 1 : 0;
  const chroma = `${fields.subsamplingX ?? 1}${fields.subsamplingY ?? 1}${fields.chromaSamplePosition ?? 0}`;
  const described = fields.colorDescriptionPresent === true;
  const cp = described ? (fields.colorPrimaries ?? 1) : 1;
  const tc = described ? (fields.transferCharacteristics ?? 1) : 1;
  const mc = described ? (fields.matrixCoefficients ?? 1) : 1;
  const range = fields.colorRange ?? 0;
  if (mono === 0 && chroma === '110' && cp === 1 && tc === 1 && mc === 1 && range === 0) {
    return base;
  }
  return `${base}.${mono}.${chroma}.${two(cp)}.${two(tc)}.${two(mc)}.${range}`;
}

/** What an av1C says about a video track. */
export interface Av1Description {
  readonly width: number;
  readonly height: number;
  readonly fps?: number;
  readonly codecString: string;
  readonly bitDepth: number;
}

/** Parses an av1C and the sequence header in its configOBUs into what a Track needs. */
export function describeAv1C(record: Uint8Array): Av1Description {
  const av1C = parseAv1C(record);
  const sh = av1C.sequenceHeader;
  if (!sh) {
    throw new ParseError('av1C configOBUs carry no sequence header', 4);
  }
  return {
    width: sh.maxFrameWidth,
    height: sh.maxFrameHeight,
    ...(sh.fps === undefined ? {} : { fps: sh.fps }),
    codecString: av1CodecString(sh),
    bitDepth: sh.bitDepth,
  };
}

/**
 * True when a temporal unit (OBUs with size fields) starts a key frame: the first frame header
 * has show_existing_frame = 0 and frame_type = KEY_FRAME (§5.9.2). Without a frame header, a
 * sequence header counts as a key frame.
 */
export function isKeyframe(temporalUnit: Uint8Array, sequenceHeader?: Av1SequenceHeader): boolean {
  let reduced = sequenceHeader?.reducedStillPictureHeader ?? false;
  let sawSequenceHeader = false;
  for (const obu of splitObus(temporalUnit)) {
    if (obu.type === OBU.sequenceHeader) {
      sawSequenceHeader = true;
      reduced = parseSequenceHeader(obu.payload).reducedStillPictureHeader;
    } else if (obu.type === OBU.frameHeader || obu.type === OBU.frame) {
      if (reduced) {
        return true;
      }
      const first = obu.payload[0];
      if (first === undefined) {
        throw new ParseError('empty frame header OBU', obu.offset);
      }
      const showExistingFrame = (first & 0x80) !== 0;
      return !showExistingFrame && ((first >>> 5) & 3) === 0;
    }
  }
  return sawSequenceHeader;
}
