/**
 * Builds audio and video tag bodies (FLV v10.1 Annex E.4.2-E.4.3 for legacy AVC/AAC, E-RTMP v2
 * ExVideoTagHeader/ExAudioTagHeader for every other codec): what a publisher sends per message.
 */
import type { AudioCodec, VideoCodec } from '../../stream/track.js';
import { AUDIO_FOURCC, ExAudioPacketType, ExVideoPacketType, type FlvPacketType, VIDEO_FOURCC } from './flv-packet.js';

/** One video packet to serialise. */
export interface VideoTagInput {
  readonly codec: VideoCodec;
  readonly packetType: Exclude<FlvPacketType, 'metadata'>;
  readonly key: boolean;
  readonly compositionOffsetMs?: number;
  readonly data: Uint8Array;
  /** Use legacy CodecID signalling for H.264 (7) instead of the avc1 FourCC. Default true for H.264. */
  readonly legacy?: boolean;
}

/** One audio packet to serialise. */
export interface AudioTagInput {
  readonly codec: AudioCodec;
  readonly packetType: Exclude<FlvPacketType, 'metadata'>;
  readonly data: Uint8Array;
  /** Use legacy SoundFormat 10 for AAC instead of the mp4a FourCC. Default true for AAC. */
  readonly legacy?: boolean;
}

function fourCcBytes(text: string): number[] {
  return [...text].map((ch) => ch.charCodeAt(0) & 0xff);
}

function si24(value: number): number[] {
  const v = value < 0 ? value + 0x1000000 : value;
  return [(v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff];
}

function join(head: Uint8Array, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(head.byteLength + data.byteLength);
  out.set(head);
  out.set(data, head.byteLength);
  return out;
}

/** Serialises a video packet as a tag body. */
export function buildVideoTag(input: VideoTagInput): Uint8Array {
  return join(videoTagHead(input), input.data);
}

/** Serialises an audio packet as a tag body (AAC legacy form unless `legacy: false`, Opus as ExAudioTagHeader). */
export function buildAudioTag(input: AudioTagInput): Uint8Array {
  return join(audioTagHead(input), input.data);
}

/** The bytes of a video tag body before `input.data` (the body is these, then the data). */
export function videoTagHead(input: Omit<VideoTagInput, 'data'>): Uint8Array {
  const frameType = input.key ? 1 : 2;
  const cts = Math.round(input.compositionOffsetMs ?? 0);
  if (input.codec === 'h264' && input.legacy !== false) {
    const avcPacketType = input.packetType === 'config' ? 0 : input.packetType === 'frame' ? 1 : 2;
    return Uint8Array.of((frameType << 4) | 7, avcPacketType, ...si24(input.packetType === 'frame' ? cts : 0));
  }
  const hasCts = input.codec === 'h264' || input.codec === 'h265';
  let packetType: number;
  const extra: number[] = [];
  if (input.packetType === 'config') {
    packetType = ExVideoPacketType.sequenceStart;
  } else if (input.packetType === 'end') {
    packetType = ExVideoPacketType.sequenceEnd;
  } else if (hasCts && cts !== 0) {
    packetType = ExVideoPacketType.codedFrames;
    extra.push(...si24(cts));
  } else {
    packetType = hasCts ? ExVideoPacketType.codedFramesX : ExVideoPacketType.codedFrames;
  }
  return Uint8Array.of(0x80 | (frameType << 4) | packetType, ...fourCcBytes(VIDEO_FOURCC[input.codec]), ...extra);
}

/** The bytes of an audio tag body before `input.data`. */
export function audioTagHead(input: Omit<AudioTagInput, 'data'>): Uint8Array {
  if (input.codec === 'aac' && input.packetType !== 'end' && input.legacy !== false) {
    return Uint8Array.of(0xaf, input.packetType === 'config' ? 0 : 1);
  }
  const packetType =
    input.packetType === 'config'
      ? ExAudioPacketType.sequenceStart
      : input.packetType === 'end'
        ? ExAudioPacketType.sequenceEnd
        : ExAudioPacketType.codedFrames;
  return Uint8Array.of(0x90 | packetType, ...fourCcBytes(AUDIO_FOURCC[input.codec]));
}
