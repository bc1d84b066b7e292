/**
 * CMAF fragments (ISO/IEC 23000-19 §7.3.2.4) as ISO/IEC 14496-12 movie fragments: optional styp,
 * moof (mfhd; per track traf with tfhd default-base-is-moof, tfdt version 1, trun version 1 with
 * data offset and per-sample duration, size, flags and signed composition offset) and one mdat.
 */
import {
  BOX_HEADER_SIZE,
  FULL_BOX_HEADER_SIZE,
  fourccValue,
  writeBoxHeader,
  writeFullBoxHeader,
} from './box-writer.js';

/** One sample of a track fragment. */
export interface FragmentSample {
  /** Duration in the track's timescale (next sample's dts minus this one's). */
  readonly duration: number;
  /** Size in bytes; defaults to `data.length` and must equal it when given. */
  readonly size?: number;
  /** True for sync samples (keyframes; every audio frame). */
  readonly key: boolean;
  /** pts - dts in the track's timescale; may be negative. */
  readonly compositionOffset: number;
  readonly data: Uint8Array;
}

/** The samples of one track inside a fragment, starting at `baseMediaDecodeTime` (first dts). */
export interface TrackFragment {
  readonly trackId: number;
  readonly baseMediaDecodeTime: number;
  readonly samples: readonly FragmentSample[];
}

/** Options of buildFragment. */
export interface FragmentOptions {
  /** Prefix the fragment with a styp box (first fragment of a media segment). */
  readonly styp?: boolean;
}

/** Brands of the styp box written when `styp` is set. */
export const SEGMENT_BRANDS = { major: 'msdh', compatible: ['msdh', 'cmfs'] } as const;

/** sample_depends_on = 2 (depends on no other sample). */
export const SYNC_SAMPLE_FLAGS = 0x02000000;
/** sample_depends_on = 1 (depends on others), sample_is_non_sync_sample = 1. */
export const NON_SYNC_SAMPLE_FLAGS = 0x01010000;

const TFHD_DEFAULT_BASE_IS_MOOF = 0x020000;
const TRUN_DATA_OFFSET = 0x000001;
const TRUN_DURATION = 0x000100;
const TRUN_SIZE = 0x000200;
const TRUN_FLAGS = 0x000400;
const TRUN_COMPOSITION_OFFSET = 0x000800;
const MFHD_SIZE = FULL_BOX_HEADER_SIZE + 4;
const TFHD_SIZE = FULL_BOX_HEADER_SIZE + 4;
const TFDT_SIZE = FULL_BOX_HEADER_SIZE + 8;
const TRUN_FIXED_SIZE = FULL_BOX_HEADER_SIZE + 8;
const MAX_DATA_OFFSET = 0x7fffffff;
const STYP = fourccValue('styp');
const MOOF = fourccValue('moof');
const MFHD = fourccValue('mfhd');
const TRAF = fourccValue('traf');
const TFHD = fourccValue('tfhd');
const TFDT = fourccValue('tfdt');
const TRUN = fourccValue('trun');
const MDAT = fourccValue('mdat');
const MAJOR_BRAND = fourccValue(SEGMENT_BRANDS.major);
const COMPATIBLE_BRANDS = SEGMENT_BRANDS.compatible.map(fourccValue);

/** A validated, sized fragment, ready to be written (planFragment, then writeFragment). */
export interface FragmentPlan {
  /** Total bytes of the fragment (styp, moof, mdat). */
  readonly size: number;
  readonly sequenceNumber: number;
  readonly trackFragments: readonly TrackFragment[];
  readonly stypSize: number;
  readonly moofSize: number;
  readonly mdatPayload: number;
  readonly trunSizes: readonly number[];
  readonly withOffsets: readonly boolean[];
}

/**
 * Validates and sizes one fragment: (styp +) moof + mdat holding the samples of every track
 * fragment in order. Throws RangeError on values the boxes cannot carry (negative times, sizes
 * that differ from the data, more than 2 GiB of samples).
 */
export function planFragment(
  sequenceNumber: number,
  trackFragments: readonly TrackFragment[],
  options: FragmentOptions = {},
): FragmentPlan {
  checkUint32('sequence number', sequenceNumber);
  if (trackFragments.length === 0) {
    throw new RangeError('a fragment needs at least one track fragment');
  }
  const stypSize = options.styp ? BOX_HEADER_SIZE + 8 + 4 * SEGMENT_BRANDS.compatible.length : 0;
  let moofSize = BOX_HEADER_SIZE + MFHD_SIZE;
  let mdatPayload = 0;
  const trunSizes: number[] = [];
  const withOffsets: boolean[] = [];
  for (const traf of trackFragments) {
    checkUint32('track id', traf.trackId);
    if (!Number.isSafeInteger(traf.baseMediaDecodeTime) || traf.baseMediaDecodeTime < 0) {
      throw new RangeError(`baseMediaDecodeTime must be a non-negative integer, got ${traf.baseMediaDecodeTime}`);
    }
    let hasOffsets = false;
    for (const sample of traf.samples) {
      checkUint32('sample duration', sample.duration);
      if (sample.size !== undefined && sample.size !== sample.data.length) {
        throw new RangeError(`sample size ${sample.size} differs from its ${sample.data.length} data bytes`);
      }
      if (!Number.isInteger(sample.compositionOffset) || Math.abs(sample.compositionOffset) > 0x7fffffff) {
        throw new RangeError(`composition offset ${sample.compositionOffset} does not fit 32 bits`);
      }
      hasOffsets ||= sample.compositionOffset !== 0;
      mdatPayload += sample.data.length;
    }
    const trunSize = TRUN_FIXED_SIZE + traf.samples.length * (hasOffsets ? 16 : 12);
    trunSizes.push(trunSize);
    withOffsets.push(hasOffsets);
    moofSize += BOX_HEADER_SIZE + TFHD_SIZE + TFDT_SIZE + trunSize;
  }
  if (moofSize + BOX_HEADER_SIZE + mdatPayload > MAX_DATA_OFFSET) {
    throw new RangeError(`fragment of ${mdatPayload} sample bytes is too large for 32-bit data offsets`);
  }
  const size = stypSize + moofSize + BOX_HEADER_SIZE + mdatPayload;
  return { size, sequenceNumber, trackFragments, stypSize, moofSize, mdatPayload, trunSizes, withOffsets };
}

