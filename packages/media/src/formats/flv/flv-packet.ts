/**
 * The typed media packet every FLV/E-FLV tag body parses into (FLV v10.1 Annex E.4.2-E.4.3,
 * E-RTMP v2 ExVideoTagHeader/ExAudioTagHeader), independent of legacy or enhanced signalling.
 */
import type { AudioCodec, VideoCodec } from '../../stream/track.js';

/** What a packet carries: decoder configuration, a coded frame, end of sequence, or metadata. */
export type FlvPacketType = 'config' | 'frame' | 'end' | 'metadata';

/** A video packet. */
export interface FlvVideoPacket {
  readonly kind: 'video';
  readonly codec: VideoCodec;
  readonly packetType: FlvPacketType;
  /** Decode time in milliseconds (the tag or RTMP message timestamp). */
  readonly timestampMs: number;
  /** pts - dts in milliseconds (signed; 0 for codecs without it). */
  readonly compositionOffsetMs: number;
  readonly key: boolean;
  /**
   * config: avcC / hvcC / av1C / vpcC record; frame: the coded frame (AVCC length-prefixed NAL
   * units, AV1 OBUs, VP9 frame); metadata: AMF0 bytes; end: empty.
   */
  readonly data: Uint8Array;
  /** Other multitrack tracks carried by the same tag and left out (only the first track is kept). */
  readonly droppedTracks?: number;
  /** Set for VideoPacketType.MPEG2TSSequenceStart: `data` is an MPEG-2 TS descriptor, not a config record. */
  readonly mpeg2tsDescriptor?: boolean;
}

/** An audio packet. */
export interface FlvAudioPacket {
  readonly kind: 'audio';
  readonly codec: AudioCodec;
  readonly packetType: FlvPacketType;
  readonly timestampMs: number;
  readonly compositionOffsetMs: 0;
  readonly key: true;
  /** config: AudioSpecificConfig (AAC) or OpusHead; frame: one raw AAC frame or Opus packet. */
  readonly data: Uint8Array;
  readonly droppedTracks?: number;
}

/** A parsed audio or video tag body. */
export type FlvPacket = FlvVideoPacket | FlvAudioPacket;

/**
 * Builds a packet with every field present in one order, so that audio and video packets share one
 * object shape and the code reading them stays monomorphic (`droppedTracks` is 0 and
 * `mpeg2tsDescriptor` false unless set).
 */
export function flvPacket(
  kind: 'video' | 'audio',
  codec: VideoCodec | AudioCodec,
  packetType: FlvPacketType,
  timestampMs: number,
  compositionOffsetMs: number,
  key: boolean,
  data: Uint8Array,
  droppedTracks = 0,
  mpeg2tsDescriptor = false,
): FlvPacket {
  return {
    kind,
    codec,
    packetType,
    timestampMs,
    compositionOffsetMs,
    key,
    data,
    droppedTracks,
    mpeg2tsDescriptor,
  } as FlvPacket;
}

/** Legacy FLV CodecID values of the VIDEODATA tag (E.4.3.1), plus 12 (HEVC) as older OBS/CDNs send it. */
export const FlvVideoCodecId = { avc: 7, hevc: 12 } as const;

/** Legacy FLV SoundFormat values (E.4.2.1) this reader uses; 9 signals ExAudioTagHeader. */
export const FlvSoundFormat = { aac: 10, exHeader: 9 } as const;

/** E-RTMP v2 VideoPacketType. */
export const ExVideoPacketType = {
  sequenceStart: 0,
  codedFrames: 1,
  sequenceEnd: 2,
  codedFramesX: 3,
  metadata: 4,
  mpeg2tsSequenceStart: 5,
  multitrack: 6,
  modEx: 7,
} as const;

/** E-RTMP v2 AudioPacketType. */
export const ExAudioPacketType = {
  sequenceStart: 0,
  codedFrames: 1,
  sequenceEnd: 2,
  multichannelConfig: 4,
  multitrack: 5,
  modEx: 7,
} as const;

/** E-RTMP v2 AvMultitrackType. */
export const AvMultitrackType = { oneTrack: 0, manyTracks: 1, manyTracksManyCodecs: 2 } as const;

/** E-RTMP FourCC of each video codec. */
export const VIDEO_FOURCC: Readonly<Record<VideoCodec, string>> = {
  h264: 'avc1',
  h265: 'hvc1',
  av1: 'av01',
  vp9: 'vp09',
};

/** E-RTMP FourCC of each audio codec. */
export const AUDIO_FOURCC: Readonly<Record<AudioCodec, string>> = { aac: 'mp4a', opus: 'Opus' };

/** Reads a big-endian FourCC as text. */
export function fourCcAt(bytes: Uint8Array, offset: number): string {
  return String.fromCharCode(
    bytes[offset] ?? 0,
    bytes[offset + 1] ?? 0,
    bytes[offset + 2] ?? 0,
    bytes[offset + 3] ?? 0,
  );
}
