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
import { type AudioTrack, type Track, VIDEO_TIMESCALE } from '../../stream/track.js';
import { opusControlHeader, opusDescriptors } from './opus-ts.js';
import { TsPacketWriter } from './packet-writer.js';
import { PES_STREAM_ID, pesHeader } from './pes.js';
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

interface ElementaryStream {
  readonly track: Track;
  readonly pid: number;
  readonly streamType: number;
  readonly streamId: number;
  readonly descriptors?: Uint8Array;
  /** The PES payload parts of one unit. */
  readonly payload: (unit: MediaUnit) => Uint8Array[];
}

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
  private readonly pat: Uint8Array;
  private readonly pmt: Uint8Array;

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
    this.pat = patSection(TRANSPORT_STREAM_ID, PROGRAM_NUMBER, PMT_PID);
    this.pmt = pmtSection(PROGRAM_NUMBER, this.pcrPid, all);
  }

  /** Writes the PAT and PMT; call at the start of every segment. */
  writeTables(): void {
    this.writer.writeUnit(PAT_PID, [POINTER_FIELD, this.pat]);
    this.writer.writeUnit(PMT_PID, [POINTER_FIELD, this.pmt]);
  }

  /**
   * Writes one unit as a PES packet. Throws RangeError for a track the muxer was not created
   * with, ParseError for a malformed video payload.
   */
  writeUnit(unit: MediaUnit): void {
    const stream = this.streams.get(unit.trackId);
    if (!stream) {
      throw new RangeError(`unit of unknown track ${unit.trackId}`);
    }
    const scale = VIDEO_TIMESCALE / stream.track.timescale;
    const pts = unit.pts * scale;
    const dts = unit.dts * scale;
    const payload = stream.payload(unit);
    let payloadLength = 0;
    for (const part of payload) {
      payloadLength += part.length;
    }
    const header = pesHeader(stream.streamId, payloadLength, pts, dts);
    this.writer.writeUnit(stream.pid, [header, ...payload], {
      pcr: stream.pid === this.pcrPid ? Math.max(0, dts - PCR_LEAD) : undefined,
      randomAccess: unit.key,
    });
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
}

function elementaryStream(track: Track, pid: number): ElementaryStream {
  switch (track.codec) {
    case 'h264':
    case 'h265': {
      const accessUnits = new AnnexBAccessUnits(track.codec, track.config);
      return {
        track,
        pid,
        streamType: track.codec === 'h264' ? STREAM_TYPE.h264 : STREAM_TYPE.h265,
        streamId: PES_STREAM_ID.video,
        payload: (unit) => accessUnits.convert(unit.data, unit.key),
      };
    }
    case 'aac': {
      const config = parseAudioSpecificConfig(track.config);
      // Fails here rather than on the first frame when ADTS cannot express the configuration.
      adtsHeader(config, 0);
      return {
        track,
        pid,
        streamType: STREAM_TYPE.aacAdts,
        streamId: PES_STREAM_ID.audio,
        payload: (unit) => [adtsHeader(config, unit.data.length), unit.data],
      };
    }
    case 'opus':
      return opusStream(track, pid);
    default:
      throw new UnsupportedError(
        `MPEG-TS output supports H.264, H.265, AAC and Opus; track ${track.id} is ${track.codec}`,
      );
  }
}

function opusStream(track: AudioTrack, pid: number): ElementaryStream {
  return {
    track,
    pid,
    streamType: STREAM_TYPE.privateData,
    streamId: PES_STREAM_ID.privateStream1,
    descriptors: opusDescriptors(parseOpusHead(track.config)),
    payload: (unit) => [opusControlHeader(unit.data.length), unit.data],
  };
}
