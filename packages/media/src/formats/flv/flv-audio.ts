/**
 * Audio tag bodies: legacy AUDIODATA with AACAUDIODATA (FLV v10.1 Annex E.4.2) and
 * ExAudioTagHeader/ExAudioTagBody (E-RTMP v2: mp4a, Opus; ModEx; Multitrack keeps the first track).
 * The legacy AAC header (two bytes) is read in place: no cursor or intermediate object per tag.
 */
import { truncated } from '../../bits/byte-cursor.js';
import { ParseError, UnsupportedError } from '../../errors.js';
import type { AudioCodec } from '../../stream/track.js';
import { FlvBodyCursor } from './flv-body-cursor.js';
import { readExTrack, readModEx } from './flv-ex-header.js';
import { ExAudioPacketType, type FlvAudioPacket, FlvSoundFormat, flvPacket } from './flv-packet.js';

const WHAT = 'FLV audio tag';
const EMPTY = new Uint8Array(0);
const CODEC_BY_FOURCC: Readonly<Record<string, AudioCodec>> = { mp4a: 'aac', Opus: 'opus' };

/** Parses one audio tag body; ParseError on malformed bytes, UnsupportedError for codecs other than AAC/Opus. */
export function parseAudioTag(body: Uint8Array, timestampMs: number): FlvAudioPacket {
  if (body.byteLength < 1) {
    throw truncated(WHAT, 'audio tag header', 1, 0, 0);
  }
  const first = body[0] ?? 0;
  const soundFormat = first >> 4;
  if (soundFormat === FlvSoundFormat.aac) {
    if (body.byteLength < 2) {
      throw truncated(WHAT, 'AACPacketType', 1, 0, 1);
    }
    const aacPacketType = body[1] ?? 0;
    if (aacPacketType > 1) {
      throw new ParseError(`AACPacketType ${aacPacketType} is not 0 or 1`, 1);
    }
    return audioPacket('aac', aacPacketType === 0 ? 'config' : 'frame', timestampMs, body.subarray(2), 0);
  }
  if (soundFormat !== FlvSoundFormat.exHeader) {
    throw new UnsupportedError(`legacy FLV SoundFormat ${soundFormat}; supported: 10 (AAC), E-RTMP mp4a/Opus`);
  }
  return parseExAudio(new FlvBodyCursor(body, WHAT, 1), first, timestampMs);
}

function parseExAudio(cursor: FlvBodyCursor, first: number, timestampMs: number): FlvAudioPacket {
  const modEx = readModEx(cursor, first & 0x0f, ExAudioPacketType.modEx);
  const { packetType, fourCc, media, dropped } = readExTrack(
    cursor,
    modEx.packetType,
    ExAudioPacketType.multitrack,
    'audio',
  );
  const codec = CODEC_BY_FOURCC[fourCc];
  if (!codec) {
    throw new UnsupportedError(`audio FourCC "${fourCc}"; supported: mp4a, Opus`);
  }
  switch (packetType) {
    case ExAudioPacketType.sequenceStart:
      return audioPacket(codec, 'config', timestampMs, media.rest(), dropped);
    case ExAudioPacketType.codedFrames:
      return audioPacket(codec, 'frame', timestampMs, media.rest(), dropped);
    case ExAudioPacketType.sequenceEnd:
      return audioPacket(codec, 'end', timestampMs, EMPTY, dropped);
    case ExAudioPacketType.multichannelConfig:
      return audioPacket(codec, 'metadata', timestampMs, media.rest(), dropped);
    default:
      throw new ParseError(`AudioPacketType ${packetType} is not valid here`, 0);
  }
}

function audioPacket(
  codec: AudioCodec,
  packetType: FlvAudioPacket['packetType'],
  timestampMs: number,
  data: Uint8Array,
  dropped: number,
): FlvAudioPacket {
  return flvPacket('audio', codec, packetType, timestampMs, 0, true, data, dropped) as FlvAudioPacket;
}
