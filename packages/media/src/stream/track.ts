/**
 * Track descriptions shared by every ingest and output adapter.
 * Video timestamps use a 90 kHz clock; audio timestamps use the track's sample rate.
 */

/** Video codecs the media plane understands. */
export type VideoCodec = 'h264' | 'h265' | 'av1' | 'vp9';
/** Audio codecs the media plane understands. */
export type AudioCodec = 'aac' | 'opus';

/** The 90 kHz clock every video track uses. */
export const VIDEO_TIMESCALE = 90_000;

/** A video track: codec, decoder configuration and what it was parsed to. */
export interface VideoTrack {
  readonly kind: 'video';
  /** Track number inside the stream, unique per stream, starting at 1. */
  readonly id: number;
  readonly codec: VideoCodec;
  /** Always VIDEO_TIMESCALE. */
  readonly timescale: number;
  /**
   * Decoder configuration record as ISO BMFF stores it: avcC (H.264), hvcC (H.265),
   * av1C (AV1), vpcC (VP9).
   */
  readonly config: Uint8Array;
  /** RFC 6381 codec string, e.g. `avc1.64001f`. */
  readonly codecString: string;
  readonly width: number;
  readonly height: number;
  /** Frames per second when known (from metadata or measured), else undefined. */
  fps?: number;
  /** Measured bits per second, updated while live. */
  bitrate?: number;
}

/** An audio track: codec, decoder configuration and what it was parsed to. */
export interface AudioTrack {
  readonly kind: 'audio';
  readonly id: number;
  readonly codec: AudioCodec;
  /** Equal to sampleRate. */
  readonly timescale: number;
  /** AudioSpecificConfig (AAC) or the OpusHead identification header (Opus). */
  readonly config: Uint8Array;
  /** RFC 6381 codec string, e.g. `mp4a.40.2` or `opus`. */
  readonly codecString: string;
  readonly sampleRate: number;
  readonly channels: number;
  bitrate?: number;
}

/** Either kind of track. */
export type Track = VideoTrack | AudioTrack;

/** What a publisher declared: its tracks, fixed until the publisher changes configuration. */
export interface StreamDescription {
  readonly tracks: readonly Track[];
}

/** Returns the first video track of a description, if any. */
export function videoTrackOf(description: StreamDescription): VideoTrack | undefined {
  return description.tracks.find((track): track is VideoTrack => track.kind === 'video');
}

/** Returns the first audio track of a description, if any. */
export function audioTrackOf(description: StreamDescription): AudioTrack | undefined {
  return description.tracks.find((track): track is AudioTrack => track.kind === 'audio');
}
