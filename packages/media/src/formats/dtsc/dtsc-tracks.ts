/**
 * Tracks of a DTSC header (MistServer `Meta::send` in `lib/dtsc.cpp`, read as the format
 * description): `tracks` maps identifiers to objects with `trackid`, `type`, `codec`, `init` (the
 * decoder configuration: avcC ISO/IEC 14496-15 §5.3.3 for H264, hvcC §8.3.3 for HEVC, av1C for
 * AV1, AudioSpecificConfig ISO/IEC 14496-3 §1.6.2.1 for AAC, OpusHead RFC 7845 §5.1 for opus),
 * `rate`/`channels` (audio) and `width`/`height`/`fpks` (video). The first video and the first
 * audio track this media plane carries become the stream's tracks 1 and 2.
 */
import { describeAv1C } from '../../codecs/av1.js';
import { describeAvcC } from '../../codecs/h264.js';
import { describeHvcC } from '../../codecs/h265.js';
import { OPUS_SAMPLE_RATE, opusCodecString, parseOpusHead } from '../../codecs/opus.js';
import { ParseError, UnsupportedError } from '../../errors.js';
import { type AudioTrack, type Track, VIDEO_TIMESCALE, type VideoTrack } from '../../stream/track.js';
import { aacTrackFromConfig } from '../aac-track.js';
import { type DtmiObject, dtmi } from './dtmi.js';

/** One stream track and the DTSC track it comes from. */
export interface DtscTrackMapping {
  readonly track: Track;
  /** DTSC `trackid` of the source track. */
  readonly dtscId: number;
  /** NAL length size of H.264/H.265 payloads (1, 2 or 4); 0 otherwise. */
  readonly lengthSize: number;
  /** Samples of one AAC frame; 0 otherwise (each Opus packet says). */
  readonly samplesPerFrame: number;
}

/** The tracks a header yields, and the ones left out with why. */
export interface DtscTracks {
  readonly mappings: readonly DtscTrackMapping[];
  readonly skipped: readonly string[];
}

const VIDEO_TRACK_ID = 1;
const AUDIO_TRACK_ID = 2;

/** Reads the header's tracks; throws ParseError when it has no `tracks` object. */
export function tracksFromDtscHeader(header: DtmiObject): DtscTracks {
  const tracks = dtmi.object(header, 'tracks');
  if (!tracks) {
    throw new ParseError('DTSC header without a tracks object');
  }
  const mappings: DtscTrackMapping[] = [];
  const skipped: string[] = [];
  let video: DtscTrackMapping | undefined;
  let audio: DtscTrackMapping | undefined;
  for (const [name, value] of tracks) {
    if (!(value instanceof Map)) {
      continue;
    }
    const type = dtmi.text(value, 'type');
    const codec = dtmi.text(value, 'codec') ?? '';
    const dtscId = dtmi.number(value, 'trackid');
    if (dtscId === undefined || (type !== 'video' && type !== 'audio')) {
      skipped.push(`${name}: ${type ?? 'untyped'} track`);
      continue;
    }
    if ((type === 'video' && video) || (type === 'audio' && audio)) {
      skipped.push(`${name}: another ${type} track`);
      continue;
    }
    try {
      const mapping = type === 'video' ? videoTrack(value, codec, dtscId) : audioTrack(value, codec, dtscId);
      if (type === 'video') {
        video = mapping;
      } else {
        audio = mapping;
      }
    } catch (error) {
      skipped.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  for (const mapping of [video, audio]) {
    if (mapping) {
      mappings.push(mapping);
    }
  }
  return { mappings, skipped };
}

function initOf(track: DtmiObject, codec: string): Uint8Array {
  const init = dtmi.bytes(track, 'init');
  if (!init || init.byteLength === 0) {
    throw new ParseError(`${codec} track without init data`);
  }
  return init.slice();
}

function videoTrack(track: DtmiObject, codec: string, dtscId: number): DtscTrackMapping {
  const fpks = dtmi.number(track, 'fpks');
  const base = { kind: 'video', id: VIDEO_TRACK_ID, timescale: VIDEO_TIMESCALE } as const;
  if (codec === 'H264' || codec === 'HEVC') {
    const config = initOf(track, codec);
    const d = codec === 'H264' ? describeAvcC(config) : describeHvcC(config);
    const fps = fpks ? fpks / 1000 : d.fps;
    const stored = d.lengthSize === 4 ? config : withLengthSize4(config, codec === 'H264' ? 4 : 21);
    const result: VideoTrack = {
      ...base,
      codec: codec === 'H264' ? 'h264' : 'h265',
      config: stored,
      codecString: d.codecString,
      width: d.width,
      height: d.height,
      ...(fps ? { fps } : {}),
    };
    return { track: result, dtscId, lengthSize: d.lengthSize, samplesPerFrame: 0 };
  }
  if (codec === 'AV1') {
    const config = initOf(track, codec);
    const d = describeAv1C(config);
    const fps = fpks ? fpks / 1000 : d.fps;
    const result: VideoTrack = {
      ...base,
      codec: 'av1',
      config,
      codecString: d.codecString,
      width: d.width,
      height: d.height,
      ...(fps ? { fps } : {}),
    };
    return { track: result, dtscId, lengthSize: 0, samplesPerFrame: 0 };
  }
  throw new UnsupportedError(`video codec ${codec || 'unknown'} is not carried (H264, HEVC or AV1)`);
}

function audioTrack(track: DtmiObject, codec: string, dtscId: number): DtscTrackMapping {
  if (codec === 'AAC') {
    const { track: result, asc } = aacTrackFromConfig(AUDIO_TRACK_ID, initOf(track, codec));
    return { track: result, dtscId, lengthSize: 0, samplesPerFrame: asc.samplesPerFrame };
  }
  if (codec === 'opus') {
    const config = initOf(track, codec);
    const head = parseOpusHead(config);
    const result: AudioTrack = {
      kind: 'audio',
      id: AUDIO_TRACK_ID,
      codec: 'opus',
      timescale: OPUS_SAMPLE_RATE,
      config,
      codecString: opusCodecString(),
      sampleRate: OPUS_SAMPLE_RATE,
      channels: head.channels,
    };
    return { track: result, dtscId, lengthSize: 0, samplesPerFrame: 0 };
  }
  throw new UnsupportedError(`audio codec ${codec || 'unknown'} is not carried (AAC or opus)`);
}

/** The record with its lengthSizeMinusOne set to 3 (units are forwarded with 4-byte lengths). */
function withLengthSize4(config: Uint8Array, byteIndex: number): Uint8Array {
  const out = new Uint8Array(config);
  out[byteIndex] = (out[byteIndex] ?? 0) | 0x03;
  return out;
}
