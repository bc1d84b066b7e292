/**
 * H.264 / AVC: sequence parameter set (ITU-T H.264 §7.3.2.1.1, VUI §E.1.1), the decoder
 * configuration record avcC (ISO/IEC 14496-15 §5.3.3.1) and RFC 6381 §3.3 codec strings.
 */
import { BitReader } from '../bits/bit-reader.js';
import { ParseError, UnsupportedError } from '../errors.js';
import { checkLengthSize, removeEmulationPrevention, splitLengthPrefixed } from './nal.js';
import {
  type ParameterSetDescription,
  readU16PrefixedList,
  u16PrefixedSize,
  writeU16Prefixed,
} from './parameter-sets.js';
import { MAX_VIDEO_DIMENSION, roundFps } from './video-limits.js';
import {
  readAspectRatioInfo,
  readTickRate,
  readUntilTruncated,
  type SampleAspectRatio,
  skipVuiSignalInfo,
} from './vui.js';

/** NAL unit types used by the media plane (H.264 Table 7-1). */
export const H264_NAL = { slice: 1, idr: 5, sei: 6, sps: 7, pps: 8, aud: 9 } as const;

/** What an H.264 SPS says about the picture. */
export interface H264Sps {
  readonly profileIdc: number;
  /** constraint_set0..5 flags and the two reserved bits, as the byte after profile_idc. */
  readonly constraintFlags: number;
  readonly levelIdc: number;
  readonly spsId: number;
  /** Display width after frame cropping. */
  readonly width: number;
  /** Display height after frame cropping. */
  readonly height: number;
  /** Frames per second from VUI timing (time_scale / (2 · num_units_in_tick)) when present. */
  readonly fps?: number;
  readonly bitDepth: number;
  readonly bitDepthChroma: number;
  readonly chromaFormatIdc: number;
  /** False for interlaced (field or MBAFF) coding. */
  readonly frameMbsOnly: boolean;
  /** Sample aspect ratio from the VUI, when signalled. */
  readonly sar?: SampleAspectRatio;
  /**
   * max_num_reorder_frames of the VUI bitstream restriction (§E.1.1, semantics §E.2.1): how many
   * frames may precede a frame in decode order and follow it in output order; absent when not signalled.
   */
  readonly maxNumReorderFrames?: number;
}

/** Profiles whose SPS carries chroma format, bit depth and scaling matrices. */
const HIGH_PROFILES = new Set([100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135]);

/** Returns nal_unit_type of an H.264 NAL unit (first byte after any start code). */
export function nalType(nal: Uint8Array): number {
  const first = nal[0];
  if (first === undefined) {
    throw new ParseError('empty NAL unit', 0);
  }
  return first & 0x1f;
}

