/**
 * Audio tag bodies: legacy AUDIODATA with AACAUDIODATA (FLV v10.1 Annex E.4.2) and
 * ExAudioTagHeader/ExAudioTagBody (E-RTMP v2: mp4a, Opus; ModEx; Multitrack keeps the first track).
 */
import { ParseError, UnsupportedError } from '../../errors.js';
import type { AudioCodec } from '../../stream/track.js';
import { FlvBodyCursor } from './flv-body-cursor.js';
import { readExTrack, readModEx } from './flv-ex-header.js';
import { ExAudioPacketType, type FlvAudioPacket, FlvSoundFormat } from './flv-packet.js';

const CODEC_BY_FOURCC: Readonly<Record<string, AudioCodec>> = { mp4a: 'aac', Opus: 'opus' };

/** Parses one audio tag body; ParseError on malformed bytes, UnsupportedError for codecs other than AAC/Opus. */
export function parseAudioTag(body: Uint8Array, timestampMs: number): FlvAudioPacket {
  const cursor = new FlvBodyCursor(body, 'FLV audio tag');
  const first = cursor.u8('audio tag header');
  const soundFormat = first >> 4;
  const base = { kind: 'audio', timestampMs, compositionOffsetMs: 0, key: true } as const;
  if (soundFormat === FlvSoundFormat.aac) {
    const aacPacketType = cursor.u8('AACPacketType');
    if (aacPacketType > 1) {
      throw new ParseError(`AACPacketType ${aacPacketType} is not 0 or 1`, 1);
    }
    return { ...base, codec: 'aac', packetType: aacPacketType === 0 ? 'config' : 'frame', data: cursor.rest() };
  }
  if (soundFormat !== FlvSoundFormat.exHeader) {
    throw new UnsupportedError(`legacy FLV SoundFormat ${soundFormat}; supported: 10 (AAC), E-RTMP mp4a/Opus`);
  }
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
  const tagged = { ...base, codec, ...(dropped > 0 ? { droppedTracks: dropped } : {}) };
  switch (packetType) {
    case ExAudioPacketType.sequenceStart:
      return { ...tagged, packetType: 'config', data: media.rest() };
    case ExAudioPacketType.codedFrames:
      return { ...tagged, packetType: 'frame', data: media.rest() };
    case ExAudioPacketType.sequenceEnd:
      return { ...tagged, packetType: 'end', data: new Uint8Array(0) };
    case ExAudioPacketType.multichannelConfig:
      return { ...tagged, packetType: 'metadata', data: media.rest() };
    default:
      throw new ParseError(`AudioPacketType ${packetType} is not valid here`, 0);
  }
}
