/**
 * VP9: the VPCodecConfigurationRecord vpcC and codec strings (VP Codec ISO Media File Format
 * Binding v1.0 §2.2, §2.3 / Annex "Codecs Parameter String") and the key frame uncompressed
 * header (VP9 Bitstream & Decoding Process Specification v0.6 §6.2, §7.2).
 */
import { BitReader } from '../bits/bit-reader.js';
import { ParseError, UnsupportedError } from '../errors.js';

/** The fields of a VPCodecConfigurationRecord. */
export interface VpcC {
  readonly profile: number;
  readonly level: number;
  readonly bitDepth: number;
  /** 0 = 4:2:0 vertical, 1 = 4:2:0 colocated, 2 = 4:2:2, 3 = 4:4:4. */
  readonly chromaSubsampling: number;
  readonly videoFullRange: boolean;
  readonly colourPrimaries: number;
  readonly transferCharacteristics: number;
  readonly matrixCoefficients: number;
  readonly codecInitializationData: Uint8Array;
}

/** The 8 fixed bytes of the record before codecInitializationData. */
const RECORD_FIXED = 8;

/**
 * Parses a vpcC. Accepts the box payload (version 1 + flags, then the record; what buildVpcC
 * writes and what E-RTMP `vp09` sequence starts carry) and the bare record.
 */
export function parseVpcC(record: Uint8Array): VpcC {
  let start = 0;
  if (
    record.length >= 4 + RECORD_FIXED &&
    record[0] === 1 &&
    record[1] === 0 &&
    record[2] === 0 &&
    record[3] === 0 &&
    initSizeFits(record, 4)
  ) {
    start = 4;
  } else if (
    record.length >= 4 &&
    record[0] !== undefined &&
    record[0] > 3 &&
    record[1] === 0 &&
    record[2] === 0 &&
    record[3] === 0
  ) {
    throw new UnsupportedError(`vpcC version ${record[0]} (only 1 is supported)`);
  }
  if (record.length < start + RECORD_FIXED) {
    throw new ParseError(`vpcC of ${record.length} bytes is too short`, 0);
  }
  const r = new BitReader(record.subarray(start, start + RECORD_FIXED), start);
  const profile = r.readBits(8);
  const level = r.readBits(8);
  const bitDepth = r.readBits(4);
  const chromaSubsampling = r.readBits(3);
  const videoFullRange = r.readFlag();
  const colourPrimaries = r.readBits(8);
  const transferCharacteristics = r.readBits(8);
  const matrixCoefficients = r.readBits(8);
  const initSize = r.readBits(16);
  const end = start + RECORD_FIXED + initSize;
  if (end > record.length) {
    throw new ParseError(`codecIntializationDataSize ${initSize} overruns the vpcC`, start + 6);
  }
  if (profile > 3) {
    throw new ParseError(`VP9 profile ${profile}`, start);
  }
  if (bitDepth !== 8 && bitDepth !== 10 && bitDepth !== 12) {
    throw new ParseError(`vpcC bitDepth ${bitDepth}`, start + 2);
  }
  if (chromaSubsampling > 3) {
    throw new ParseError(`vpcC chromaSubsampling ${chromaSubsampling}`, start + 2);
  }
  return {
    profile,
    level,
    bitDepth,
    chromaSubsampling,
    videoFullRange,
    colourPrimaries,
    transferCharacteristics,
    matrixCoefficients,
    codecInitializationData: record.subarray(start + RECORD_FIXED, end),
  };
}

/** True when the record at `start` has a codecIntializationDataSize matching the remaining bytes. */
function initSizeFits(record: Uint8Array, start: number): boolean {
  const size = ((record[start + 6] ?? 0) << 8) | (record[start + 7] ?? 0);
  return start + RECORD_FIXED + size === record.length;
}

/** What buildVpcC needs; colour fields default to BT.709 limited range, 4:2:0 colocated. */
export interface VpcCFields {
  readonly profile: number;
  readonly level: number;
  readonly bitDepth: number;
  readonly chromaSubsampling?: number;
  readonly videoFullRange?: boolean;
  readonly colourPrimaries?: number;
  readonly transferCharacteristics?: number;
  readonly matrixCoefficients?: number;
}

/** Builds the vpcC box payload: version 1, flags 0, then the record without initialization data. */
export function buildVpcC(fields: VpcCFields): Uint8Array {
  const out = new Uint8Array(4 + RECORD_FIXED);
  out[0] = 1;
  out[4] = fields.profile;
  out[5] = fields.level;
  out[6] = ((fields.bitDepth & 0x0f) << 4) | ((fields.chromaSubsampling ?? 1) << 1) | (fields.videoFullRange ? 1 : 0);
  out[7] = fields.colourPrimaries ?? 1;
  out[8] = fields.transferCharacteristics ?? 1;
  out[9] = fields.matrixCoefficients ?? 1;
  return out;
}

/**
 * Codec string `vp09.PP.LL.DD` (e.g. `vp09.00.10.08`); the optional fields are appended only
 * when they differ from the defaults (4:2:0 colocated, BT.709 or unspecified, limited range).
 */
export function vp9CodecString(fields: VpcCFields): string {
  const two = (value: number) => value.toString().padStart(2, '0');
  const base = `vp09.${two(fields.profile)}.${two(fields.level)}.${two(fields.bitDepth)}`;
  const chroma = fields.chromaSubsampling ?? 1;
  const cp = specified(fields.colourPrimaries);
  const tc = specified(fields.transferCharacteristics);
  const mc = specified(fields.matrixCoefficients);
  const range = fields.videoFullRange ? 1 : 0;
  if (chroma === 1 && cp === 1 && tc === 1 && mc === 1 && range === 0) {
    return base;
  }
  return `${base}.${two(chroma)}.${two(cp)}.${two(tc)}.${two(mc)}.${two(range)}`;
}

