/**
 * Test-only synthetic audio/video units with exact timestamps (payload bytes are placeholders):
 * for checking where packagers cut, not what decoders see (real media comes from ffmpeg-media).
 */
import type { MediaUnit } from '../stream/media-unit.js';
import type { AudioCodec, AudioTrack, Track, VideoCodec, VideoTrack } from '../stream/track.js';

/** An H.264 640x360 30 fps track (id 1). */
export const SYNTHETIC_VIDEO: VideoTrack = {
  kind: 'video',
  id: 1,
  codec: 'h264',
  timescale: 90_000,
  config: Uint8Array.of(1, 0x64, 0, 0x1f, 0xff, 0xe0, 0),
  codecString: 'avc1.64001f',
  width: 640,
  height: 360,
  fps: 30,
};

/** An AAC-LC 48 kHz stereo track (id 2). */
export const SYNTHETIC_AUDIO: AudioTrack = {
  kind: 'audio',
  id: 2,
  codec: 'aac',
  timescale: 48_000,
  config: Uint8Array.of(0x11, 0x90),
  codecString: 'mp4a.40.2',
  sampleRate: 48_000,
  channels: 2,
};

/** What to generate. */
export interface SyntheticOptions {
  /** Seconds of media. */
  readonly seconds: number;
  /** First timestamp, seconds (default 0). */
  readonly startSeconds?: number;
  /** Video frames per keyframe (default 30), 0 for no video. */
  readonly gopFrames?: number;
  /** Include audio (default true). */
  readonly audio?: boolean;
  /** Include video (default true). */
  readonly video?: boolean;
  /** Bytes per video frame (default 500). */
  readonly frameBytes?: number;
}

/** Video (30 fps, 3000 ticks) and AAC (1024 samples) units interleaved by time. */
export function syntheticUnits(options: SyntheticOptions): MediaUnit[] {
  const start = options.startSeconds ?? 0;
  const gop = options.gopFrames ?? 30;
  const timed: { at: number; unit: MediaUnit }[] = [];
  if (options.video ?? true) {
    const first = Math.round(start * 30);
    const frames = Math.round(options.seconds * 30);
    for (let i = 0; i < frames; i++) {
      const dts = (first + i) * 3000;
      timed.push({
        at: dts / 90_000,
        unit: {
          trackId: 1,
          dts,
          pts: dts,
          key: (first + i) % gop === 0,
          data: new Uint8Array(options.frameBytes ?? 500).fill(i & 0xff),
        },
      });
    }
  }
  if (options.audio ?? true) {
    const first = Math.ceil((start * 48_000) / 1024);
    const frames = Math.floor((options.seconds * 48_000) / 1024);
    for (let i = 0; i < frames; i++) {
      const dts = (first + i) * 1024;
      timed.push({
        at: dts / 48_000,
        unit: { trackId: 2, dts, pts: dts, key: true, data: new Uint8Array(20).fill(7) },
      });
    }
  }
  return timed.sort((a, b) => a.at - b.at).map((entry) => entry.unit);
}

/**
 * Track 1 of `codec` carrying `config` as is (64x64 video at 90 kHz, or 48 kHz audio with
 * `channels`), for feeding fuzzed decoder configurations to muxers.
 */
export function trackWithConfig(codec: VideoCodec | AudioCodec, config: Uint8Array, channels = 2): Track {
  if (codec === 'aac' || codec === 'opus') {
    return { kind: 'audio', id: 1, codec, timescale: 48_000, config, codecString: codec, sampleRate: 48_000, channels };
  }
  return { kind: 'video', id: 1, codec, timescale: 90_000, config, codecString: codec, width: 64, height: 64 };
}
