/** Decides whether a new stream description can continue an MP4 whose init segment is written. */
import { bytesEqual } from '../../bits/bytes.js';
import type { Track } from '../../stream/track.js';

/** True when both lists describe the same tracks (ids, codecs, timescales, decoder configs). */
export function sameTracks(a: readonly Track[], b: readonly Track[]): boolean {
  return (
    a.length === b.length &&
    a.every((track, index) => {
      const other = b[index];
      return (
        other !== undefined &&
        other.id === track.id &&
        other.codec === track.codec &&
        other.timescale === track.timescale &&
        bytesEqual(other.config, track.config)
      );
    })
  );
}
