/**
 * H.265 / HEVC: NAL header (ITU-T H.265 §7.3.1.2), profile_tier_level (§7.3.3), sequence
 * parameter set (§7.3.2.2, st_ref_pic_set §7.3.7, VUI §E.2.1), the decoder configuration
 * record hvcC (ISO/IEC 14496-15 §8.3.3) and codec strings (ISO/IEC 14496-15 Annex E).
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
import { readAspectRatioInfo, readTickRate, readUntilTruncated, skipVuiSignalInfo } from './vui.js';

/** NAL unit types used by the media plane (H.265 Table 7-1). */
export const H265_NAL = {
  bla_w_lp: 16,
  idr_w_radl: 19,
  idr_n_lp: 20,
  cra: 21,
  vps: 32,
  sps: 33,
  pps: 34,
  aud: 35,
  prefixSei: 39,
  suffixSei: 40,
} as const;

/** general profile, tier and level (§7.3.3), as hvcC and the codec string carry them. */
export interface H265ProfileTierLevel {
  readonly profileSpace: number;
  readonly tierFlag: boolean;
  readonly profileIdc: number;
  /** general_profile_compatibility_flag[0..31], flag j at bit 31 - j (as stored). */
  readonly compatibilityFlags: number;
  /** The 48 bits from general_progressive_source_flag on, as 6 bytes. */
  readonly constraintFlags: Uint8Array;
  readonly levelIdc: number;
}

/** What an H.265 SPS says about the picture. */
export interface H265Sps extends H265ProfileTierLevel {
  readonly spsId: number;
  readonly maxSubLayers: number;
  readonly temporalIdNesting: boolean;
  readonly chromaFormatIdc: number;
  /** Width after the conformance window. */
  readonly width: number;
  /** Height after the conformance window. */
  readonly height: number;
  readonly bitDepth: number;
  readonly bitDepthChroma: number;
  /** Frames per second from VUI timing (time_scale / num_units_in_tick) when present. */
  readonly fps?: number;
  /** min_spatial_segmentation_idc from the VUI bitstream restriction, 0 when absent. */
  readonly minSpatialSegmentationIdc: number;
  /**
   * sps_max_num_reorder_pics[HighestTid] (§7.3.2.2, semantics §7.4.3.2.1): how many pictures may
   * precede a picture in decode order and follow it in output order.
   */
  readonly maxNumReorderPics: number;
}

/** Returns nal_unit_type of an H.265 NAL unit (two-byte header). */
export function nalType(nal: Uint8Array): number {
  const first = nal[0];
  if (first === undefined || nal.length < 2) {
    throw new ParseError('H.265 NAL unit shorter than its 2-byte header', 0);
  }
  return (first >>> 1) & 0x3f;
}

/** Reads profile_tier_level(1, maxSubLayersMinus1) and returns the general part. */
function readProfileTierLevel(r: BitReader, maxSubLayersMinus1: number): H265ProfileTierLevel {
  const profileSpace = r.readBits(2);
  const tierFlag = r.readFlag();
  const profileIdc = r.readBits(5);
  const compatibilityFlags = r.readBits(32);
  const constraintFlags = new Uint8Array(6);
  for (let i = 0; i < 6; i++) {
    constraintFlags[i] = r.readBits(8);
  }
  const levelIdc = r.readBits(8);
  const profilePresent: boolean[] = [];
  const levelPresent: boolean[] = [];
  for (let i = 0; i < maxSubLayersMinus1; i++) {
    profilePresent.push(r.readFlag());
    levelPresent.push(r.readFlag());
  }
  if (maxSubLayersMinus1 > 0) {
    r.skipBits(2 * (8 - maxSubLayersMinus1));
  }
  for (let i = 0; i < maxSubLayersMinus1; i++) {
    if (profilePresent[i]) {
      r.skipBits(88);
    }
    if (levelPresent[i]) {
      r.skipBits(8);
    }
  }
  return { profileSpace, tierFlag, profileIdc, compatibilityFlags, constraintFlags, levelIdc };
}

