/**
 * LL-HLS media playlists (RFC 8216bis §4.4.3–4.4.5, §6.2.5): CMAF segments with EXT-X-MAP,
 * EXT-X-PROGRAM-DATE-TIME and EXT-X-DISCONTINUITY, EXT-X-PART for the recent segments,
 * EXT-X-PRELOAD-HINT for the next part, EXT-X-SERVER-CONTROL, delta updates (EXT-X-SKIP) and
 * EXT-X-RENDITION-REPORT for the other rendition.
 */
import { initName, partName, segmentName } from '../../shared/cmaf/cmaf-names.js';
import type { CmafTrackWriter } from '../../shared/cmaf/cmaf-track-writer.js';
import type { CmafSegment } from '../../shared/cmaf/cmaf-types.js';
import { withUriQuery } from '../../shared/http-types.js';

/** Where a rendition's playlist ends: its last part. */
export interface RenditionPosition {
  /** Media sequence number of the newest segment that has a part. */
  readonly msn: number;
  /** Index of its newest part. */
  readonly part: number;
}

/** Everything a media playlist shows besides the track itself. */
export interface LlHlsPlaylistInput {
  /** EXT-X-TARGETDURATION, whole seconds. */
  readonly targetDuration: number;
  /** EXT-X-PART-INF PART-TARGET, seconds. */
  readonly partTarget: number;
  /** The stream ended: EXT-X-ENDLIST and no preload hint. */
  readonly ended: boolean;
  /** A delta update was asked for (`_HLS_skip=YES`). */
  readonly skip: boolean;
  /** Query appended to every URI. */
  readonly uriQuery: string | undefined;
  /** Other renditions to report (URI of their playlist and their writer). */
  readonly reports: readonly { readonly uri: string; readonly writer: CmafTrackWriter }[];
}

/** Part hold back in part targets (RFC 8216bis asks at least 2, recommends 3). */
export const PART_HOLD_BACK_PARTS = 3;
/** Skip boundary in target durations (RFC 8216bis asks at least 6). */
export const SKIP_TARGET_DURATIONS = 6;
/** Parts are listed for segments within this many target durations of the live edge. */
export const PART_LISTING_TARGET_DURATIONS = 3;

/** The newest part of a track, if it has one. */
export function lastPosition(writer: CmafTrackWriter): RenditionPosition | undefined {
  const open = writer.openSegment;
  const segment = open ?? writer.segments[writer.segments.length - 1];
  const part = segment?.parts[segment.parts.length - 1];
  return segment && part ? { msn: segment.msn, part: part.index } : undefined;
}

/** Renders the media playlist of one track. */
export function renderLlHlsMediaPlaylist(writer: CmafTrackWriter, input: LlHlsPlaylistInput): string {
  const name = writer.name;
  const timescale = writer.track.timescale;
  const uri = (path: string): string => withUriQuery(path, input.uriQuery);
  const open = writer.openSegment;
  const listed: CmafSegment[] = open ? [...writer.segments, open] : [...writer.segments];
  const skipUntil = SKIP_TARGET_DURATIONS * input.targetDuration;
  const lines = [
    '#EXTM3U',
    '#EXT-X-VERSION:9',
    `#EXT-X-TARGETDURATION:${input.targetDuration}`,
    `#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=${seconds(skipUntil)},` +
      `PART-HOLD-BACK=${seconds(PART_HOLD_BACK_PARTS * input.partTarget)}`,
    `#EXT-X-PART-INF:PART-TARGET=${seconds(input.partTarget)}`,
    `#EXT-X-MEDIA-SEQUENCE:${listed[0]?.msn ?? writer.nextSegmentNumber}`,
    `#EXT-X-DISCONTINUITY-SEQUENCE:${writer.discontinuitySequence}`,
  ];
  // Seconds from the end of each segment to the live edge, newest last.
  const toEdge: number[] = new Array(listed.length).fill(0);
  let edge = 0;
  for (let i = listed.length - 1; i >= 0; i--) {
    toEdge[i] = edge;
    edge += (listed[i] as CmafSegment).duration / timescale;
  }
  let skipped = 0;
  if (input.skip) {
    while (skipped < writer.segments.length - 1 && (toEdge[skipped] ?? 0) >= skipUntil) {
      skipped++;
    }
    if (skipped > 0) {
      lines.push(`#EXT-X-SKIP:SKIPPED-SEGMENTS=${skipped}`);
    }
  }
  let initVersion: number | undefined;
  for (let i = skipped; i < listed.length; i++) {
    const segment = listed[i] as CmafSegment;
    if (segment.discontinuity) {
      lines.push('#EXT-X-DISCONTINUITY');
    }
    if (segment.initVersion !== initVersion) {
      initVersion = segment.initVersion;
      lines.push(`#EXT-X-MAP:URI="${uri(initName(name, initVersion))}"`);
    }
    lines.push(`#EXT-X-PROGRAM-DATE-TIME:${new Date(segment.programDateTimeMs).toISOString()}`);
    const withinParts =
      (toEdge[i] ?? 0) + segment.duration / timescale <= PART_LISTING_TARGET_DURATIONS * input.targetDuration;
    if (segment === open || withinParts) {
      for (const part of segment.parts) {
        lines.push(
          `#EXT-X-PART:DURATION=${seconds(part.duration / timescale)},URI="${uri(partName(name, part.sequence))}"` +
            (part.independent ? ',INDEPENDENT=YES' : ''),
        );
      }
    }
    if (segment !== open) {
      lines.push(`#EXTINF:${seconds(segment.duration / timescale)},`, uri(segmentName(name, segment.msn)));
    }
  }
  if (input.ended) {
    lines.push('#EXT-X-ENDLIST');
  } else {
    lines.push(`#EXT-X-PRELOAD-HINT:TYPE=PART,URI="${uri(partName(name, writer.nextPart))}"`);
  }
  for (const report of input.reports) {
    const position = lastPosition(report.writer);
    if (position) {
      lines.push(
        `#EXT-X-RENDITION-REPORT:URI="${uri(report.uri)}",LAST-MSN=${position.msn},LAST-PART=${position.part}`,
      );
    }
  }
  lines.push('');
  return lines.join('\n');
}

function seconds(value: number): string {
  return value.toFixed(5).replace(/0{1,3}$/, '');
}
