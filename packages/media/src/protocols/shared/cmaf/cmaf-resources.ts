/**
 * Serves the CMAF files (ISO/IEC 23000-19) both LL-HLS and DASH list: init segments, segments and
 * parts. A request for the next part or the open segment (an LL-HLS preload hint) is held until
 * that resource is complete, as RFC 8216bis §6.2.6 asks of preload-hinted resources.
 */
import type { Readable } from 'node:stream';
import { CACHE_IMMUTABLE, errorResponse, type PlayResponse } from '../http-types.js';
import { type CmafResource, parseCmafResource } from './cmaf-names.js';
import type { CmafPackager } from './cmaf-packager.js';
import type { CmafTrackWriter } from './cmaf-track-writer.js';
import type { CmafPart, CmafSegment, CmafTrackName } from './cmaf-types.js';

/** Parts ahead of the newest that a request may wait for (the preload hint and one more). */
export const PART_LOOKAHEAD = 2;

/** RFC 8216bis §6.2.5.2: a blocked request is answered after three target durations at the latest. */
export function blockingTimeoutMs(packager: CmafPackager): number {
  return 3000 * packager.targetDuration;
}

/** Content-Type of a track's CMAF files. */
export function cmafContentType(track: CmafTrackName): string {
  return track === 'video' ? 'video/mp4' : 'audio/mp4';
}

/** Finds a part still held by a track (in the open segment or the window). */
export function findPart(writer: CmafTrackWriter, sequence: number): CmafPart | undefined {
  return locatePart(writer, sequence)?.part;
}

/** A part and the segment it belongs to. */
interface LocatedPart {
  readonly segment: CmafSegment;
  readonly part: CmafPart;
}

function locatePart(writer: CmafTrackWriter, sequence: number): LocatedPart | undefined {
  const open = writer.openSegment;
  if (open) {
    const found = partIn(open, sequence);
    if (found) {
      return found;
    }
  }
  const segments = writer.segments;
  for (let i = segments.length - 1; i >= 0; i--) {
    const found = partIn(segments[i] as CmafSegment, sequence);
    if (found) {
      return found;
    }
  }
  return undefined;
}

function partIn(segment: CmafSegment, sequence: number): LocatedPart | undefined {
  const first = segment.parts[0];
  if (!first || sequence < first.sequence) {
    return undefined;
  }
  const part = segment.parts[sequence - first.sequence];
  return part ? { segment, part } : undefined;
}

/** The bytes of a part: a view of memory (lent, never reused), or a range of its segment's file once spooled. */
function partBody(writer: CmafTrackWriter, { segment, part }: LocatedPart): Uint8Array | Readable {
  const spooled = segment.spooled;
  if (!spooled) {
    return writer.lend(part.data);
  }
  return spooled.file.body(spooled.partEnds[part.index - 1] ?? 0, spooled.partEnds[part.index]);
}

/** The bytes of a complete segment: a view of memory (lent, never reused), or its file once spooled. */
function segmentBody(writer: CmafTrackWriter, segment: CmafSegment): Uint8Array | Readable | undefined {
  if (segment.spooled) {
    return segment.spooled.file.body();
  }
  return segment.data && writer.lend(segment.data);
}

/** Finds a complete segment in a track's window. */
export function findSegment(writer: CmafTrackWriter, msn: number): CmafSegment | undefined {
  const first = writer.segments[0];
  return first ? writer.segments[msn - first.msn] : undefined;
}

/**
 * Answers a request for the CMAF file at `path` for `service` (named in the 404 when `path` names
 * none), waiting up to the blocking timeout for the next part or segment.
 */
export function serveCmafPath(
  packager: CmafPackager,
  path: string,
  service: string,
  signal: AbortSignal,
): Promise<PlayResponse> {
  const resource = parseCmafResource(path);
  if (!resource) {
    return Promise.resolve(errorResponse(404, 'resource_not_found', `no ${service} resource ${path}`));
  }
  return serveCmafResource(packager, resource, blockingTimeoutMs(packager), signal);
}

/** Answers a request for a CMAF file, waiting up to `waitMs` for the next part or segment. */
export async function serveCmafResource(
  packager: CmafPackager,
  resource: CmafResource,
  waitMs: number,
  signal: AbortSignal,
): Promise<PlayResponse> {
  const writer = packager.track(resource.track);
  if (!writer) {
    return missing(`this stream has no ${resource.track} track`);
  }
  if (resource.type === 'init') {
    const init = writer.init(resource.version);
    return init
      ? ok(resource.track, init, init.byteLength)
      : missing(`no ${resource.track} init segment version ${resource.version}`);
  }
  if (resource.type === 'part') {
    const lookup = (): LocatedPart | undefined => locatePart(writer, resource.sequence);
    const ahead = resource.sequence - writer.nextPart;
    if (!lookup() && ahead >= 0 && ahead < PART_LOOKAHEAD) {
      await packager.waitFor(() => lookup() !== undefined, waitMs, signal, 'media');
    }
    const located = lookup();
    return located
      ? ok(resource.track, partBody(writer, located), partSize(located))
      : missing(`part ${resource.sequence} of ${resource.track} is not held`);
  }
  const lookup = (): CmafSegment | undefined => findSegment(writer, resource.msn);
  const ahead = resource.msn - writer.nextSegmentNumber;
  if (!lookup() && ahead >= -1 && ahead < 1) {
    await packager.waitFor(() => lookup() !== undefined, waitMs, signal, 'media');
  }
  const segment = lookup();
  const body = segment && segmentBody(writer, segment);
  return segment && body
    ? ok(resource.track, body, segment.spooled ? segment.spooled.file.byteLength : (segment.data?.byteLength ?? 0))
    : missing(`segment ${resource.msn} of ${resource.track} is not held`);
}

function partSize({ segment, part }: LocatedPart): number {
  const ends = segment.spooled?.partEnds;
  return ends ? (ends[part.index] ?? 0) - (ends[part.index - 1] ?? 0) : part.data.byteLength;
}

function ok(track: CmafTrackName, body: Uint8Array | Readable, size: number): PlayResponse {
  return {
    status: 200,
    headers: {
      'content-type': cmafContentType(track),
      'cache-control': CACHE_IMMUTABLE,
      'content-length': String(size),
    },
    body,
  };
}

function missing(message: string): PlayResponse {
  return errorResponse(404, 'resource_not_found', message);
}
