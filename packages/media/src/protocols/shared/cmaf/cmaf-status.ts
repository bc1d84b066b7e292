/** What the CMAF packager of one stream reports for the `/play/<id>` JSON, metrics and tests. */
import type { Track } from '../../../stream/track.js';
import type { CmafMeasurements, CmafPackager } from './cmaf-packager.js';

/** State and measurements of one packaged stream. */
export interface CmafStatus extends CmafMeasurements {
  /** True once the stream ended (playlists carry EXT-X-ENDLIST, the MPD is static). */
  readonly ended: boolean;
  /** True once the leading track has a complete segment (playlists and MPD are served). */
  readonly ready: boolean;
  /** Configured segment target, seconds. */
  readonly segmentTargetSeconds: number;
  /** Configured part target (LL-HLS PART-TARGET), seconds. */
  readonly partTargetSeconds: number;
  /** EXT-X-TARGETDURATION currently advertised (longer than the target when the GOP is). */
  readonly targetDuration: number;
  /** True when the measured keyframe interval is longer than the segment target. */
  readonly longGop: boolean;
  /** Complete segments held per track. */
  readonly segments: number;
  /** The tracks being packaged. */
  readonly tracks: readonly Track[];
  /** Units and parts dropped because they could not be packaged. */
  readonly failures: number;
}

/** Summarises a packager. */
export function cmafStatus(packager: CmafPackager): CmafStatus {
  const measured = packager.measurements();
  const interval = measured.keyframeIntervalSeconds;
  return {
    ...measured,
    ended: packager.ended !== undefined,
    ready: packager.ready,
    segmentTargetSeconds: packager.options.segmentTargetSeconds,
    partTargetSeconds: packager.options.partTargetSeconds,
    targetDuration: packager.targetDuration,
    longGop: interval !== undefined && interval > packager.options.segmentTargetSeconds + 0.001,
    segments: packager.leader?.segments.length ?? 0,
    tracks: packager.tracks.map((writer) => writer.track),
    failures: packager.failures,
  };
}
