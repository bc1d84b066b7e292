/**
 * The start of the video usability information that H.264 (ITU-T H.264 §E.1.1) and H.265
 * (ITU-T H.265 §E.2.1) share: aspect_ratio_info (Table E-1), overscan_info, video_signal_type
 * and chroma_loc_info, and the tick rate of timing_info.
 */
import type { BitReader } from '../bits/bit-reader.js';
import { ParseError } from '../errors.js';

/** A sample (pixel) aspect ratio. */
export interface SampleAspectRatio {
  readonly width: number;
  readonly height: number;
}

/** Table E-1 sample aspect ratios for aspect_ratio_idc 1..16. */
const SAR_TABLE: readonly (readonly [number, number])[] = [
  [1, 1],
  [12, 11],
  [10, 11],
  [16, 11],
  [40, 33],
  [24, 11],
  [20, 11],
  [32, 11],
  [80, 33],
  [18, 11],
  [15, 11],
  [64, 33],
  [160, 99],
  [4, 3],
  [3, 2],
  [2, 1],
];

/** Reads aspect_ratio_info_present_flag and what follows it; the sample aspect ratio when one is signalled. */
export function readAspectRatioInfo(r: BitReader): SampleAspectRatio | undefined {
  if (!r.readFlag()) {
    return undefined;
  }
  const idc = r.readBits(8);
  if (idc === 255) {
    const width = r.readBits(16);
    const height = r.readBits(16);
    return width > 0 && height > 0 ? { width, height } : undefined;
  }
  const entry = SAR_TABLE[idc - 1];
  return entry ? { width: entry[0], height: entry[1] } : undefined;
}

/** Skips overscan_info, video_signal_type (with colour_description) and chroma_loc_info. */
export function skipVuiSignalInfo(r: BitReader): void {
  if (r.readFlag()) {
    r.skipBits(1);
  }
  if (r.readFlag()) {
    r.skipBits(4);
    if (r.readFlag()) {
      r.skipBits(24);
    }
  }
  if (r.readFlag()) {
    r.readUE();
    r.readUE();
  }
}

/** Reads num_units_in_tick and time_scale; the clock ticks per second, undefined when either is 0. */
export function readTickRate(r: BitReader): number | undefined {
  const unitsInTick = r.readBits(32);
  const timeScale = r.readBits(32);
  return unitsInTick > 0 && timeScale > 0 ? timeScale / unitsInTick : undefined;
}

/**
 * Runs `read` over a VUI. A VUI cut short (some encoders truncate it) ends the read early: the
 * ParseError is swallowed and only the optional values not yet read are lost.
 */
export function readUntilTruncated(read: () => void): void {
  try {
    read();
  } catch (error) {
    if (!(error instanceof ParseError)) {
      throw error;
    }
  }
}
