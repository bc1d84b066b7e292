/**
 * Encoder output wrapped as E-RTMP v2 FLV tags (ExVideoTagHeader/ExAudioTagHeader) and joined into
 * one publishable sequence: onMetaData (E-RTMP v2 FourCC codec ids), then tags in timestamp order.
 */
import { encodeAmf0 } from '../../formats/amf0/amf0-encode.js';
import { Amf0EcmaArray, amf0Object } from '../../formats/amf0/amf0-value.js';
import { type FlvTag, FlvTagType } from '../../formats/flv/flv-tag.js';

/** One elementary stream converted to tags: its sequence start first, then its frames. */
export interface EncodedTrack {
  readonly tags: FlvTag[];
  /** onMetaData fields this track contributes (width, height, framerate, videocodecid, ...). */
  readonly metadata: Readonly<Record<string, number>>;
}

/** A FourCC as the number onMetaData carries in videocodecid/audiocodecid (E-RTMP v2). */
export function fourCcNumber(fourCc: string): number {
  return [...fourCc].reduce((value, ch) => value * 256 + (ch.charCodeAt(0) & 0xff), 0);
}

/**
 * onMetaData, then every track's first tag (its sequence start), then the rest merged by
 * timestamp (at equal timestamps the earlier track goes first).
 */
export function toFlvTags(tracks: readonly EncodedTrack[]): FlvTag[] {
  const metadata = Object.assign({}, ...tracks.map((track) => track.metadata)) as Record<string, number>;
  const script: FlvTag = {
    type: FlvTagType.script,
    timestampMs: 0,
    data: encodeAmf0('onMetaData', new Amf0EcmaArray(amf0Object(metadata))),
  };
  const out: FlvTag[] = [script, ...tracks.flatMap((track) => track.tags.slice(0, 1))];
  const cursors = tracks.map(() => 1);
  for (;;) {
    let pick = -1;
    let earliest = Number.POSITIVE_INFINITY;
    tracks.forEach((track, index) => {
      const tag = track.tags[cursors[index] ?? 0];
      if (tag && tag.timestampMs < earliest) {
        earliest = tag.timestampMs;
        pick = index;
      }
    });
    const cursor = cursors[pick];
    const tag = cursor === undefined ? undefined : tracks[pick]?.tags[cursor];
    if (!tag || cursor === undefined) {
      return out;
    }
    out.push(tag);
    cursors[pick] = cursor + 1;
  }
}
