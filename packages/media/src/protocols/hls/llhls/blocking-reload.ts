/**
 * Playlist delivery directives of RFC 8216bis §6.2.5: `_HLS_msn`, `_HLS_part` (blocking playlist
 * reload) and `_HLS_skip` (delta updates), parsed and checked against a track's position.
 */
import type { CmafTrackWriter } from '../../shared/cmaf/cmaf-track-writer.js';
import { lastPosition } from './llhls-media-playlist.js';

/** A parsed set of delivery directives. */
export interface DeliveryDirectives {
  /** `_HLS_msn`: hold the playlist until this segment (or part of it) exists. */
  readonly msn: number | undefined;
  /** `_HLS_part`: with msn, hold until this part of segment msn (or a later part) exists. */
  readonly part: number | undefined;
  /** `_HLS_skip=YES`: answer with a delta update. */
  readonly skip: boolean;
}

/** Directives or the reason they are malformed (answered with 400). */
export type DirectivesResult =
  | { readonly ok: true; readonly value: DeliveryDirectives }
  | { readonly ok: false; readonly reason: string };

const DECIMAL = /^\d{1,12}$/;

/** Parses the delivery directives of a playlist request. */
export function parseDirectives(query: Readonly<Record<string, string | undefined>>): DirectivesResult {
  const msnText = query._HLS_msn;
  const partText = query._HLS_part;
  const skipText = query._HLS_skip;
  if (msnText !== undefined && !DECIMAL.test(msnText)) {
    return { ok: false, reason: '_HLS_msn must be a decimal integer' };
  }
  if (partText !== undefined && !DECIMAL.test(partText)) {
    return { ok: false, reason: '_HLS_part must be a decimal integer' };
  }
  if (partText !== undefined && msnText === undefined) {
    return { ok: false, reason: '_HLS_part needs _HLS_msn' };
  }
  if (skipText !== undefined && skipText !== 'YES' && skipText !== 'v2') {
    return { ok: false, reason: '_HLS_skip must be YES or v2' };
  }
  return {
    ok: true,
    value: {
      msn: msnText === undefined ? undefined : Number(msnText),
      part: partText === undefined ? undefined : Number(partText),
      skip: skipText !== undefined,
    },
  };
}

/** Parts a request may ask beyond the newest one (RFC 8216bis Advance Part Limit). */
export function advancePartLimit(partTargetSeconds: number): number {
  return partTargetSeconds < 1 ? Math.floor(3 / partTargetSeconds) : 3;
}

/** True when the playlist of `writer` already satisfies the directives. */
export function satisfies(writer: CmafTrackWriter, directives: DeliveryDirectives): boolean {
  const { msn, part } = directives;
  if (msn === undefined) {
    return true;
  }
  if (part === undefined) {
    const last = writer.segments[writer.segments.length - 1];
    return last !== undefined && last.msn >= msn;
  }
  const position = lastPosition(writer);
  return position !== undefined && (position.msn > msn || (position.msn === msn && position.part >= part));
}

/**
 * Why the directives ask too far ahead (answered with 400 at once), or undefined. RFC 8216bis
 * §6.2.5.2: more than two segments after the last one, or more than the Advance Part Limit parts
 * after the last part (a part of a later segment counts as at least its index + 1 ahead).
 */
export function tooFarAhead(
  writer: CmafTrackWriter,
  directives: DeliveryDirectives,
  partTargetSeconds: number,
): string | undefined {
  const { msn, part } = directives;
  if (msn === undefined) {
    return undefined;
  }
  const position = lastPosition(writer);
  const lastMsn = position?.msn ?? writer.nextSegmentNumber - 1;
  if (msn > lastMsn + 2) {
    return `_HLS_msn=${msn} is more than two segments after the last segment ${lastMsn}`;
  }
  const limit = advancePartLimit(partTargetSeconds);
  if (part !== undefined && position && msn >= position.msn) {
    const ahead = msn === position.msn ? part - position.part : part + 1;
    if (ahead > limit) {
      return `_HLS_msn=${msn}&_HLS_part=${part} is more than ${limit} parts after the last part (${position.msn}.${position.part})`;
    }
  }
  return undefined;
}
