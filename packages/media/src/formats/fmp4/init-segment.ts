/**
 * CMAF header (ISO/IEC 23000-19 §7.3.2.1) as an ISO/IEC 14496-12 fragmented-movie init segment:
 * ftyp + moov (mvhd, one trak per track with empty sample tables, mvex/trex).
 */

import { concatBytes } from '../../bits/bytes.js';
import type { Track } from '../../stream/track.js';
import { box, Fields, fullBox } from './box-writer.js';
import { sampleEntry } from './sample-entry.js';

const MOVIE_TIMESCALE = 1000;
const FIXED_ONE = 0x00010000;
const UNITY_MATRIX = [FIXED_ONE, 0, 0, 0, FIXED_ONE, 0, 0, 0, 0x40000000] as const;
const TRACK_ENABLED_IN_MOVIE = 0x000003;
const LANGUAGE_UND =
  (('u'.charCodeAt(0) - 0x60) << 10) | (('n'.charCodeAt(0) - 0x60) << 5) | ('d'.charCodeAt(0) - 0x60);

/** Major brand and compatible brands of every init segment. */
export const INIT_BRANDS = { major: 'iso6', compatible: ['iso6', 'cmfc', 'mp41', 'dash'] } as const;

/**
 * Builds the init segment for the given tracks (one per init segment for CMAF, or several for
 * progressive fragmented MP4). Track ids are the Track.id values; fragments must use the same.
 */
export function buildInitSegment(tracks: readonly Track[]): Uint8Array {
  if (tracks.length === 0) {
    throw new RangeError('an init segment needs at least one track');
  }
  const ids = new Set<number>();
  for (const track of tracks) {
    if (!Number.isInteger(track.id) || track.id < 1 || track.id > 0xffffffff || ids.has(track.id)) {
      throw new RangeError(`track ids must be unique positive 32-bit integers, got ${track.id}`);
    }
    ids.add(track.id);
  }
  const nextTrackId = Math.max(...ids) + 1;
  const moov = box(
    'moov',
    mvhd(nextTrackId),
    ...tracks.map(trak),
    box('mvex', ...tracks.map((track) => trex(track.id))),
  );
  return concatBytes([ftyp(), moov]);
}

function ftyp(): Uint8Array {
  const fields = new Fields().fourcc(INIT_BRANDS.major).u32(0);
  for (const brand of INIT_BRANDS.compatible) {
    fields.fourcc(brand);
  }
  return box('ftyp', fields.bytes());
}

function matrix(fields: Fields): Fields {
  for (const value of UNITY_MATRIX) {
    fields.u32(value);
  }
  return fields;
}

function mvhd(nextTrackId: number): Uint8Array {
  const fields = new Fields().u32(0).u32(0).u32(MOVIE_TIMESCALE).u32(0).u32(FIXED_ONE).u16(0x0100).zeros(10);
  matrix(fields).zeros(24).u32(nextTrackId);
  return fullBox('mvhd', 0, 0, fields.bytes());
}

function trak(track: Track): Uint8Array {
  return box('trak', tkhd(track), box('mdia', mdhd(track), hdlr(track), minf(track)));
}

function tkhd(track: Track): Uint8Array {
  const isVideo = track.kind === 'video';
  const fields = new Fields()
    .u32(0)
    .u32(0)
    .u32(track.id)
    .u32(0)
    .u32(0)
    .zeros(8)
    .u16(0)
    .u16(0)
    .u16(isVideo ? 0 : 0x0100)
    .u16(0);
  matrix(fields)
    .u32(isVideo ? fixed16(track.width) : 0)
    .u32(isVideo ? fixed16(track.height) : 0);
  return fullBox('tkhd', 0, TRACK_ENABLED_IN_MOVIE, fields.bytes());
}

/** A 16.16 fixed-point value; dimensions above 65535 do not fit and are rejected. */
function fixed16(value: number): number {
  if (!Number.isInteger(value) || value < 0 || value > 0xffff) {
    throw new RangeError(`dimension ${value} does not fit a 16.16 fixed-point field`);
  }
  return value * 0x10000;
}

function mdhd(track: Track): Uint8Array {
  return fullBox('mdhd', 0, 0, new Fields().u32(0).u32(0).u32(track.timescale).u32(0).u16(LANGUAGE_UND).u16(0).bytes());
}

function hdlr(track: Track): Uint8Array {
  const isVideo = track.kind === 'video';
  const name = new TextEncoder().encode(isVideo ? 'VideoHandler\0' : 'SoundHandler\0');
  return fullBox(
    'hdlr',
    0,
    0,
    new Fields()
      .u32(0)
      .fourcc(isVideo ? 'vide' : 'soun')
      .zeros(12)
      .raw(name)
      .bytes(),
  );
}

function minf(track: Track): Uint8Array {
  const header =
    track.kind === 'video'
      ? fullBox('vmhd', 0, 1, new Fields().u16(0).zeros(6).bytes())
      : fullBox('smhd', 0, 0, new Fields().i16(0).u16(0).bytes());
  const dinf = box('dinf', fullBox('dref', 0, 0, new Fields().u32(1).bytes(), fullBox('url ', 0, 1)));
  const stbl = box(
    'stbl',
    fullBox('stsd', 0, 0, new Fields().u32(1).bytes(), sampleEntry(track)),
    fullBox('stts', 0, 0, new Fields().u32(0).bytes()),
    fullBox('stsc', 0, 0, new Fields().u32(0).bytes()),
    fullBox('stsz', 0, 0, new Fields().u32(0).u32(0).bytes()),
    fullBox('stco', 0, 0, new Fields().u32(0).bytes()),
  );
  return box('minf', header, dinf, stbl);
}

function trex(trackId: number): Uint8Array {
  return fullBox('trex', 0, 0, new Fields().u32(trackId).u32(1).u32(0).u32(0).u32(0).bytes());
}