/** Skips scaling_list_data() (§7.3.4). */
function skipScalingListData(r: BitReader): void {
  for (let sizeId = 0; sizeId < 4; sizeId++) {
    for (let matrixId = 0; matrixId < 6; matrixId += sizeId === 3 ? 3 : 1) {
      if (!r.readFlag()) {
        r.readUEMax(matrixId, 'scaling_list_pred_matrix_id_delta');
      } else {
        const coefficients = Math.min(64, 1 << (4 + (sizeId << 1)));
        if (sizeId > 1) {
          r.readSERange(-7, 247, 'scaling_list_dc_coef_minus8');
        }
        for (let i = 0; i < coefficients; i++) {
          r.readSERange(-128, 127, 'scaling_list_delta_coef');
        }
      }
    }
  }
}

/** A short-term reference picture set: POC deltas before (s0) and after (s1) the current picture. */
interface RefPicSet {
  readonly s0: number[];
  readonly s1: number[];
}

/** Largest number of pictures in one reference picture set (MaxDpbSize). */
const MAX_REF_PICS = 16;

/** Reads st_ref_pic_set(index) of an SPS (§7.3.7) and derives its deltas (§7.4.8). */
function readStRefPicSet(r: BitReader, index: number, previous: readonly RefPicSet[]): RefPicSet {
  if (index !== 0 && r.readFlag()) {
    const reference = previous[index - 1];
    if (!reference) {
      throw new ParseError('st_ref_pic_set predicts from a missing set', r.offset());
    }
    const sign = r.readBit();
    const deltaRps = (1 - 2 * sign) * (r.readUEMax(2 ** 15 - 1, 'abs_delta_rps_minus1') + 1);
    const count = reference.s0.length + reference.s1.length;
    const useDelta: boolean[] = [];
    for (let j = 0; j <= count; j++) {
      const used = r.readFlag();
      useDelta.push(used ? true : r.readFlag());
    }
    const negatives = reference.s0.length;
    const s0: number[] = [];
    const s1: number[] = [];
    for (let j = reference.s1.length - 1; j >= 0; j--) {
      const dPoc = (reference.s1[j] as number) + deltaRps;
      if (dPoc < 0 && useDelta[negatives + j]) {
        s0.push(dPoc);
      }
    }
    if (deltaRps < 0 && useDelta[count]) {
      s0.push(deltaRps);
    }
    for (let j = 0; j < negatives; j++) {
      const dPoc = (reference.s0[j] as number) + deltaRps;
      if (dPoc < 0 && useDelta[j]) {
        s0.push(dPoc);
      }
    }
    for (let j = negatives - 1; j >= 0; j--) {
      const dPoc = (reference.s0[j] as number) + deltaRps;
      if (dPoc > 0 && useDelta[j]) {
        s1.push(dPoc);
      }
    }
    if (deltaRps > 0 && useDelta[count]) {
      s1.push(deltaRps);
    }
    for (let j = 0; j < reference.s1.length; j++) {
      const dPoc = (reference.s1[j] as number) + deltaRps;
      if (dPoc > 0 && useDelta[negatives + j]) {
        s1.push(dPoc);
      }
    }
    if (s0.length + s1.length > MAX_REF_PICS) {
      throw new ParseError(`reference picture set of ${s0.length + s1.length} pictures`, r.offset());
    }
    return { s0, s1 };
  }
  const negatives = r.readUEMax(MAX_REF_PICS, 'num_negative_pics');
  const positives = r.readUEMax(MAX_REF_PICS - negatives, 'num_positive_pics');
  const s0: number[] = [];
  const s1: number[] = [];
  let poc = 0;
  for (let i = 0; i < negatives; i++) {
    poc -= r.readUEMax(2 ** 15 - 1, 'delta_poc_s0_minus1') + 1;
    r.skipBits(1);
    s0.push(poc);
  }
  poc = 0;
  for (let i = 0; i < positives; i++) {
    poc += r.readUEMax(2 ** 15 - 1, 'delta_poc_s1_minus1') + 1;
    r.skipBits(1);
    s1.push(poc);
  }
  return { s0, s1 };
}

