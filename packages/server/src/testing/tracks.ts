/** Test-only track descriptions: an H.264 720p30 video track and an AAC stereo 48 kHz audio track. */
import type { AudioTrack, VideoTrack } from '@airwave/media';

/** H.264 High 3.1, 1280x720 at 30 fps, 2.5 Mb/s, track id 1. */
export const testVideoTrack: VideoTrack = {
  kind: 'video',
  id: 1,
  codec: 'h264',
  timescale: 90_000,
  config: new Uint8Array([1, 0x64, 0, 0x1f]),
  codecString: 'avc1.64001f',
  width: 1280,
  height: 720,
  fps: 30,
  bitrate: 2_500_000,
};

/** AAC-LC stereo at 48 kHz, 128 kb/s, track id 2. */
export const testAudioTrack: AudioTrack = {
  kind: 'audio',
  id: 2,
  codec: 'aac',
  timescale: 48_000,
  config: new Uint8Array([0x11, 0x90]),
  codecString: 'mp4a.40.2',
  sampleRate: 48_000,
  channels: 2,
  bitrate: 128_000,
};
