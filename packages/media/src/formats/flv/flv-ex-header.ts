/**
 * Parts shared by ExVideoTagHeader and ExAudioTagHeader (E-RTMP v2): the ModEx loop, the FourCC
 * and multitrack track selection. Only the first track of a multitrack message is kept (track 0
 * when present); the others are counted.
 */
import { ParseError } from '../../errors.js';
import { FlvBodyCursor } from './flv-body-cursor.js';
import { AvMultitrackType } from './flv-packet.js';

/** Packet type after every ModEx prefix, plus the TimestampOffsetNano value when one was sent. */
export interface ModExResult {
  readonly packetType: number;
  readonly nanoOffset: number;
}

/** Consumes ModEx prefixes while the packet type is `modExCode` (7 for audio and video). */
export function readModEx(cursor: FlvBodyCursor, packetType: number, modExCode: number): ModExResult {
  let type = packetType;
  let nanoOffset = 0;
  while (type === modExCode) {
    let size = cursor.u8('ModEx data size') + 1;
    if (size === 256) {
      size = cursor.u16('ModEx data size (16-bit)') + 1;
    }
    const data = cursor.take(size, 'ModEx data');
    const next = cursor.u8('ModEx type');
    type = next & 0x0f;
    if (next >> 4 === 0 && data.byteLength >= 3) {
      nanoOffset = ((data[0] ?? 0) << 16) | ((data[1] ?? 0) << 8) | (data[2] ?? 0);
    }
  }
  return { packetType: type, nanoOffset };
}

/** The track an Ex tag body carries (the kept one of a Multitrack message), after its ModEx prefixes. */
export interface ExTrack {
  readonly packetType: number;
  readonly fourCc: string;
  /** The track's body, at its first byte after the FourCC. */
  readonly media: FlvBodyCursor;
  /** Tracks of a Multitrack message left out (0 for a single-track message). */
  readonly dropped: number;
}

/**
 * Reads the FourCC of a single-track Ex tag body (`packetType` other than `multitrackCode`), or
 * the Multitrack header and the track it keeps. `kind` names the fields in errors.
 */
export function readExTrack(
  cursor: FlvBodyCursor,
  packetType: number,
  multitrackCode: number,
  kind: 'audio' | 'video',
): ExTrack {
  if (packetType !== multitrackCode) {
    return { packetType, fourCc: cursor.fourCc(`${kind} FourCC`), media: cursor, dropped: 0 };
  }
  const track = selectFirstTrack(cursor, multitrackCode);
  return { ...track, media: new FlvBodyCursor(track.body, `FLV ${kind} track`) };
}

function selectFirstTrack(
  cursor: FlvBodyCursor,
  multitrackCode: number,
): { packetType: number; fourCc: string; body: Uint8Array; dropped: number } {
  const head = cursor.u8('multitrack type');
  const multitrackType = head >> 4;
  const packetType = head & 0x0f;
  if (packetType === multitrackCode) {
    throw new ParseError('multitrack packet type must not be Multitrack again', cursor.offset - 1);
  }
  if (multitrackType > AvMultitrackType.manyTracksManyCodecs) {
    throw new ParseError(`AvMultitrackType ${multitrackType} is reserved`, cursor.offset - 1);
  }
  const sharedFourCc = multitrackType === AvMultitrackType.manyTracksManyCodecs ? '' : cursor.fourCc('FourCC');
  let chosen: { fourCc: string; trackId: number; body: Uint8Array } | undefined;
  let tracks = 0;
  while (cursor.remaining > 0) {
    const fourCc =
      multitrackType === AvMultitrackType.manyTracksManyCodecs ? cursor.fourCc('track FourCC') : sharedFourCc;
    const trackId = cursor.u8('track id');
    const body =
      multitrackType === AvMultitrackType.oneTrack
        ? cursor.rest()
        : cursor.take(cursor.u24('track size'), 'track body');
    tracks++;
    if (!chosen || (trackId === 0 && chosen.trackId !== 0)) {
      chosen = { fourCc, trackId, body };
    }
  }
  if (!chosen) {
    throw new ParseError('multitrack message holds no track', cursor.offset);
  }
  return { packetType, fourCc: chosen.fourCc, body: chosen.body, dropped: tracks - 1 };
}