/** Parses an SPS NAL unit (with its two-byte NAL header). */
export function parseSps(nal: Uint8Array): H265Sps {
  if (nalType(nal) !== H265_NAL.sps) {
    throw new ParseError(`NAL type ${nalType(nal)} is not an SPS`, 0);
  }
  const r = new BitReader(removeEmulationPrevention(nal.subarray(2)), 2);
  r.skipBits(4);
  const maxSubLayersMinus1 = r.readBits(3);
  if (maxSubLayersMinus1 > 6) {
    throw new ParseError(`sps_max_sub_layers_minus1 = ${maxSubLayersMinus1}`, 2);
  }
  const temporalIdNesting = r.readFlag();
  const ptl = readProfileTierLevel(r, maxSubLayersMinus1);
  const spsId = r.readUEMax(15, 'sps_seq_parameter_set_id');
  const chromaFormatIdc = r.readUEMax(3, 'chroma_format_idc');
  let separateColourPlane = false;
  if (chromaFormatIdc === 3) {
    separateColourPlane = r.readFlag();
  }
  const codedWidth = r.readUE();
  const codedHeight = r.readUE();
  if (codedWidth === 0 || codedHeight === 0) {
    throw new ParseError(`picture size ${codedWidth}x${codedHeight}`, r.offset());
  }
  if (codedWidth > MAX_VIDEO_DIMENSION || codedHeight > MAX_VIDEO_DIMENSION) {
    throw new UnsupportedError(`picture ${codedWidth}x${codedHeight} exceeds ${MAX_VIDEO_DIMENSION} in a dimension`);
  }
  let width = codedWidth;
  let height = codedHeight;
  if (r.readFlag()) {
    const chromaArrayType = separateColourPlane ? 0 : chromaFormatIdc;
    const subWidth = chromaArrayType === 1 || chromaArrayType === 2 ? 2 : 1;
    const subHeight = chromaArrayType === 1 ? 2 : 1;
    const left = r.readUE();
    const right = r.readUE();
    const top = r.readUE();
    const bottom = r.readUE();
    width = codedWidth - subWidth * (left + right);
    height = codedHeight - subHeight * (top + bottom);
    if (width <= 0 || height <= 0) {
      throw new ParseError(`conformance window leaves ${width}x${height} of ${codedWidth}x${codedHeight}`, r.offset());
    }
  }
  const bitDepth = 8 + r.readUEMax(8, 'bit_depth_luma_minus8');
  const bitDepthChroma = 8 + r.readUEMax(8, 'bit_depth_chroma_minus8');
  const log2MaxPocLsb = 4 + r.readUEMax(12, 'log2_max_pic_order_cnt_lsb_minus4');
  const orderingInfoPresent = r.readFlag();
  let maxNumReorderPics = 0;
  for (let i = orderingInfoPresent ? 0 : maxSubLayersMinus1; i <= maxSubLayersMinus1; i++) {
    r.readUE();
    maxNumReorderPics = r.readUE();
    r.readUE();
  }
  r.readUEMax(3, 'log2_min_luma_coding_block_size_minus3');
  r.readUEMax(6, 'log2_diff_max_min_luma_coding_block_size');
  r.readUEMax(3, 'log2_min_luma_transform_block_size_minus2');
  r.readUEMax(3, 'log2_diff_max_min_luma_transform_block_size');
  r.readUE();
  r.readUE();
  if (r.readFlag() && r.readFlag()) {
    skipScalingListData(r);
  }
  r.skipBits(2);
  if (r.readFlag()) {
    r.skipBits(8);
    r.readUE();
    r.readUE();
    r.skipBits(1);
  }
  const setCount = r.readUEMax(64, 'num_short_term_ref_pic_sets');
  const sets: RefPicSet[] = [];
  for (let i = 0; i < setCount; i++) {
    sets.push(readStRefPicSet(r, i, sets));
  }
  if (r.readFlag()) {
    const longTerm = r.readUEMax(32, 'num_long_term_ref_pics_sps');
    for (let i = 0; i < longTerm; i++) {
      r.skipBits(log2MaxPocLsb + 1);
    }
  }
  r.skipBits(2);
  const vui = r.readFlag() ? readVui(r, maxSubLayersMinus1) : {};
  return {
    ...ptl,
    spsId,
    maxSubLayers: maxSubLayersMinus1 + 1,
    temporalIdNesting,
    chromaFormatIdc,
    width,
    height,
    bitDepth,
    bitDepthChroma,
    ...(vui.fps === undefined ? {} : { fps: vui.fps }),
    minSpatialSegmentationIdc: vui.minSpatialSegmentationIdc ?? 0,
    maxNumReorderPics,
  };
}

