/**
 * Dispatches an audio or video tag body (FLV v10.1 Annex E.4.1 TagType 8/9) to its parser, for
 * whatever carries FLV tags: files, RTMP audio/video messages, aggregate messages.
 */
import { parseAudioTag } from './flv-audio.js';
import type { FlvPacket } from './flv-packet.js';
import { FlvTagType } from './flv-tag.js';
import { parseVideoTag } from './flv-video.js';

/** Parses an audio (8) or video (9) tag body; null for script tags and video command frames. */
export function parseMediaTag(type: number, body: Uint8Array, timestampMs: number): FlvPacket | null {
  if (type === FlvTagType.video) {
    return parseVideoTag(body, timestampMs);
  }
  if (type === FlvTagType.audio) {
    return parseAudioTag(body, timestampMs);
  }
  return null;
}
