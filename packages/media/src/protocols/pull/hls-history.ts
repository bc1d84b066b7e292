/**
 * What the attempts of one pull delivered from an HLS source: per media playlist (by origin and
 * path, without per-request query tokens), the segment ffmpeg fetched last. A later attempt reads
 * it to leave out of an ended playlist what was already delivered (playlist-trim.ts).
 */
import type { ListedSegment } from './playlist-trim.js';

/** Most segment URIs remembered to map a fetch back to its playlist. */
const MAX_LISTED = 4096;
/** Most media playlists remembered. */
const MAX_PLAYLISTS = 64;

/** The playlist key of a media playlist URL: origin and path. */
export function playlistKey(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

/** The HLS delivery memory of one pull session, shared by its attempts. */
export class HlsHistory {
  private readonly last = new Map<string, ListedSegment>();
  private readonly listed = new Map<string, { readonly playlist: string; readonly segment: ListedSegment }>();

  /** A playlist (by key) listed these segments to ffmpeg. */
  list(playlist: string, segments: readonly ListedSegment[]): void {
    for (const segment of segments) {
      this.listed.delete(segment.uri);
      this.listed.set(segment.uri, { playlist, segment });
    }
    forgetOldest(this.listed, MAX_LISTED);
  }

  /** ffmpeg fetched `uri`; a listed segment becomes its playlist's last delivered one. */
  fetched(uri: string): void {
    const entry = this.listed.get(uri);
    if (entry) {
      this.last.delete(entry.playlist);
      this.last.set(entry.playlist, entry.segment);
      forgetOldest(this.last, MAX_PLAYLISTS);
    }
  }

  /** The last delivered segment of each playlist now (what an attempt starting now must not replay). */
  snapshot(): ReadonlyMap<string, ListedSegment> {
    return new Map(this.last);
  }
}

function forgetOldest<V>(map: Map<string, V>, max: number): void {
  for (const key of map.keys()) {
    if (map.size <= max) {
      return;
    }
    map.delete(key);
  }
}
