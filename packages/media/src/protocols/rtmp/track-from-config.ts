/**
 * Builds stream Tracks from FLV/E-RTMP sequence headers (avcC ISO/IEC 14496-15 §5.3.3, hvcC
 * §8.3.3, av1C AV1-ISOBMFF §2.3, vpcC VP-ISOBMFF §2.2, AudioSpecificConfig ISO/IEC 14496-3
 * §1.6.2.1, OpusHead RFC 7845 §5.1) using the codec parsers. H.264/H.265 records with NAL
 * lengths other than 4 bytes are rewritten to 4, because units are forwarded with 4-byte lengths.
 */

import { describeAv1C } from '../../codecs/av1.js';
import { describeAvcC } from '../../codecs/h264.js';
import { describeHvcC } from '../../codecs/h265.js';
import { OPUS_SAMPLE_RATE, opusCodecString, parseOpusHead } from '../../codecs/opus.js';
import { describeVpcC } from '../../codecs/vp9.js';
import { aacTrackFromConfig } from '../../formats/aac-track.js';
import type { FlvMetadataHints } from '../../formats/flv/flv-script.js';
import {
  type AudioCodec,
  type AudioTrack,
  VIDEO_TIMESCALE,
  type VideoCodec,
  type VideoTrack,
} from '../../stream/track.js';

/** Track id of the video track of an RTMP stream. */
export const RTMP_VIDEO_TRACK_ID = 1;
/** Track id of the audio track of an RTMP stream. */
export const RTMP_AUDIO_TRACK_ID = 2;

/** A video track plus how its payloads must be framed. */
export interface VideoTrackInfo {
  readonly track: VideoTrack;
  /** NAL length size of incoming H.264/H.265 payloads (1, 2 or 4); 0 for AV1/VP9. */
  readonly lengthSize: number;
}

/** An audio track plus the samples one frame usually spans. */
export interface AudioTrackInfo {
  readonly track: AudioTrack;
  /** AAC samples per frame; 0 for Opus (each packet's TOC says it). */
  readonly samplesPerFrame: number;
}

function withLengthSize4(config: Uint8Array, byteIndex: number): Uint8Array {
  const out = new Uint8Array(config);
  out[byteIndex] = (out[byteIndex] ?? 0) | 0x03;
  return out;
}

/**
 * Describes a video sequence header. Returns undefined for VP9 until a key frame gives the
 * picture size (vpcC has none) and no onMetaData size is known. Throws ParseError/UnsupportedError.
 */
export function videoTrackFromConfig(
  codec: VideoCodec,
  config: Uint8Array,
  hints: FlvMetadataHints,
  keyFrame?: Uint8Array,
): VideoTrackInfo | undefined {
  const base = { kind: 'video', id: RTMP_VIDEO_TRACK_ID, codec, timescale: VIDEO_TIMESCALE } as const;
  const bitrate = hints.videoDataRate === undefined ? {} : { bitrate: Math.round(hints.videoDataRate * 1000) };
  if (codec === 'h264' || codec === 'h265') {
    const d = codec === 'h264' ? describeAvcC(config) : describeHvcC(config);
    const fps = d.fps ?? hints.framerate;
    const stored = d.lengthSize === 4 ? config : withLengthSize4(config, codec === 'h264' ? 4 : 21);
    return {
      track: {
        ...base,
        config: stored,
        codecString: d.codecString,
        width: d.width,
        height: d.height,
        ...(fps === undefined ? {} : { fps }),
        ...bitrate,
      },
      lengthSize: d.lengthSize,
    };
  }
  if (codec === 'av1') {
    const d = describeAv1C(config);
    const fps = d.fps ?? hints.framerate;
    return {
      track: {
        ...base,
        config,
        codecString: d.codecString,
        width: d.width,
        height: d.height,
        ...(fps === undefined ? {} : { fps }),
        ...bitrate,
      },
      lengthSize: 0,
    };
  }
  const d = describeVpcC(config, keyFrame);
  const width = d.width ?? hints.width;
  const height = d.height ?? hints.height;
  if (width === undefined || height === undefined) {
    return undefined;
  }
  const fps = hints.framerate;
  return {
    track: {
      ...base,
      config,
      codecString: d.codecString,
      width,
      height,
      ...(fps === undefined ? {} : { fps }),
      ...bitrate,
    },
    lengthSize: 0,
  };
}

/** Describes an audio sequence header (AudioSpecificConfig or OpusHead). Throws ParseError/UnsupportedError. */
export function audioTrackFromConfig(codec: AudioCodec, config: Uint8Array, hints: FlvMetadataHints): AudioTrackInfo {
  const bitrate = hints.audioDataRate === undefined ? {} : { bitrate: Math.round(hints.audioDataRate * 1000) };
  if (codec === 'aac') {
    const { track, asc } = aacTrackFromConfig(RTMP_AUDIO_TRACK_ID, config);
    return { track: { ...track, ...bitrate }, samplesPerFrame: asc.samplesPerFrame };
  }
  const head = parseOpusHead(config);
  return {
    track: {
      kind: 'audio',
      id: RTMP_AUDIO_TRACK_ID,
      codec,
      timescale: OPUS_SAMPLE_RATE,
      config,
      codecString: opusCodecString(),
      sampleRate: OPUS_SAMPLE_RATE,
      channels: head.channels,
      ...bitrate,
    },
    samplesPerFrame: 0,
  };
}
