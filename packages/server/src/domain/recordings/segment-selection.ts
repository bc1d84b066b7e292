/**
 * Which stored segments make up an artifact: per track, the segments whose media sequence number
 * lies in the artifact's range of the leading track (the packager cuts every track at the same
 * times, so the numbers line up), with the init versions they need.
 */
import type { CmafTrackName } from '@airwave/media/protocols/shared/cmaf/cmaf-types';
import type { IndexedSegment, RecordedTrack, RecordingIndex } from './segment-index.js';

/** The segments of one track in a range. */
export interface TrackSelection {
  readonly track: CmafTrackName;
  readonly segments: readonly IndexedSegment[];
  /** Description of the init version of its first segment. */
  readonly described: RecordedTrack | undefined;
  /** Descriptions of every recorded init version of the track (a reconnect or codec change adds one). */
  readonly inits: readonly RecordedTrack[];
}

/** Tracks (video first) with their segments in `[first, last]`; a track without any is left out. */
export function selectSegments(index: RecordingIndex, first: number, last: number): TrackSelection[] {
  const out: TrackSelection[] = [];
  for (const track of ['video', 'audio'] as const) {
    const segments = index.segments
      .filter((segment) => segment.track === track && segment.msn >= first && segment.msn <= last)
      .sort((a, b) => a.msn - b.msn);
    if (segments.length > 0) {
      const version = (segments[0] as IndexedSegment).init;
      out.push({
        track,
        segments,
        described: index.tracks.find((entry) => entry.track === track && entry.version === version),
        inits: index.tracks.filter((entry) => entry.track === track),
      });
    }
  }
  return out;
}

/** The segments of the leading track (video when recorded, else audio), in order: what chapters and clips are cut on. */
export function leaderSegments(index: RecordingIndex): IndexedSegment[] {
  const video = index.segments.some((segment) => segment.track === 'video');
  return index.segments
    .filter((segment) => segment.track === (video ? 'video' : 'audio'))
    .sort((a, b) => a.msn - b.msn);
}
