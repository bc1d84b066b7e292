/**
 * Playlist text for classic HLS (RFC 8216): the multivariant playlist (section 4.3.4.2,
 * EXT-X-STREAM-INF) and the live media playlist of MPEG-TS segments (sections 4.3.3 and 6.2.2).
 */
import { withUriQuery } from '../../shared/http-types.js';

/** What the multivariant playlist says about the one variant. */
export interface TsVariant {
  /** URI of the media playlist, relative to the multivariant playlist. */
  readonly uri: string;
  /** Peak bits per second. */
  readonly bandwidth: number;
  /** Average bits per second, when measured. */
  readonly averageBandwidth?: number;
  /** RFC 6381 codec strings of every track. */
  readonly codecs: readonly string[];
  readonly width?: number;
  readonly height?: number;
  readonly frameRate?: number;
}

/** One segment as the media playlist lists it. */
export interface PlaylistSegment {
  readonly sequence: number;
  readonly duration: number;
  readonly programDateTime: Date;
  readonly discontinuity: boolean;
  readonly discontinuitySequence: number;
}

/** Everything a media playlist shows. */
export interface TsMediaPlaylist {
  /** EXT-X-TARGETDURATION in whole seconds. */
  readonly targetDuration: number;
  /** Listed segments, oldest first. */
  readonly segments: readonly PlaylistSegment[];
  /** Adds EXT-X-ENDLIST. */
  readonly ended: boolean;
  /** Query appended to every segment URI (e.g. `jwt=...`). */
  readonly uriQuery?: string;
}

/** The URI of segment `sequence`. */
export function segmentUri(sequence: number): string {
  return `seg-${sequence}.ts`;
}

/** Renders the multivariant playlist with one EXT-X-STREAM-INF. */
export function renderMultivariantPlaylist(variant: TsVariant, uriQuery?: string): string {
  const attributes = [`BANDWIDTH=${Math.max(1, Math.round(variant.bandwidth))}`];
  if (variant.averageBandwidth !== undefined && variant.averageBandwidth > 0) {
    attributes.push(`AVERAGE-BANDWIDTH=${Math.round(variant.averageBandwidth)}`);
  }
  if (variant.codecs.length > 0) {
    attributes.push(`CODECS="${variant.codecs.join(',')}"`);
  }
  if (variant.width && variant.height) {
    attributes.push(`RESOLUTION=${variant.width}x${variant.height}`);
  }
  if (variant.frameRate !== undefined && variant.frameRate > 0) {
    attributes.push(`FRAME-RATE=${variant.frameRate.toFixed(3)}`);
  }
  return [
    '#EXTM3U',
    '#EXT-X-VERSION:3',
    '#EXT-X-INDEPENDENT-SEGMENTS',
    `#EXT-X-STREAM-INF:${attributes.join(',')}`,
    withUriQuery(variant.uri, uriQuery),
    '',
  ].join('\n');
}

/** Renders a live (or, once ended, complete) media playlist. */
export function renderMediaPlaylist(playlist: TsMediaPlaylist): string {
  const first = playlist.segments[0];
  const lines = [
    '#EXTM3U',
    '#EXT-X-VERSION:3',
    `#EXT-X-TARGETDURATION:${playlist.targetDuration}`,
    `#EXT-X-MEDIA-SEQUENCE:${first?.sequence ?? 0}`,
    `#EXT-X-DISCONTINUITY-SEQUENCE:${first?.discontinuitySequence ?? 0}`,
    '#EXT-X-INDEPENDENT-SEGMENTS',
  ];
  for (const segment of playlist.segments) {
    if (segment.discontinuity) {
      lines.push('#EXT-X-DISCONTINUITY');
    }
    lines.push(`#EXT-X-PROGRAM-DATE-TIME:${segment.programDateTime.toISOString()}`);
    lines.push(`#EXTINF:${segment.duration.toFixed(3)},`);
    lines.push(withUriQuery(segmentUri(segment.sequence), playlist.uriQuery));
  }
  if (playlist.ended) {
    lines.push('#EXT-X-ENDLIST');
  }
  lines.push('');
  return lines.join('\n');
}