/** Skips hrd_parameters(commonInfPresentFlag = 1, maxSubLayersMinus1) (§E.2.2). */
function skipHrd(r: BitReader, maxSubLayersMinus1: number): void {
  const nalHrd = r.readFlag();
  const vclHrd = r.readFlag();
  let subPicHrd = false;
  if (nalHrd || vclHrd) {
    subPicHrd = r.readFlag();
    if (subPicHrd) {
      r.skipBits(8 + 5 + 1 + 5);
    }
    r.skipBits(4 + 4);
    if (subPicHrd) {
      r.skipBits(4);
    }
    r.skipBits(5 + 5 + 5);
  }
  for (let i = 0; i <= maxSubLayersMinus1; i++) {
    const fixedGeneral = r.readFlag();
    const fixedWithinCvs = fixedGeneral ? true : r.readFlag();
    let lowDelay = false;
    if (fixedWithinCvs) {
      r.readUE();
    } else {
      lowDelay = r.readFlag();
    }
    const cpbCount = lowDelay ? 1 : r.readUEMax(31, 'cpb_cnt_minus1') + 1;
    for (const present of [nalHrd, vclHrd]) {
      if (present) {
        for (let k = 0; k < cpbCount; k++) {
          r.readUE();
          r.readUE();
          if (subPicHrd) {
            r.readUE();
            r.readUE();
          }
          r.skipBits(1);
        }
      }
    }
  }
}

/**
 * Reads vui_parameters() (§E.2.1) for timing and min_spatial_segmentation_idc. A VUI cut short
 * only loses these optional values.
 */
function readVui(r: BitReader, maxSubLayersMinus1: number): { fps?: number; minSpatialSegmentationIdc?: number } {
  const out: { fps?: number; minSpatialSegmentationIdc?: number } = {};
  readUntilTruncated(() => {
    readAspectRatioInfo(r);
    skipVuiSignalInfo(r);
    r.skipBits(3);
    if (r.readFlag()) {
      r.readUE();
      r.readUE();
      r.readUE();
      r.readUE();
    }
    if (r.readFlag()) {
      const ticks = readTickRate(r);
      if (ticks !== undefined) {
        out.fps = roundFps(ticks);
      }
      if (r.readFlag()) {
        r.readUE();
      }
      if (r.readFlag()) {
        skipHrd(r, maxSubLayersMinus1);
      }
    }
    if (r.readFlag()) {
      r.skipBits(3);
      out.minSpatialSegmentationIdc = r.readUEMax(4095, 'min_spatial_segmentation_idc');
    }
  });
  return out;
}

/** One NAL array of an hvcC. */
export interface HvcCArray {
  readonly completeness: boolean;
  readonly nalType: number;
  readonly nals: Uint8Array[];
}

/** The fields of an hvcC HEVCDecoderConfigurationRecord. */
export interface HvcC extends H265ProfileTierLevel {
  readonly minSpatialSegmentationIdc: number;
  readonly parallelismType: number;
  readonly chromaFormatIdc: number;
  readonly bitDepth: number;
  readonly bitDepthChroma: number;
  /** Frames per 256 seconds, 0 when unspecified. */
  readonly avgFrameRate: number;
  readonly constantFrameRate: number;
  readonly numTemporalLayers: number;
  readonly temporalIdNested: boolean;
  /** Size in bytes of the NAL length prefix of every sample (1, 2 or 4). */
  readonly lengthSize: number;
  readonly arrays: HvcCArray[];
  readonly vps: Uint8Array[];
  readonly sps: Uint8Array[];
  readonly pps: Uint8Array[];
}