/** Parses an SPS NAL unit (with its one-byte NAL header). */
export function parseSps(nal: Uint8Array): H264Sps {
  if (nalType(nal) !== H264_NAL.sps) {
    throw new ParseError(`NAL type ${nalType(nal)} is not an SPS`, 0);
  }
  if (((nal[0] as number) & 0x80) !== 0) {
    throw new ParseError('forbidden_zero_bit set in SPS NAL header', 0);
  }
  const r = new BitReader(removeEmulationPrevention(nal.subarray(1)), 1);
  const profileIdc = r.readBits(8);
  const constraintFlags = r.readBits(8);
  const levelIdc = r.readBits(8);
  const spsId = r.readUEMax(31, 'seq_parameter_set_id');
  let chromaFormatIdc = 1;
  let separateColourPlane = false;
  let bitDepth = 8;
  let bitDepthChroma = 8;
  if (HIGH_PROFILES.has(profileIdc)) {
    chromaFormatIdc = r.readUEMax(3, 'chroma_format_idc');
    if (chromaFormatIdc === 3) {
      separateColourPlane = r.readFlag();
    }
    bitDepth = 8 + r.readUEMax(6, 'bit_depth_luma_minus8');
    bitDepthChroma = 8 + r.readUEMax(6, 'bit_depth_chroma_minus8');
    r.skipBits(1);
    if (r.readFlag()) {
      const lists = chromaFormatIdc === 3 ? 12 : 8;
      for (let i = 0; i < lists; i++) {
        if (r.readFlag()) {
          skipScalingList(r, i < 6 ? 16 : 64);
        }
      }
    }
  }
  r.readUEMax(12, 'log2_max_frame_num_minus4');
  const pocType = r.readUEMax(2, 'pic_order_cnt_type');
  if (pocType === 0) {
    r.readUEMax(12, 'log2_max_pic_order_cnt_lsb_minus4');
  } else if (pocType === 1) {
    r.skipBits(1);
    r.readSE();
    r.readSE();
    const cycle = r.readUEMax(255, 'num_ref_frames_in_pic_order_cnt_cycle');
    for (let i = 0; i < cycle; i++) {
      r.readSE();
    }
  }
  r.readUEMax(16, 'max_num_ref_frames');
  r.skipBits(1);
  const widthMbs = r.readUE() + 1;
  const heightMapUnits = r.readUE() + 1;
  const frameMbsOnly = r.readFlag();
  if (!frameMbsOnly) {
    r.skipBits(1);
  }
  r.skipBits(1);
  const chromaArrayType = separateColourPlane ? 0 : chromaFormatIdc;
  const cropUnitX = chromaArrayType === 0 ? 1 : chromaFormatIdc === 3 ? 1 : 2;
  const cropUnitY = (chromaArrayType === 0 ? 1 : chromaFormatIdc === 1 ? 2 : 1) * (frameMbsOnly ? 1 : 2);
  const codedWidth = widthMbs * 16;
  const codedHeight = heightMapUnits * 16 * (frameMbsOnly ? 1 : 2);
  if (codedWidth > MAX_VIDEO_DIMENSION || codedHeight > MAX_VIDEO_DIMENSION) {
    throw new UnsupportedError(`picture ${codedWidth}x${codedHeight} exceeds ${MAX_VIDEO_DIMENSION} in a dimension`);
  }
  let width = codedWidth;
  let height = codedHeight;
  if (r.readFlag()) {
    const left = r.readUE();
    const right = r.readUE();
    const top = r.readUE();
    const bottom = r.readUE();
    width = codedWidth - cropUnitX * (left + right);
    height = codedHeight - cropUnitY * (top + bottom);
    if (width <= 0 || height <= 0) {
      throw new ParseError(`frame cropping leaves ${width}x${height} of ${codedWidth}x${codedHeight}`, r.offset());
    }
  }
  const vui = r.readFlag() ? readVui(r) : {};
  return {
    profileIdc,
    constraintFlags,
    levelIdc,
    spsId,
    width,
    height,
    ...vui,
    bitDepth,
    bitDepthChroma,
    chromaFormatIdc,
    frameMbsOnly,
  };
}

/** Skips scaling_list() of §7.3.2.1.1.1. */
function skipScalingList(r: BitReader, size: number): void {
  let last = 8;
  let next = 8;
  for (let j = 0; j < size; j++) {
    if (next !== 0) {
      const delta = r.readSERange(-128, 127, 'delta_scale');
      next = (last + delta + 256) % 256;
    }
    last = next === 0 ? last : next;
  }
}

/** What the SPS reads from vui_parameters(). */
interface H264Vui {
  fps?: number;
  sar?: SampleAspectRatio;
  maxNumReorderFrames?: number;
}

/**
 * Reads vui_parameters() (§E.1.1) for the sample aspect ratio, timing_info and the bitstream
 * restriction's max_num_reorder_frames. A VUI cut short (some encoders truncate it) only loses
 * the optional values not yet read; it does not invalidate the SPS.
 */
function readVui(r: BitReader): H264Vui {
  const out: H264Vui = {};
  readUntilTruncated(() => {
    const sar = readAspectRatioInfo(r);
    if (sar) {
      out.sar = sar;
    }
    skipVuiSignalInfo(r);
    if (r.readFlag()) {
      const ticks = readTickRate(r);
      if (ticks !== undefined) {
        out.fps = roundFps(ticks / 2);
      }
      r.skipBits(1);
    }
    const nalHrd = r.readFlag();
    if (nalHrd) {
      skipHrd(r);
    }
    const vclHrd = r.readFlag();
    if (vclHrd) {
      skipHrd(r);
    }
    if (nalHrd || vclHrd) {
      r.skipBits(1);
    }
    r.skipBits(1);
    if (r.readFlag()) {
      r.skipBits(1);
      for (let i = 0; i < 4; i++) {
        r.readUE();
      }
      out.maxNumReorderFrames = r.readUEMax(16, 'max_num_reorder_frames');
      r.readUEMax(16, 'max_dec_frame_buffering');
    }
  });
  return out;
}

/** Skips hrd_parameters() (§E.1.2). */
function skipHrd(r: BitReader): void {
  const count = r.readUEMax(31, 'cpb_cnt_minus1') + 1;
  r.skipBits(8);
  for (let i = 0; i < count; i++) {
    r.readUE();
    r.readUE();
    r.skipBits(1);
  }
  r.skipBits(20);
}

