/**
 * Video tag bodies: legacy VIDEODATA with AVCVIDEOPACKET (FLV v10.1 Annex E.4.3; CodecID 7 AVC and
 * 12 HEVC as older OBS sent it) and ExVideoTagHeader/ExVideoTagBody (E-RTMP v2: avc1, hvc1, av01,
 * vp09; ModEx; Multitrack keeps the first track).
 */
import { ParseError, UnsupportedError } from '../../errors.js';
import type { VideoCodec } from '../../stream/track.js';
import { FlvBodyCursor } from './flv-body-cursor.js';
import { readExTrack, readModEx } from './flv-ex-header.js';
import { ExVideoPacketType, FlvVideoCodecId, type FlvVideoPacket } from './flv-packet.js';

const FRAME_KEY = 1;
const FRAME_GENERATED_KEY = 4;
const FRAME_COMMAND = 5;

const CODEC_BY_FOURCC: Readonly<Record<string, VideoCodec>> = { avc1: 'h264', hvc1: 'h265', av01: 'av1', vp09: 'vp9' };

/**
 * Parses one video tag body. Returns null for video command frames (no media); throws
 * ParseError on malformed bytes and UnsupportedError for codecs other than H.264/H.265/AV1/VP9.
 */
export function parseVideoTag(body: Uint8Array, timestampMs: number): FlvVideoPacket | null {
  const cursor = new FlvBodyCursor(body, 'FLV video tag');
  const first = cursor.u8('video tag header');
  if ((first & 0x80) === 0) {
    return parseLegacy(cursor, first, timestampMs);
  }
  return parseEnhanced(cursor, first, timestampMs);
}

function parseLegacy(cursor: FlvBodyCursor, first: number, timestampMs: number): FlvVideoPacket | null {
  const frameType = first >> 4;
  const codecId = first & 0x0f;
  if (frameType === FRAME_COMMAND) {
    return null;
  }
  if (frameType === 0 || frameType > FRAME_COMMAND) {
    throw new ParseError(`video FrameType ${frameType} is reserved`, 0);
  }
  let codec: VideoCodec;
  if (codecId === FlvVideoCodecId.avc) {
    codec = 'h264';
  } else if (codecId === FlvVideoCodecId.hevc) {
    codec = 'h265';
  } else {
    throw new UnsupportedError(`legacy FLV video CodecID ${codecId}; supported: 7 (AVC), 12 (HEVC), E-RTMP FourCCs`);
  }
  const avcPacketType = cursor.u8('AVCPacketType');
  const compositionOffsetMs = cursor.s24('CompositionTime');
  const key = frameType === FRAME_KEY || frameType === FRAME_GENERATED_KEY;
  const base = { kind: 'video', codec, timestampMs, key } as const;
  switch (avcPacketType) {
    case 0:
      return { ...base, packetType: 'config', compositionOffsetMs: 0, data: cursor.rest() };
    case 1:
      return { ...base, packetType: 'frame', compositionOffsetMs, data: cursor.rest() };
    case 2:
      return { ...base, packetType: 'end', compositionOffsetMs: 0, data: new Uint8Array(0) };
    default:
      throw new ParseError(`AVCPacketType ${avcPacketType} is not 0, 1 or 2`, 1);
  }
}

function parseEnhanced(cursor: FlvBodyCursor, first: number, timestampMs: number): FlvVideoPacket | null {
  const frameType = (first >> 4) & 0x07;
  const modEx = readModEx(cursor, first & 0x0f, ExVideoPacketType.modEx);
  if (modEx.packetType !== ExVideoPacketType.metadata && frameType === FRAME_COMMAND) {
    cursor.u8('VideoCommand');
    return null;
  }
  if (modEx.packetType !== ExVideoPacketType.metadata && (frameType === 0 || frameType > FRAME_COMMAND)) {
    throw new ParseError(`video FrameType ${frameType} is reserved`, 0);
  }
  const { packetType, fourCc, media, dropped } = readExTrack(
    cursor,
    modEx.packetType,
    ExVideoPacketType.multitrack,
    'video',
  );
  const codec = CODEC_BY_FOURCC[fourCc];
  if (!codec) {
    throw new UnsupportedError(`video FourCC "${fourCc}"; supported: avc1, hvc1, av01, vp09`);
  }
  const key = frameType === FRAME_KEY || frameType === FRAME_GENERATED_KEY;
  const base = { kind: 'video', codec, timestampMs, key, ...(dropped > 0 ? { droppedTracks: dropped } : {}) } as const;
  switch (packetType) {
    case ExVideoPacketType.sequenceStart:
      return { ...base, packetType: 'config', compositionOffsetMs: 0, data: media.rest() };
    case ExVideoPacketType.codedFrames: {
      const hasCts = codec === 'h264' || codec === 'h265';
      const compositionOffsetMs = hasCts ? media.s24('CompositionTime') : 0;
      return { ...base, packetType: 'frame', compositionOffsetMs, data: media.rest() };
    }
    case ExVideoPacketType.codedFramesX:
      return { ...base, packetType: 'frame', compositionOffsetMs: 0, data: media.rest() };
    case ExVideoPacketType.sequenceEnd:
      return { ...base, packetType: 'end', compositionOffsetMs: 0, data: new Uint8Array(0) };
    case ExVideoPacketType.metadata:
      return { ...base, key: false, packetType: 'metadata', compositionOffsetMs: 0, data: media.rest() };
    case ExVideoPacketType.mpeg2tsSequenceStart:
      return { ...base, packetType: 'metadata', compositionOffsetMs: 0, data: media.rest(), mpeg2tsDescriptor: true };
    default:
      throw new ParseError(`VideoPacketType ${packetType} is not valid here`, 0);
  }
}