/** Length of the fixed part of an hvcC before numOfArrays. */
const HVCC_HEADER = 22;

/** Parses an HEVCDecoderConfigurationRecord (hvcC box payload or E-RTMP HEVC sequence start). */
export function parseHvcC(record: Uint8Array): HvcC {
  if (record.length < HVCC_HEADER + 1) {
    throw new ParseError(`hvcC of ${record.length} bytes is shorter than 23`, 0);
  }
  if (record[0] !== 1) {
    throw new UnsupportedError(`hvcC configurationVersion ${record[0]} (only 1 is defined)`);
  }
  const r = new BitReader(record.subarray(1, HVCC_HEADER), 1);
  const ptl = readProfileTierLevel(r, 0);
  r.skipBits(4);
  const minSpatialSegmentationIdc = r.readBits(12);
  r.skipBits(6);
  const parallelismType = r.readBits(2);
  r.skipBits(6);
  const chromaFormatIdc = r.readBits(2);
  r.skipBits(5);
  const bitDepth = 8 + r.readBits(3);
  r.skipBits(5);
  const bitDepthChroma = 8 + r.readBits(3);
  const avgFrameRate = r.readBits(16);
  const constantFrameRate = r.readBits(2);
  const numTemporalLayers = r.readBits(3);
  const temporalIdNested = r.readFlag();
  const lengthSize = r.readBits(2) + 1;
  checkLengthSize(lengthSize);
  const arrayCount = record[HVCC_HEADER] as number;
  let offset = HVCC_HEADER + 1;
  const arrays: HvcCArray[] = [];
  const vps: Uint8Array[] = [];
  const sps: Uint8Array[] = [];
  const pps: Uint8Array[] = [];
  for (let i = 0; i < arrayCount; i++) {
    if (offset + 3 > record.length) {
      throw new ParseError('truncated hvcC NAL array header', offset);
    }
    const head = record[offset] as number;
    const type = head & 0x3f;
    const count = ((record[offset + 1] as number) << 8) | (record[offset + 2] as number);
    const [nals, next] = readU16PrefixedList(record, offset + 3, count);
    offset = next;
    arrays.push({ completeness: (head & 0x80) !== 0, nalType: type, nals });
    if (type === H265_NAL.vps) {
      vps.push(...nals);
    } else if (type === H265_NAL.sps) {
      sps.push(...nals);
    } else if (type === H265_NAL.pps) {
      pps.push(...nals);
    }
  }
  return {
    ...ptl,
    minSpatialSegmentationIdc,
    parallelismType,
    chromaFormatIdc,
    bitDepth,
    bitDepthChroma,
    avgFrameRate,
    constantFrameRate,
    numTemporalLayers,
    temporalIdNested,
    lengthSize,
    arrays,
    vps,
    sps,
    pps,
  };
}