/** The fields of an avcC AVCDecoderConfigurationRecord. */
export interface AvcC {
  readonly profile: number;
  readonly compatibility: number;
  readonly level: number;
  /** Size in bytes of the NAL length prefix of every sample (1, 2 or 4). */
  readonly lengthSize: number;
  readonly sps: Uint8Array[];
  readonly pps: Uint8Array[];
}

/** Parses an AVCDecoderConfigurationRecord (avcC box payload, or an FLV AVC sequence header body). */
export function parseAvcC(record: Uint8Array): AvcC {
  if (record.length < 7) {
    throw new ParseError(`avcC of ${record.length} bytes is shorter than 7`, 0);
  }
  if (record[0] !== 1) {
    throw new UnsupportedError(`avcC configurationVersion ${record[0]} (only 1 is defined)`);
  }
  const profile = record[1] as number;
  const compatibility = record[2] as number;
  const level = record[3] as number;
  const lengthSize = ((record[4] as number) & 3) + 1;
  checkLengthSize(lengthSize);
  const [sps, afterSps] = readU16PrefixedList(record, 6, (record[5] as number) & 0x1f);
  if (afterSps >= record.length) {
    throw new ParseError('avcC ends before numOfPictureParameterSets', afterSps);
  }
  const [pps] = readU16PrefixedList(record, afterSps + 1, record[afterSps] as number);
  return { profile, compatibility, level, lengthSize, sps, pps };
}

/** Builds an avcC record (4-byte NAL lengths) from SPS and PPS NAL units, with the High-profile extension. */
export function buildAvcC(sps: readonly Uint8Array[], pps: readonly Uint8Array[]): Uint8Array {
  const first = sps[0];
  if (!first) {
    throw new ParseError('avcC needs at least one SPS');
  }
  if (sps.length > 31 || pps.length > 255) {
    throw new ParseError(`avcC holds at most 31 SPS and 255 PPS, got ${sps.length} and ${pps.length}`);
  }
  const parsed = parseSps(first);
  const ext = [100, 110, 122, 144].includes(parsed.profileIdc);
  const size = 7 + u16PrefixedSize(sps) + u16PrefixedSize(pps) + (ext ? 4 : 0);
  const out = new Uint8Array(size);
  out[0] = 1;
  out[1] = parsed.profileIdc;
  out[2] = parsed.constraintFlags;
  out[3] = parsed.levelIdc;
  out[4] = 0xfc | 3;
  out[5] = 0xe0 | sps.length;
  let offset = writeU16Prefixed(out, 6, sps);
  out[offset++] = pps.length;
  offset = writeU16Prefixed(out, offset, pps);
  if (ext) {
    out[offset++] = 0xfc | parsed.chromaFormatIdc;
    out[offset++] = 0xf8 | (parsed.bitDepth - 8);
    out[offset++] = 0xf8 | (parsed.bitDepthChroma - 8);
    out[offset++] = 0;
  }
  return out;
}

/** RFC 6381 codec string `avc1.PPCCLL` (hex profile, constraint flags, level). */
export function avcCodecString(profile: number, compatibility: number, level: number, sampleEntry = 'avc1'): string {
  const hex = (value: number) => (value & 0xff).toString(16).padStart(2, '0');
  return `${sampleEntry}.${hex(profile)}${hex(compatibility)}${hex(level)}`;
}

/** Parses an avcC and its first SPS into what a Track needs. */
export function describeAvcC(record: Uint8Array): ParameterSetDescription {
  const avcC = parseAvcC(record);
  const first = avcC.sps[0];
  if (!first) {
    throw new ParseError('avcC has no SPS', 5);
  }
  const sps = parseSps(first);
  return {
    width: sps.width,
    height: sps.height,
    ...(sps.fps === undefined ? {} : { fps: sps.fps }),
    codecString: avcCodecString(avcC.profile, avcC.compatibility, avcC.level),
    profile: avcC.profile,
    level: avcC.level,
    bitDepth: sps.bitDepth,
    chromaFormatIdc: sps.chromaFormatIdc,
    lengthSize: avcC.lengthSize,
  };
}

/** True when a length-prefixed access unit contains an IDR slice. */
export function isKeyframe(lengthPrefixedAccessUnit: Uint8Array, lengthSize = 4): boolean {
  return splitLengthPrefixed(lengthPrefixedAccessUnit, lengthSize).some((nal) => nalType(nal) === H264_NAL.idr);
}