/** A colour code for the codec string: 2 (unspecified) and absent both mean the default 1. */
function specified(value: number | undefined): number {
  return value === undefined || value === 2 ? 1 : value;
}

/** What the uncompressed header of a VP9 key frame says. */
export interface Vp9FrameInfo {
  readonly profile: number;
  readonly width: number;
  readonly height: number;
  readonly bitDepth: number;
  /** color_space (0 = unknown, 1 = BT.601, 2 = BT.709, ..., 7 = sRGB). */
  readonly colorSpace: number;
  readonly fullRange: boolean;
  readonly subsamplingX: number;
  readonly subsamplingY: number;
}

/** Parses the uncompressed header of a VP9 frame; returns undefined for frames that are not key frames. */
export function parseFrameSize(frame: Uint8Array): Vp9FrameInfo | undefined {
  const r = new BitReader(frame);
  if (r.readBits(2) !== 2) {
    throw new ParseError('VP9 frame_marker is not 2', 0);
  }
  const low = r.readBit();
  const profile = (r.readBit() << 1) | low;
  if (profile === 3 && r.readBit() !== 0) {
    throw new ParseError('VP9 reserved_zero bit set', 0);
  }
  if (r.readFlag()) {
    return undefined;
  }
  if (r.readBit() !== 0) {
    return undefined;
  }
  r.skipBits(2);
  if (r.readBits(24) !== 0x498342) {
    throw new ParseError('VP9 key frame without frame_sync_code', r.offset());
  }
  const bitDepth = profile >= 2 ? (r.readFlag() ? 12 : 10) : 8;
  const colorSpace = r.readBits(3);
  let fullRange = true;
  let subsamplingX = 1;
  let subsamplingY = 1;
  if (colorSpace !== 7) {
    fullRange = r.readFlag();
    if (profile === 1 || profile === 3) {
      subsamplingX = r.readBit();
      subsamplingY = r.readBit();
      r.skipBits(1);
    }
  } else {
    if (profile === 0 || profile === 2) {
      throw new ParseError('VP9 sRGB requires profile 1 or 3', r.offset());
    }
    subsamplingX = 0;
    subsamplingY = 0;
    r.skipBits(1);
  }
  const width = r.readBits(16) + 1;
  const height = r.readBits(16) + 1;
  return { profile, width, height, bitDepth, colorSpace, fullRange, subsamplingX, subsamplingY };
}

/** What a vpcC (plus, for the picture size, a key frame) says about a video track. */
export interface Vp9Description {
  /** From the key frame when one was given, else undefined (vpcC carries no size). */
  readonly width?: number;
  readonly height?: number;
  readonly codecString: string;
  readonly profile: number;
  readonly level: number;
  readonly bitDepth: number;
}

/** Describes a vpcC; pass the first key frame to learn the picture size. */
export function describeVpcC(record: Uint8Array, keyFrame?: Uint8Array): Vp9Description {
  const vpcC = parseVpcC(record);
  const frame = keyFrame ? parseFrameSize(keyFrame) : undefined;
  return {
    ...(frame ? { width: frame.width, height: frame.height } : {}),
    codecString: vp9CodecString(vpcC),
    profile: vpcC.profile,
    level: vpcC.level,
    bitDepth: vpcC.bitDepth,
  };
}

/** True when a VP9 frame (or superframe, whose first frame decides) is a key frame. */
export function isKeyframe(frame: Uint8Array): boolean {
  return parseFrameSize(frame) !== undefined;
}

/** VP9 levels (VP9 Bitstream spec Annex A): level × 10, max luma sample rate, max luma picture size. */
const VP9_LEVELS: readonly (readonly [number, number, number])[] = [
  [10, 829_440, 36_864],
  [11, 2_764_800, 73_728],
  [20, 4_608_000, 122_880],
  [21, 9_216_000, 245_760],
  [30, 20_736_000, 552_960],
  [31, 36_864_000, 983_040],
  [40, 83_558_400, 2_228_224],
  [41, 160_432_128, 2_228_224],
  [50, 311_951_360, 8_912_896],
  [51, 588_251_136, 8_912_896],
  [52, 1_176_502_272, 8_912_896],
  [60, 1_176_502_272, 35_651_584],
  [61, 2_353_004_544, 35_651_584],
  [62, 4_706_009_088, 35_651_584],
];

/** The lowest VP9 level (vpcC form, e.g. 31 for 3.1) whose limits a picture size and frame rate fit. */
export function vp9LevelFor(width: number, height: number, fps: number): number {
  const picture = width * height;
  const rate = picture * fps;
  const level = VP9_LEVELS.find(([, maxRate, maxPicture]) => picture <= maxPicture && rate <= maxRate);
  return level ? level[0] : 62;
}

/** vpcC colour fields for a VP9 key frame's color_space (VP9 spec §7.2.2; ISO/IEC 23091-2 code points). */
export function vpcCFieldsFromFrame(frame: Vp9FrameInfo, level: number): VpcCFields {
  const matrix = [2, 6, 1, 6, 7, 9, 2, 0][frame.colorSpace] ?? 2;
  const chroma = frame.subsamplingX === 1 ? (frame.subsamplingY === 1 ? 1 : 2) : 3;
  return {
    profile: frame.profile,
    level,
    bitDepth: frame.bitDepth,
    chromaSubsampling: chroma,
    videoFullRange: frame.fullRange,
    colourPrimaries: frame.colorSpace === 7 ? 1 : 2,
    transferCharacteristics: frame.colorSpace === 7 ? 13 : 2,
    matrixCoefficients: matrix,
  };
}
