/**
 * Video tag bodies: legacy VIDEODATA with AVCVIDEOPACKET (FLV v10.1 Annex E.4.3; CodecID 7 AVC and
 * 12 HEVC as older OBS sent it) and ExVideoTagHeader/ExVideoTagBody (E-RTMP v2: avc1, hvc1, av01,
 * vp09; ModEx; Multitrack keeps the first track). The legacy header (five bytes) is read in
 * place: no cursor or intermediate object per tag.
 */
import { truncated } from '../../bits/byte-cursor.js';
import { ParseError, UnsupportedError } from '../../errors.js';
import type { VideoCodec } from '../../stream/track.js';
import { FlvBodyCursor } from './flv-body-cursor.js';
import { readExTrack, readModEx } from './flv-ex-header.js';
import { ExVideoPacketType, FlvVideoCodecId, type FlvVideoPacket, flvPacket } from './flv-packet.js';

const WHAT = 'FLV video tag';
const EMPTY = new Uint8Array(0);
const FRAME_KEY = 1;
const FRAME_GENERATED_KEY = 4;
const FRAME_COMMAND = 5;

const CODEC_BY_FOURCC: Readonly<Record<string, VideoCodec>> = { avc1: 'h264', hvc1: 'h265', av01: 'av1', vp09: 'vp9' };

/**
 * Parses one video tag body. Returns null for video command frames (no media); throws
 * ParseError on malformed bytes and UnsupportedError for codecs other than H.264/H.265/AV1/VP9.
 */
export function parseVideoTag(body: Uint8Array, timestampMs: number): FlvVideoPacket | null {
  if (body.byteLength < 1) {
    throw truncated(WHAT, 'video tag header', 1, 0, 0);
  }
  const first = body[0] ?? 0;
  if ((first & 0x80) === 0) {
    return parseLegacy(body, first, timestampMs);
  }
  return parseEnhanced(new FlvBodyCursor(body, WHAT, 1), first, timestampMs);
}

function parseLegacy(body: Uint8Array, first: number, timestampMs: number): FlvVideoPacket | null {
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
  const length = body.byteLength;
  if (length < 2) {
    throw truncated(WHAT, 'AVCPacketType', 1, 0, 1);
  }
  if (length < 5) {
    throw truncated(WHAT, 'CompositionTime', 3, length - 2, 2);
  }
  const avcPacketType = body[1] ?? 0;
  const key = frameType === FRAME_KEY || frameType === FRAME_GENERATED_KEY;
  switch (avcPacketType) {
    case 0:
      return videoPacket(codec, 'config', timestampMs, 0, key, body.subarray(5), 0);
    case 1:
      return videoPacket(codec, 'frame', timestampMs, s24(body, 2), key, body.subarray(5), 0);
    case 2:
      return videoPacket(codec, 'end', timestampMs, 0, key, EMPTY, 0);
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
  switch (packetType) {
    case ExVideoPacketType.sequenceStart:
      return videoPacket(codec, 'config', timestampMs, 0, key, media.rest(), dropped);
    case ExVideoPacketType.codedFrames: {
      const hasCts = codec === 'h264' || codec === 'h265';
      const compositionOffsetMs = hasCts ? media.s24('CompositionTime') : 0;
      return videoPacket(codec, 'frame', timestampMs, compositionOffsetMs, key, media.rest(), dropped);
    }
    case ExVideoPacketType.codedFramesX:
      return videoPacket(codec, 'frame', timestampMs, 0, key, media.rest(), dropped);
    case ExVideoPacketType.sequenceEnd:
      return videoPacket(codec, 'end', timestampMs, 0, key, EMPTY, dropped);
    case ExVideoPacketType.metadata:
      return videoPacket(codec, 'metadata', timestampMs, 0, false, media.rest(), dropped);
    case ExVideoPacketType.mpeg2tsSequenceStart:
      return videoPacket(codec, 'metadata', timestampMs, 0, key, media.rest(), dropped, true);
    default:
      throw new ParseError(`VideoPacketType ${packetType} is not valid here`, 0);
  }
}

function videoPacket(
  codec: VideoCodec,
  packetType: FlvVideoPacket['packetType'],
  timestampMs: number,
  compositionOffsetMs: number,
  key: boolean,
  data: Uint8Array,
  dropped: number,
  mpeg2tsDescriptor = false,
): FlvVideoPacket {
  return flvPacket(
    'video',
    codec,
    packetType,
    timestampMs,
    compositionOffsetMs,
    key,
    data,
    dropped,
    mpeg2tsDescriptor,
  ) as FlvVideoPacket;
}

/** SI24 (two's complement) at `at`; the caller checked the bytes are there. */
function s24(body: Uint8Array, at: number): number {
  const value = ((body[at] ?? 0) << 16) | ((body[at + 1] ?? 0) << 8) | (body[at + 2] ?? 0);
  return value & 0x800000 ? value - 0x1000000 : value;
}
