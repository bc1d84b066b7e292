/**
 * MPEG-2 transport stream multiplexer (ISO/IEC 13818-1) for one program: PAT/PMT, H.264
 * (stream_type 0x1B, §2.14), H.265 (0x24, §2.17), AAC in ADTS (0x0F, ISO/IEC 13818-7) and Opus
 * (0x06 with the 'Opus' registration). One PES per MediaUnit; PTS/DTS on the 90 kHz clock with
 * 33-bit wrap; PCR on the video PID (the first audio PID without video).
 */
import { adtsHeader, parseAudioSpecificConfig } from '../../codecs/aac.js';
import { parseOpusHead } from '../../codecs/opus.js';
import { UnsupportedError } from '../../errors.js';
import type { MediaUnit } from '../../stream/media-unit.js';
import { type Track, VIDEO_TIMESCALE } from '../../stream/track.js';
import { opusControlHeaderLength, opusDescriptors, writeOpusControlHeader } from './opus-ts.js';
import { TsPacketWriter } from './packet-writer.js';
import { checkPesLength, PES_STREAM_ID, pesHeaderLength, writePesHeader } from './pes.js';
import { patSection, pmtSection } from './psi.js';
import { AnnexBAccessUnits } from './video-access-unit.js';

/** PID of the program map table. */
export const PMT_PID = 0x1000;
/** PID of the first elementary stream; the others follow in track order. */
export const FIRST_ELEMENTARY_PID = 0x100;
/** How far the PCR runs behind the DTS of the PES it travels with, in 90 kHz ticks (100 ms). */
export const PCR_LEAD = 9000;

const PAT_PID = 0x0000;
const PROGRAM_NUMBER = 1;
const TRANSPORT_STREAM_ID = 1;
const POINTER_FIELD = Uint8Array.of(0);

/** stream_type values of ISO/IEC 13818-1 Table 2-34. */
export const STREAM_TYPE = { h264: 0x1b, h265: 0x24, aacAdts: 0x0f, privateData: 0x06 } as const;

/**
 * How a unit's data becomes the PES payload: AVCC/HVCC to an Annex B access unit, a raw AAC frame
 * behind an ADTS header, an Opus packet behind its opus_control_header.
 */
type PayloadKind = 'annexB' | 'adts' | 'opus';

interface ElementaryStream {
  readonly track: Track;
  readonly pid: number;
  readonly streamType: number;
  readonly streamId: number;
  readonly descriptors: Uint8Array | undefined;
  /** 90 kHz ticks per tick of the track's timescale. */
  readonly scale: number;
  readonly kind: PayloadKind;
  /** The converter of a video stream. */
  readonly accessUnits: AnnexBAccessUnits | undefined;
  /** The ADTS header of an AAC stream, built by adtsHeader() for an empty frame. */
  readonly adts: Uint8Array | undefined;
}

/** Bytes of an ADTS header without CRC (ISO/IEC 13818-7 §6.2.1, protection_absent = 1). */
const ADTS_HEADER_LENGTH = 7;
/** frame_length is a 13-bit field. */
const MAX_ADTS_FRAME_LENGTH = 0x1fff;

/**
 * Multiplexes the units of a fixed set of tracks into 188-byte packets. Call writeTables() at the
 * start of every segment, writeUnit() per unit in dts order, take() to collect the bytes.
 * The constructor throws UnsupportedError for what MPEG-TS cannot carry here (AV1, VP9, AAC
 * configurations ADTS cannot express, Opus beyond stereo) and ParseError for a bad config.
 */
export class TsMuxer {
  private readonly writer = new TsPacketWriter();
  private readonly streams = new Map<number, ElementaryStream>();
  private readonly pcrPid: number;
  /** The PAT and PMT payload units (pointer_field, section), built once. */
  private readonly pat: readonly Uint8Array[];
  private readonly pmt: readonly Uint8Array[];

  constructor(tracks: readonly Track[]) {
    if (tracks.length === 0) {
      throw new RangeError('an MPEG-TS program needs at least one track');
    }
    tracks.forEach((track, index) => {
      if (this.streams.has(track.id)) {
        throw new RangeError(`track id ${track.id} appears twice`);
      }
      this.streams.set(track.id, elementaryStream(track, FIRST_ELEMENTARY_PID + index));
    });
    const all = [...this.streams.values()];
    const pcrStream = all.find((stream) => stream.track.kind === 'video') ?? all[0];
    this.pcrPid = pcrStream?.pid ?? FIRST_ELEMENTARY_PID;
    this.pat = [POINTER_FIELD, patSection(TRANSPORT_STREAM_ID, PROGRAM_NUMBER, PMT_PID)];
    this.pmt = [POINTER_FIELD, pmtSection(PROGRAM_NUMBER, this.pcrPid, all)];
  }

  /** Writes the PAT and PMT; call at the start of every segment. */
  writeTables(): void {
    this.writer.writeUnit(PAT_PID, this.pat);
    this.writer.writeUnit(PMT_PID, this.pmt);
  }

