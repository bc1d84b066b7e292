/**
 * Storage keys of recordings and artifacts. A recording's segments keep the CMAF resource names
 * the live packager serves (`<track>-init-<v>.mp4`, `<track>-<msn>.m4s`), or on stores that append
 * lie back to back in packs (`pack-<n>.m4s` for every track, ADR 0089; before it `<track>-pack-<msn>.m4s`,
 * ADR 0062); its index is a series of JSON
 * chunks or a journal; an artifact's own renditions (MP4, MPEG-TS HLS) and images sit under its id.
 */

import { initName, segmentName } from '@airwave/media/protocols/shared/cmaf/cmaf-names';
import type { CmafTrackName } from '@airwave/media/protocols/shared/cmaf/cmaf-types';

/** Entries per index chunk (stores that cannot append): a segment close rewrites one chunk of at most this many entries. */
export const INDEX_CHUNK_ENTRIES = 200;

/** The storage prefix of a recording (ends with a slash). */
export function recordingPrefix(recordingId: string): string {
  return `recordings/${recordingId}/`;
}

/** Key of a recorded init segment. */
export function initKey(prefix: string, track: CmafTrackName, version: number): string {
  return `${prefix}${initName(track, version)}`;
}

/** Key of a recorded segment. */
export function segmentKey(prefix: string, track: CmafTrackName, msn: number): string {
  return `${prefix}${segmentName(track, msn)}`;
}

/** Segments a pack holds before the next pack starts (ADR 0062, 0089). */
export const PACK_SEGMENTS = 1800;

/** Key of a pack: segments of one track back to back, from segment `pack` (its first msn) on. */
export function packKey(prefix: string, track: CmafTrackName, pack: number): string {
  return `${prefix}${track}-pack-${pack}.m4s`;
}

/** Key of a pack of every track's segments back to back (ADR 0089), from the recording's segment `pack` (in placement order) on. */
export function sharedPackKey(prefix: string, pack: number): string {
  return `${prefix}pack-${pack}.m4s`;
}

/** Key of an index chunk. */
export function indexChunkKey(prefix: string, chunk: number): string {
  return `${prefix}index/${String(chunk).padStart(6, '0')}.json`;
}

/** Key of the index as one append-only log of JSON lines (stores that append; ADR 0023). */
export function indexJournalKey(prefix: string): string {
  return `${prefix}index/journal.jsonl`;
}

/** Key of the recording's track descriptions (codecs per init version). */
export function tracksKey(prefix: string): string {
  return `${prefix}tracks.json`;
}

/** The storage prefix of an artifact's own renditions (ends with a slash). */
export function artifactPrefix(artifactId: string): string {
  return `artifacts/${artifactId}/`;
}

/** Key of an artifact's progressive MP4. */
export function artifactMp4Key(artifactId: string): string {
  return `${artifactPrefix(artifactId)}full.mp4`;
}

/** Key of a file of an artifact's MPEG-TS HLS rendition (`index.m3u8`, `seg-00000.ts`). */
export function artifactHlsKey(artifactId: string, name: string): string {
  return `${artifactPrefix(artifactId)}hls/${name}`;
}