/**
 * Writes a planned fragment into `out` at `offset` (which must have `plan.size` bytes from there)
 * and returns the view of it, so a caller can place consecutive fragments in one buffer.
 */
export function writeFragment(plan: FragmentPlan, out: Uint8Array, offset = 0): Uint8Array {
  if (offset < 0 || offset + plan.size > out.byteLength) {
    throw new RangeError(`a fragment of ${plan.size} bytes does not fit at ${offset} of ${out.byteLength}`);
  }
  const target = out.subarray(offset, offset + plan.size);
  writeBoxes(plan, target, true);
  return target;
}

/**
 * The boxes of a planned fragment without its sample bytes: (styp,) moof and the mdat header, in
 * a new buffer; the samples' bytes, in plan order, complete the fragment (a gathered write).
 */
export function fragmentBoxes(plan: FragmentPlan): Uint8Array {
  const target = new Uint8Array(plan.size - plan.mdatPayload);
  writeBoxes(plan, target, false);
  return target;
}

/** Writes the boxes into `target` (starting with the fragment), and with `samples` the samples' bytes after them. */
function writeBoxes(plan: FragmentPlan, target: Uint8Array, samples: boolean): void {
  const { stypSize, moofSize, mdatPayload, trunSizes, withOffsets } = plan;
  const view = new DataView(target.buffer, target.byteOffset, target.byteLength);
  let at = 0;
  if (stypSize > 0) {
    at = writeBoxHeader(view, at, stypSize, STYP);
    view.setUint32(at, MAJOR_BRAND);
    view.setUint32(at + 4, 0);
    at += 8;
    for (const brand of COMPATIBLE_BRANDS) {
      view.setUint32(at, brand);
      at += 4;
    }
  }
  at = writeBoxHeader(view, at, moofSize, MOOF);
  at = writeFullBoxHeader(view, at, MFHD_SIZE, MFHD, 0, 0);
  view.setUint32(at, plan.sequenceNumber);
  at += 4;
  let dataOffset = moofSize + BOX_HEADER_SIZE;
  let dataAt = stypSize + dataOffset;
  for (let index = 0; index < plan.trackFragments.length; index++) {
    const traf = plan.trackFragments[index] as TrackFragment;
    const trunSize = trunSizes[index] ?? 0;
    const hasOffsets = withOffsets[index] ?? false;
    at = writeBoxHeader(view, at, BOX_HEADER_SIZE + TFHD_SIZE + TFDT_SIZE + trunSize, TRAF);
    at = writeFullBoxHeader(view, at, TFHD_SIZE, TFHD, 0, TFHD_DEFAULT_BASE_IS_MOOF);
    view.setUint32(at, traf.trackId);
    at += 4;
    at = writeFullBoxHeader(view, at, TFDT_SIZE, TFDT, 1, 0);
    // baseMediaDecodeTime is a safe integer (planFragment checked it): high and low 32 bits.
    view.setUint32(at, Math.floor(traf.baseMediaDecodeTime / 2 ** 32));
    view.setUint32(at + 4, traf.baseMediaDecodeTime % 2 ** 32);
    at += 8;
    const trunFlags =
      TRUN_DATA_OFFSET | TRUN_DURATION | TRUN_SIZE | TRUN_FLAGS | (hasOffsets ? TRUN_COMPOSITION_OFFSET : 0);
    at = writeFullBoxHeader(view, at, trunSize, TRUN, 1, trunFlags);
    view.setUint32(at, traf.samples.length);
    view.setInt32(at + 4, dataOffset);
    at += 8;
    for (const sample of traf.samples) {
      view.setUint32(at, sample.duration);
      view.setUint32(at + 4, sample.data.length);
      view.setUint32(at + 8, sample.key ? SYNC_SAMPLE_FLAGS : NON_SYNC_SAMPLE_FLAGS);
      at += 12;
      if (hasOffsets) {
        view.setInt32(at, sample.compositionOffset);
        at += 4;
      }
      if (samples) {
        target.set(sample.data, dataAt);
      }
      dataAt += sample.data.length;
      dataOffset += sample.data.length;
    }
  }
  writeBoxHeader(view, at, BOX_HEADER_SIZE + mdatPayload, MDAT);
}

/**
 * Builds one fragment into a new buffer (planFragment + writeFragment). Throws RangeError on
 * values the boxes cannot carry (negative times, sizes that differ from the data, more than
 * 2 GiB of samples).
 */
export function buildFragment(
  sequenceNumber: number,
  trackFragments: readonly TrackFragment[],
  options: FragmentOptions = {},
): Uint8Array {
  const plan = planFragment(sequenceNumber, trackFragments, options);
  return writeFragment(plan, new Uint8Array(plan.size));
}

function checkUint32(what: string, value: number): void {
  if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) {
    throw new RangeError(`${what} must be an unsigned 32-bit integer, got ${value}`);
  }
}
