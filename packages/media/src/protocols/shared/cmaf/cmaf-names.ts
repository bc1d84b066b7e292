/**
 * Resource names of a CMAF presentation under `/play/<id>/cmaf/`, shared by the LL-HLS playlists
 * and the DASH MPD: `<track>-init-<version>.mp4`, `<track>-<msn>.m4s`, `<track>-part-<n>.m4s`.
 */
import type { CmafTrackName } from './cmaf-types.js';

/** A parsed resource request. */
export type CmafResource =
  | { readonly type: 'init'; readonly track: CmafTrackName; readonly version: number }
  | { readonly type: 'segment'; readonly track: CmafTrackName; readonly msn: number }
  | { readonly type: 'part'; readonly track: CmafTrackName; readonly sequence: number };

const RESOURCE = /^(video|audio)-(?:init-(\d{1,9})\.mp4|part-(\d{1,12})\.m4s|(\d{1,12})\.m4s)$/;

/** URI of a track's init segment. */
export function initName(track: CmafTrackName, version: number): string {
  return `${track}-init-${version}.mp4`;
}

/** URI of a complete segment. */
export function segmentName(track: CmafTrackName, msn: number): string {
  return `${track}-${msn}.m4s`;
}

/** URI of a part, by its running number within the track. */
export function partName(track: CmafTrackName, sequence: number): string {
  return `${track}-part-${sequence}.m4s`;
}

/** DASH SegmentTemplate@media for a track (same files as segmentName). */
export function segmentTemplate(track: CmafTrackName): string {
  return `${track}-$Number$.m4s`;
}

/** Parses a request path into a resource, or undefined when it names none. */
export function parseCmafResource(path: string): CmafResource | undefined {
  const match = RESOURCE.exec(path);
  if (!match) {
    return undefined;
  }
  const track = match[1] as CmafTrackName;
  if (match[2] !== undefined) {
    return { type: 'init', track, version: Number(match[2]) };
  }
  if (match[3] !== undefined) {
    return { type: 'part', track, sequence: Number(match[3]) };
  }
  return { type: 'segment', track, msn: Number(match[4]) };
}