  /**
   * Writes one unit as a PES packet, straight into the packets. Throws RangeError for a track the
   * muxer was not created with, ParseError for a malformed video payload, UnsupportedError for an
   * audio frame too large for its PES packet or ADTS frame (nothing is written then).
   */
  writeUnit(unit: MediaUnit): void {
    const stream = this.streams.get(unit.trackId);
    if (!stream) {
      throw new RangeError(`unit of unknown track ${unit.trackId}`);
    }
    const pts = unit.pts * stream.scale;
    const dts = unit.dts * stream.scale;
    const data = unit.data;
    let payloadLength: number;
    switch (stream.kind) {
      case 'annexB':
        payloadLength = (stream.accessUnits as AnnexBAccessUnits).sizeOf(data, unit.key);
        break;
      case 'adts':
        payloadLength = ADTS_HEADER_LENGTH + data.length;
        if (payloadLength > MAX_ADTS_FRAME_LENGTH) {
          throw new UnsupportedError(`AAC frame of ${data.length} bytes does not fit an ADTS frame`);
        }
        break;
      default:
        payloadLength = opusControlHeaderLength(data.length) + data.length;
    }
    const headerLength = pesHeaderLength(pts, dts);
    checkPesLength(stream.streamId, headerLength, payloadLength);
    const writer = this.writer;
    const pcr = stream.pid === this.pcrPid ? Math.max(0, dts - PCR_LEAD) : -1;
    let at = writer.beginUnit(headerLength + payloadLength, pcr, unit.key);
    const out = writer.bytes;
    at = writePesHeader(out, at, stream.streamId, payloadLength, pts, dts);
    switch (stream.kind) {
      case 'annexB':
        (stream.accessUnits as AnnexBAccessUnits).writeTo(data, unit.key, out, at);
        break;
      case 'adts':
        writeAdtsHeader(stream.adts as Uint8Array, payloadLength, out, at);
        out.set(data, at + ADTS_HEADER_LENGTH);
        break;
      default:
        out.set(data, writeOpusControlHeader(out, at, data.length));
    }
    writer.endUnit(stream.pid);
  }

  /** Returns the packets written since the last call and clears them (a view when they lie in one block). */
  take(): Uint8Array {
    return this.writer.take();
  }

  /** Bytes written since the last take(). */
  get size(): number {
    return this.writer.size;
  }

  /** Makes the next `bytes` bytes land in one block, so take() can return them without a copy. */
  reserve(bytes: number): void {
    this.writer.reserve(bytes);
  }

  /** Starts a block of its own (at least `bytes`) for what follows, in a recycled buffer when one is kept. */
  startOwnBlock(bytes: number): void {
    this.writer.startOwnBlock(bytes);
  }

  /** Takes back the buffer of a taken segment nothing reads any more. */
  recycle(buffer: ArrayBuffer): void {
    this.writer.recycle(buffer);
  }

  /** Bytes of the buffer kept for the next block. */
  get spareBytes(): number {
    return this.writer.spareBytes;
  }
}

function elementaryStream(track: Track, pid: number): ElementaryStream {
  const scale = VIDEO_TIMESCALE / track.timescale;
  switch (track.codec) {
    case 'h264':
    case 'h265':
      return {
        track,
        pid,
        streamType: track.codec === 'h264' ? STREAM_TYPE.h264 : STREAM_TYPE.h265,
        streamId: PES_STREAM_ID.video,
        descriptors: undefined,
        scale,
        kind: 'annexB',
        accessUnits: new AnnexBAccessUnits(track.codec, track.config),
        adts: undefined,
      };
    case 'aac':
      return {
        track,
        pid,
        streamType: STREAM_TYPE.aacAdts,
        streamId: PES_STREAM_ID.audio,
        descriptors: undefined,
        scale,
        kind: 'adts',
        accessUnits: undefined,
        // Fails here rather than on the first frame when ADTS cannot express the configuration.
        adts: adtsHeader(parseAudioSpecificConfig(track.config), 0),
      };
    case 'opus':
      return {
        track,
        pid,
        streamType: STREAM_TYPE.privateData,
        streamId: PES_STREAM_ID.privateStream1,
        descriptors: opusDescriptors(parseOpusHead(track.config)),
        scale,
        kind: 'opus',
        accessUnits: undefined,
        adts: undefined,
      };
    default:
      throw new UnsupportedError(
        `MPEG-TS output supports H.264, H.265, AAC and Opus; track ${track.id} is ${track.codec}`,
      );
  }
}

/**
 * Writes the ADTS header of one frame of `frameLength` bytes (header included): `template` is the
 * header adtsHeader() built for the stream, with its 13-bit frame_length field (ISO/IEC 13818-7
 * §6.2.1 adts_variable_header: the low 2 bits of byte 3, byte 4, the high 3 bits of byte 5) set.
 */
function writeAdtsHeader(template: Uint8Array, frameLength: number, out: Uint8Array, offset: number): void {
  out.set(template, offset);
  out[offset + 3] = ((template[3] as number) & 0xfc) | (frameLength >>> 11);
  out[offset + 4] = (frameLength >>> 3) & 0xff;
  out[offset + 5] = ((frameLength & 0x07) << 5) | ((template[5] as number) & 0x1f);
}
