/**
 * One access unit of one track: a whole video frame or one audio frame.
 * Video payloads are length-prefixed (4-byte) NAL units for H.264/H.265 (AVCC form),
 * OBUs in low-overhead format for AV1, and the raw frame for VP9. Audio payloads are raw
 * AAC frames (no ADTS header) or Opus packets.
 */
export interface MediaUnit {
  /** Track id (see Track.id). */
  readonly trackId: number;
  /** Decode timestamp in the track's timescale. */
  readonly dts: number;
  /** Presentation timestamp in the track's timescale (pts - dts is the composition offset). */
  readonly pts: number;
  /** True for random access points (IDR / key frames); always true for audio. */
  readonly key: boolean;
  readonly data: Uint8Array;
  /** Set on the first unit of each track after a publisher reconnected (timestamps re-based). */
  readonly discontinuity?: boolean;
}
