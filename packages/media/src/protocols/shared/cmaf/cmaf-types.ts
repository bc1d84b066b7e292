/**
 * What the CMAF packager (ISO/IEC 23000-19) produces per track: CMAF chunks (LL-HLS parts, DASH
 * chunks) grouped into CMAF segments, and the periods that map media time to wall-clock time.
 */

import type { SpooledSegment } from '../segment-spool.js';

/** The media kinds a CMAF track carries; also the file-name prefix of its resources. */
export type CmafTrackName = 'video' | 'audio';

/**
 * A stretch of continuous media: media time `startMediaSeconds` happened at `startWallMs`.
 * A new period begins at the stream start and after every discontinuity (publisher reconnect,
 * codec change).
 */
export interface CmafPeriod {
  /** 0 for the first period, then 1, 2, ... */
  readonly id: number;
  /** Wall-clock time (ms since the epoch) of the period's first keyframe. */
  readonly startWallMs: number;
  /** Media time of that keyframe, in seconds. */
  readonly startMediaSeconds: number;
  /** The tracks the stream declared when the period began: what the period carries. */
  readonly tracks: readonly CmafTrackName[];
  /**
   * Where the period begins on the presentation timeline, as wall-clock ms: `startWallMs` for the
   * first period, else where the previous period's media ends (so periods join without a gap and
   * an outage becomes missing media at the start of the next one).
   */
  readonly presentationStartMs: number;
}

/** Wall-clock ms at which a period's first media is presented: its start, unless that overlaps the previous period. */
export function mediaStartMs(period: CmafPeriod): number {
  return Math.max(period.startWallMs, period.presentationStartMs);
}

/** One CMAF chunk (moof + mdat, the first of a segment with styp): an LL-HLS part. */
export interface CmafPart {
  /** Running number of the part within its track; names its URI. */
  readonly sequence: number;
  /** Media sequence number of its segment. */
  readonly msn: number;
  /** Position within its segment, from 0. */
  readonly index: number;
  /** Decode time of the first sample, in the track's timescale. */
  readonly startTime: number;
  /** Sum of the sample durations, in the track's timescale. */
  readonly duration: number;
  /** True when the part starts with a keyframe (LL-HLS INDEPENDENT=YES). */
  readonly independent: boolean;
  /** The chunk bytes (of a gathering writer: its boxes up to the mdat header; see `samples`). */
  readonly data: Uint8Array;
  /** Of a gathering writer (recorders): the bytes of its samples, in order, that follow `data`, not copied. */
  readonly samples?: readonly Uint8Array[];
}

/** One CMAF segment: consecutive parts starting (normally) at a keyframe. */
export interface CmafSegment {
  /** Media sequence number (`<track>-<msn>.m4s`, DASH `$Number$`). */
  readonly msn: number;
  /** Decode time of the first sample, in the track's timescale. */
  readonly startTime: number;
  /** Duration in the track's timescale. */
  readonly duration: number;
  /** Smallest presentation time of its samples (DASH SegmentTimeline `t`). */
  readonly earliestPresentationTime: number;
  /** Its parts, in order. */
  readonly parts: readonly CmafPart[];
  /** True for the first segment after a discontinuity. */
  readonly discontinuity: boolean;
  /** The period the segment belongs to. */
  readonly period: CmafPeriod;
  /** Version of the init segment that describes it (`<track>-init-<version>.mp4`). */
  readonly initVersion: number;
  /** Wall-clock time of its first sample (EXT-X-PROGRAM-DATE-TIME), ms since the epoch. */
  readonly programDateTimeMs: number;
  /** True when it starts with a keyframe. */
  readonly independent: boolean;
  /** Payload bytes. */
  readonly bytes: number;
  /** Samples (frames) it holds. */
  readonly samples: number;
  /**
   * The whole segment (all parts concatenated) once complete; undefined while open. Empty (as is
   * every part's `data`) once the segment was spooled to a file: `spooled` then has the bytes.
   */
  readonly data: Uint8Array | undefined;
  /**
   * Of a gathering writer (recorders), once complete: the whole segment as pieces in order (each
   * part's boxes, then its samples' bytes), not copied; `data` is then empty. Emptied by `release`.
   */
  readonly pieces?: readonly Uint8Array[];
  /** The segment's file, once a spool holds it (segments older than the newest few). */
  readonly spooled?: CmafSpooled;
}

/** Where a spooled segment's bytes are: its file, and where each of its parts ends in it. */
export interface CmafSpooled {
  readonly file: SpooledSegment;
  /** End offset of each part in the file, in part order. */
  readonly partEnds: readonly number[];
}
