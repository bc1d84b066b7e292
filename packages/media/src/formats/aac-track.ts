/**
 * The audio track an AAC AudioSpecificConfig describes (ISO/IEC 14496-3 §1.6.2.1), shared by the
 * readers that receive the config out of band: RTMP sequence headers, DTSC headers, RTSP SDPs.
 */
import { type AudioSpecificConfig, aacCodecString, parseAudioSpecificConfig } from '../codecs/aac.js';
import type { AudioTrack } from '../stream/track.js';

/** Parses `config` and describes track `id` by it (timescale = sample rate); throws ParseError/UnsupportedError. */
export function aacTrackFromConfig(id: number, config: Uint8Array): { track: AudioTrack; asc: AudioSpecificConfig } {
  const asc = parseAudioSpecificConfig(config);
  return {
    track: {
      kind: 'audio',
      id,
      codec: 'aac',
      timescale: asc.sampleRate,
      config,
      codecString: aacCodecString(asc.objectType),
      sampleRate: asc.sampleRate,
      channels: asc.channels,
    },
    asc,
  };
}