/** Builds an hvcC (4-byte NAL lengths, complete VPS/SPS/PPS arrays) from parameter set NAL units. */
export function buildHvcC(
  vps: readonly Uint8Array[],
  sps: readonly Uint8Array[],
  pps: readonly Uint8Array[],
): Uint8Array {
  const first = sps[0];
  if (!first || vps.length === 0 || pps.length === 0) {
    throw new ParseError('hvcC needs at least one VPS, SPS and PPS');
  }
  const parsed = parseSps(first);
  if (parsed.bitDepth > 15 || parsed.bitDepthChroma > 15) {
    throw new UnsupportedError(
      `hvcC cannot carry bit depth ${Math.max(parsed.bitDepth, parsed.bitDepthChroma)} (8..15)`,
    );
  }
  const groups: [number, readonly Uint8Array[]][] = [
    [H265_NAL.vps, vps],
    [H265_NAL.sps, sps],
    [H265_NAL.pps, pps],
  ];
  let size = HVCC_HEADER + 1;
  for (const [, nals] of groups) {
    if (nals.length > 0xffff) {
      throw new ParseError(`hvcC array of ${nals.length} NAL units`);
    }
    size += 3 + u16PrefixedSize(nals);
  }
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  out[0] = 1;
  out[1] = (parsed.profileSpace << 6) | (parsed.tierFlag ? 0x20 : 0) | parsed.profileIdc;
  view.setUint32(2, parsed.compatibilityFlags);
  out.set(parsed.constraintFlags, 6);
  out[12] = parsed.levelIdc;
  view.setUint16(13, 0xf000 | parsed.minSpatialSegmentationIdc);
  out[15] = 0xfc;
  out[16] = 0xfc | parsed.chromaFormatIdc;
  out[17] = 0xf8 | (parsed.bitDepth - 8);
  out[18] = 0xf8 | (parsed.bitDepthChroma - 8);
  view.setUint16(19, parsed.fps === undefined ? 0 : Math.min(0xffff, Math.round(parsed.fps * 256)));
  out[21] = (parsed.maxSubLayers << 3) | (parsed.temporalIdNesting ? 0x04 : 0) | 3;
  out[22] = groups.length;
  let offset = HVCC_HEADER + 1;
  for (const [type, nals] of groups) {
    out[offset] = 0x80 | type;
    view.setUint16(offset + 1, nals.length);
    offset = writeU16Prefixed(out, offset + 3, nals);
  }
  return out;
}

/** Codec string per ISO/IEC 14496-15 Annex E, e.g. `hvc1.1.6.L93.B0`. */
export function hevcCodecString(ptl: H265ProfileTierLevel, sampleEntry: 'hvc1' | 'hev1' = 'hvc1'): string {
  const space = ['', 'A', 'B', 'C'][ptl.profileSpace] ?? '';
  let reversed = 0;
  for (let j = 0; j < 32; j++) {
    if ((ptl.compatibilityFlags >>> (31 - j)) & 1) {
      reversed = (reversed | (1 << j)) >>> 0;
    }
  }
  let constraintCount = ptl.constraintFlags.length;
  while (constraintCount > 0 && ptl.constraintFlags[constraintCount - 1] === 0) {
    constraintCount--;
  }
  const constraints = Array.from(
    ptl.constraintFlags.subarray(0, constraintCount),
    (byte) => `.${byte.toString(16).toUpperCase().padStart(2, '0')}`,
  ).join('');
  const tier = ptl.tierFlag ? 'H' : 'L';
  return `${sampleEntry}.${space}${ptl.profileIdc}.${reversed.toString(16).toUpperCase()}.${tier}${ptl.levelIdc}${constraints}`;
}

/** Parses an hvcC and its first SPS into what a Track needs. */
export function describeHvcC(record: Uint8Array): ParameterSetDescription {
  const hvcC = parseHvcC(record);
  const first = hvcC.sps[0];
  if (!first) {
    throw new ParseError('hvcC has no SPS', HVCC_HEADER);
  }
  const sps = parseSps(first);
  const fps = sps.fps ?? (hvcC.avgFrameRate > 0 ? roundFps(hvcC.avgFrameRate / 256) : undefined);
  return {
    width: sps.width,
    height: sps.height,
    ...(fps === undefined ? {} : { fps }),
    codecString: hevcCodecString(hvcC),
    profile: hvcC.profileIdc,
    level: hvcC.levelIdc,
    bitDepth: sps.bitDepth,
    chromaFormatIdc: sps.chromaFormatIdc,
    lengthSize: hvcC.lengthSize,
  };
}

/** True for IRAP pictures (BLA, IDR, CRA: NAL types 16..21). */
export function isKeyframeNal(type: number): boolean {
  return type >= H265_NAL.bla_w_lp && type <= H265_NAL.cra;
}

/** True when a length-prefixed access unit contains an IRAP slice. */
export function isKeyframe(lengthPrefixedAccessUnit: Uint8Array, lengthSize = 4): boolean {
  return splitLengthPrefixed(lengthPrefixedAccessUnit, lengthSize).some((nal) => isKeyframeNal(nalType(nal)));
}
