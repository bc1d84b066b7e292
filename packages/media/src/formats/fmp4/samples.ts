/**
 * Turns consecutive MediaUnits of one track into ISO/IEC 14496-12 track fragment samples:
 * duration = next dts - dts, composition offset = pts - dts.
 */
import type { MediaUnit } from '../../stream/media-unit.js';
import type { FragmentSample, TrackFragment } from './fragment.js';

/**
 * Samples for consecutive units of one track. The last sample lasts until `nextDts` (the dts of
 * the unit after the last one) when known, else as long as the sample before it, else
 * `fallbackDuration`. Throws RangeError when dts goes backwards.
 */
export function samplesFromUnits(
  units: readonly MediaUnit[],
  nextDts?: number,
  fallbackDuration = 0,
): FragmentSample[] {
  const samples: FragmentSample[] = [];
  for (let i = 0; i < units.length; i++) {
    const unit = units[i] as MediaUnit;
    const following = units[i + 1]?.dts ?? nextDts;
    const duration =
      following !== undefined ? following - unit.dts : (samples[samples.length - 1]?.duration ?? fallbackDuration);
    if (duration < 0) {
      throw new RangeError(`dts goes backwards on track ${unit.trackId}: ${unit.dts} then ${following}`);
    }
    samples.push({ duration, key: unit.key, compositionOffset: unit.pts - unit.dts, data: unit.data });
  }
  return samples;
}

/** A whole track fragment for consecutive units of one track (see samplesFromUnits). */
export function trackFragmentFromUnits(
  trackId: number,
  units: readonly MediaUnit[],
  nextDts?: number,
  fallbackDuration = 0,
): TrackFragment {
  const first = units[0];
  if (!first) {
    throw new RangeError(`track fragment of track ${trackId} needs at least one unit`);
  }
  return {
    trackId,
    baseMediaDecodeTime: first.dts,
    samples: samplesFromUnits(units, nextDts, fallbackDuration),
  };
}
