/**
 * Where a recorded segment's bytes lie: a byte range of the recording's pack (ADR 0089) or, in
 * recordings made before, of its track's pack when the recorder packed it (stores that append; ADR 0062), else an object of its own (S3, recordings made before).
 */
import type { ByteRange, ObjectStorage, StoredObjectRead } from '../../storage/object-storage.js';
import { packKey, segmentKey, sharedPackKey } from './recording-keys.js';
import type { IndexedSegment } from './segment-index.js';

/** The storage key holding a segment and, when packed, its byte range there. */
export function segmentLocation(
  prefix: string,
  segment: IndexedSegment,
): { readonly key: string; readonly range?: ByteRange } {
  if (segment.pack === undefined || segment.offset === undefined) {
    return { key: segmentKey(prefix, segment.track, segment.msn) };
  }
  return {
    key: segment.shared ? sharedPackKey(prefix, segment.pack) : packKey(prefix, segment.track, segment.pack),
    range: { start: segment.offset, end: segment.offset + segment.bytes - 1 },
  };
}

/** Reads one recorded segment's bytes. */
export function readSegment(
  storage: ObjectStorage,
  prefix: string,
  segment: IndexedSegment,
): Promise<StoredObjectRead> {
  const { key, range } = segmentLocation(prefix, segment);
  return storage.get(key, range);
}

/** Whether storage holds all of a segment's bytes (after a power loss a file may be short or missing). */
export async function segmentKept(storage: ObjectStorage, prefix: string, segment: IndexedSegment): Promise<boolean> {
  const { key, range } = segmentLocation(prefix, segment);
  const size = (await storage.head(key))?.size;
  return range ? size !== undefined && size > (range.end ?? 0) : size === segment.bytes;
}
