/**
 * Trims an ended HLS media playlist (RFC 8216 §4.3.3.4 EXT-X-ENDLIST) for a later attempt of a
 * pull: the segments up to the one an earlier attempt delivered last are left out, so a source
 * whose live stream ended is not replayed from its first segment (ffmpeg reads an ended playlist as
 * VOD). The delivered segment is found by URI, else by media sequence number (§4.3.3.2; URIs with
 * per-request tokens); EXT-X-MEDIA-SEQUENCE and EXT-X-DISCONTINUITY-SEQUENCE (§4.3.3.3) are moved
 * on by what was left out. Live and multivariant playlists pass unchanged.
 */

/** A media segment of a playlist: its absolute URI and media sequence number. */
export interface ListedSegment {
  readonly uri: string;
  readonly sequence: number;
}

/** A playlist with the delivered segments of an ended stream left out. */
export interface TrimmedPlaylist {
  readonly text: string;
  /** The segments it still lists. */
  readonly segments: readonly ListedSegment[];
  /** Ended, and every segment it listed was delivered before: nothing new to pull. */
  readonly drained: boolean;
}

/** Tags of one media segment (left out with it); EXT-X-KEY and EXT-X-MAP stay for the segments after. */
const SEGMENT_TAGS =
  /^#(EXTINF|EXT-X-BYTERANGE|EXT-X-DISCONTINUITY$|EXT-X-PROGRAM-DATE-TIME|EXT-X-GAP|EXT-X-BITRATE|EXT-X-PART:)/;

interface Segment extends ListedSegment {
  /** Line indexes of the segment's own tags and URI. */
  readonly lines: readonly number[];
  readonly discontinuity: boolean;
}

/** `text` (fetched from `base`) without the segments up to `delivered`, when the playlist ended. */
export function trimDelivered(text: string, base: URL, delivered: ListedSegment | undefined): TrimmedPlaylist {
  const lines = text.split(/\r?\n/);
  const mediaSequence = tagNumber(lines, '#EXT-X-MEDIA-SEQUENCE:');
  const segments: Segment[] = [];
  let own: number[] = [];
  let discontinuity = false;
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).trim();
    if (line.startsWith('#')) {
      if (SEGMENT_TAGS.test(line)) {
        own.push(i);
        discontinuity ||= line === '#EXT-X-DISCONTINUITY';
      }
      continue;
    }
    if (line !== '') {
      segments.push({
        uri: absolute(line, base),
        sequence: mediaSequence + segments.length,
        lines: [...own, i],
        discontinuity,
      });
      own = [];
      discontinuity = false;
    }
  }
  const ended = lines.some((line) => line.trim() === '#EXT-X-ENDLIST');
  const multivariant = lines.some((line) => line.startsWith('#EXT-X-STREAM-INF'));
  const listed = (from: number): ListedSegment[] =>
    segments.slice(from).map(({ uri, sequence }) => ({ uri, sequence }));
  if (!ended || multivariant || !delivered || segments.length === 0) {
    return { text, segments: listed(0), drained: false };
  }
  const at = segments.findIndex((segment) => segment.uri === delivered.uri);
  const drop = at >= 0 ? at + 1 : segments.filter((segment) => segment.sequence <= delivered.sequence).length;
  if (drop === 0) {
    return { text, segments: listed(0), drained: false };
  }
  const dropped = new Set(segments.slice(0, drop).flatMap((segment) => segment.lines));
  const discontinuities = segments.slice(0, drop).filter((segment) => segment.discontinuity).length;
  const kept = lines.filter((_line, i) => !dropped.has(i));
  setTag(kept, '#EXT-X-MEDIA-SEQUENCE:', mediaSequence + drop);
  if (discontinuities > 0) {
    setTag(
      kept,
      '#EXT-X-DISCONTINUITY-SEQUENCE:',
      tagNumber(lines, '#EXT-X-DISCONTINUITY-SEQUENCE:') + discontinuities,
    );
  }
  return { text: kept.join('\n'), segments: listed(drop), drained: drop === segments.length };
}

function tagNumber(lines: readonly string[], tag: string): number {
  const line = lines.find((candidate) => candidate.startsWith(tag));
  const value = line ? Number.parseInt(line.slice(tag.length), 10) : 0;
  return Number.isSafeInteger(value) && value >= 0 ? value : 0;
}

/** Sets `tag` to `value` in place, adding it after the first line when missing. */
function setTag(lines: string[], tag: string, value: number): void {
  const at = lines.findIndex((line) => line.startsWith(tag));
  if (at >= 0) {
    lines[at] = `${tag}${value}`;
  } else {
    lines.splice(1, 0, `${tag}${value}`);
  }
}

function absolute(uri: string, base: URL): string {
  try {
    return new URL(uri, base).href;
  } catch {
    return uri;
  }
}
