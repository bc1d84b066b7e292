/**
 * RTP of an RTSP session into tracks and units: H.264 (RFC 6184; SPS/PPS from
 * `sprop-parameter-sets`, RFC 6184 §8.1) and H.265 (RFC 7798; `sprop-vps/sps/pps`, §7.1) become
 * length-prefixed access units with an avcC/hvcC (ISO/IEC 14496-15), re-declared when in-band
 * parameter sets change; AAC (RFC 3640, the AudioSpecificConfig from `config`; RFC 6416 LATM, the
 * StreamMuxConfig from `config`) and Opus (RFC 7587) become one unit per frame. The parameter sets of the SDP declare the tracks before the first
 * packet, so the first key frame is playable at once. RTP has presentation times only: video
 * frames get decode times from the reorder depth of their SPS (`decode-times.ts`, ADR 0072).
 */
import { bytesEqual } from '../../../bits/bytes.js';
import { buildAvcC, describeAvcC, H264_NAL, parseSps as parseH264Sps } from '../../../codecs/h264.js';
import { buildHvcC, describeHvcC, H265_NAL, parseSps as parseH265Sps } from '../../../codecs/h265.js';
import { toLengthPrefixed } from '../../../codecs/nal.js';
import { buildOpusHead, OPUS_SAMPLE_RATE, opusCodecString } from '../../../codecs/opus.js';
import { ParseError, UnsupportedError } from '../../../errors.js';
import { aacTrackFromConfig } from '../../../formats/aac-track.js';
import type { MediaUnit } from '../../../stream/media-unit.js';
import { type AudioTrack, type Track, VIDEO_TIMESCALE, type VideoTrack } from '../../../stream/track.js';
import { H264Depacketizer } from '../../shared/rtp/h264-depacketizer.js';
import { H265Depacketizer } from '../../shared/rtp/h265-depacketizer.js';
import { LatmDepacketizer, latmConfig } from '../../shared/rtp/latm-depacketizer.js';
import { Mpeg4GenericDepacketizer, mpeg4GenericFormat } from '../../shared/rtp/mpeg4-generic-depacketizer.js';
import type { RtpPacket, SenderReport } from '../../shared/rtp/rtp-packet.js';
import type { PullInputSink } from '../pull-input.js';
import { DecodeTimes, type DecodeTimesListener } from './decode-times.js';
import { RtpTimeline } from './rtp-timeline.js';
import type { RtspTrackPlan } from './rtsp-plan.js';

/** Where the tracks and units go. */
export type RtspStreamSink = Pick<PullInputSink, 'describe' | 'unit'>;

/** What one track of the session turns its packets into. */
interface TrackReader {
  /** The track once its configuration is known. */
  readonly track: Track | undefined;
  /** One RTP packet (in order); units carry the RTP timestamp as `dts` until the timeline maps it. */
  packet(packet: RtpPacket, emit: (unit: MediaUnit) => void): void;
  /** Packets before the next one were lost (servers drop packets for slow TCP readers too). */
  lost(): void;
  /** Video: the decode time of a frame at `pts` (undefined: dropped); absent where dts is pts. */
  decodeTime?(pts: number, key: boolean): number | undefined;
  /** Video: the track's timeline moved by `ms` (sender-report alignment). */
  moved?(ms: number): void;
}

/** Parameter sets of one NAL-based codec, from the SDP and in band. */
interface ParameterSets {
  /** NAL types of the parameter sets, in hvcC/avcC order. */
  readonly types: readonly number[];
  readonly sets: Map<number, Uint8Array>;
}

const base64 = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'base64'));

/** Converts one RTSP session's RTP into the hub's tracks and units. */
export class RtspToStream {
  private readonly readers: TrackReader[];
  private readonly timeline: RtpTimeline;
  private described: readonly (Track | undefined)[] = [];
  private readonly sequences: (number | undefined)[] = [];
  /** One unit callback per track, made once (not per packet). */
  private readonly emitters: ((unit: MediaUnit) => void)[];

  constructor(
    plans: readonly RtspTrackPlan[],
    private readonly sink: RtspStreamSink,
    now: () => number,
    onAligned?: (track: number, correctionMs: number) => void,
    onReorder?: (track: number, reason: string, depth: number) => void,
  ) {
    this.readers = plans.map((plan, index) =>
      readerOf(plan, index + 1, (reason, depth) => onReorder?.(index, reason, depth)),
    );
    this.emitters = plans.map((_, index) => this.emitter(index));
    this.timeline = new RtpTimeline(
      plans.map((plan, index) => ({
        rate: plan.media.clockRate,
        timescale: trackTimescale(plan, this.readers[index]),
      })),
      now,
      (track, correctionMs) => {
        this.readers[track]?.moved?.(correctionMs);
        onAligned?.(track, correctionMs);
      },
    );
  }

  /** Declares the tracks when every one is known (call after PLAY; again after each packet). */
  describeIfReady(): void {
    const tracks = this.readers.map((reader) => reader.track);
    if (tracks.some((track) => track === undefined)) {
      return;
    }
    if (tracks.length === this.described.length && tracks.every((track, i) => track === this.described[i])) {
      return;
    }
    this.described = tracks;
    this.sink.describe({ tracks: tracks as Track[] });
  }

  /** PLAY's RTP-Info `rtptime` of each track. */
  rtpInfo(rtptimes: readonly (number | undefined)[]): void {
    this.timeline.rtpInfo(rtptimes);
  }

  /** One RTP packet of track `index` (0-based, plan order). Throws ParseError/UnsupportedError. */
  packet(index: number, packet: RtpPacket): void {
    const reader = this.readers[index];
    if (!reader) {
      return;
    }
    const expected = this.sequences[index];
    if (expected !== undefined && packet.sequence !== expected) {
      reader.lost();
    }
    this.sequences[index] = (packet.sequence + 1) & 0xffff;
    reader.packet(packet, this.emitters[index] as (unit: MediaUnit) => void);
  }

  /** What a track's reader hands its units to: timed on the session's timeline, then to the sink. */
  private emitter(index: number): (unit: MediaUnit) => void {
    return (unit) => {
      const reader = this.readers[index] as TrackReader;
      this.describeIfReady();
      const at = this.timeline.time(index, unit.dts);
      if (this.described.length === 0 || at < 0) {
        return;
      }
      const dts = reader.decodeTime ? reader.decodeTime(at, unit.key) : at;
      if (dts !== undefined) {
        this.sink.unit({ ...unit, dts, pts: at });
      }
    };
  }

  /** One sender report of track `index`. */
  senderReport(index: number, report: SenderReport): void {
    this.timeline.senderReport(index, report);
  }
}

function trackTimescale(plan: RtspTrackPlan, reader: TrackReader | undefined): number {
  if (plan.codec === 'h264' || plan.codec === 'h265') {
    return VIDEO_TIMESCALE;
  }
  return reader?.track?.timescale ?? plan.media.clockRate;
}

function readerOf(plan: RtspTrackPlan, id: number, onReorder: DecodeTimesListener): TrackReader {
  switch (plan.codec) {
    case 'h264':
    case 'h265':
      return new NalVideoReader(id, plan, plan.codec, onReorder);
    case 'aac':
    case 'latm':
      return new AacReader(id, plan);
    case 'opus':
      return new OpusReader(id, plan);
  }
}

/** H.264 or H.265 access units; the units' `dts` carries the RTP timestamp until the timeline maps it. */
class NalVideoReader implements TrackReader {
  track: VideoTrack | undefined;
  private readonly depacketizer: H264Depacketizer | H265Depacketizer;
  private readonly parameters: ParameterSets;
  private lastTimestamp: number | undefined;
  private decodeTimes: DecodeTimes | undefined;

  constructor(
    private readonly id: number,
    plan: RtspTrackPlan,
    private readonly codec: 'h264' | 'h265',
    private readonly onReorder: DecodeTimesListener,
  ) {
    const fmtp = plan.media.fmtp;
    if (codec === 'h264') {
      this.depacketizer = new H264Depacketizer();
      this.parameters = { types: [H264_NAL.sps, H264_NAL.pps], sets: new Map() };
      for (const text of (fmtp.get('sprop-parameter-sets') ?? '').split(',').filter(Boolean)) {
        this.parameterSet(base64(text));
      }
    } else {
      this.depacketizer = new H265Depacketizer();
      this.parameters = { types: [H265_NAL.vps, H265_NAL.sps, H265_NAL.pps], sets: new Map() };
      for (const name of ['sprop-vps', 'sprop-sps', 'sprop-pps']) {
        for (const text of (fmtp.get(name) ?? '').split(',').filter(Boolean)) {
          this.parameterSet(base64(text));
        }
      }
    }
    this.declare();
  }

  packet(packet: RtpPacket, emit: (unit: MediaUnit) => void): void {
    for (const unit of this.depacketizer.push(packet.payload, packet.timestamp, packet.marker)) {
      const slices: Uint8Array[] = [];
      let changed = false;
      for (const nal of unit.nals) {
        const type = this.nalType(nal);
        if (this.parameters.types.includes(type)) {
          changed = this.parameterSet(nal) || changed;
        } else if (!this.dropped(type)) {
          slices.push(nal);
        }
      }
      if (changed) {
        this.declare();
      }
      if (slices.length === 0 || !this.track) {
        continue;
      }
      if (unit.timestamp === this.lastTimestamp) {
        continue;
      }
      this.lastTimestamp = unit.timestamp;
      emit({
        trackId: this.id,
        dts: unit.timestamp,
        pts: unit.timestamp,
        key: unit.key,
        data: toLengthPrefixed(slices),
      });
    }
  }

  lost(): void {
    this.depacketizer.lost();
  }

  decodeTime(pts: number, key: boolean): number | undefined {
    return this.decodeTimes ? this.decodeTimes.next(pts, key) : pts;
  }

  moved(ms: number): void {
    this.decodeTimes?.moved(Math.round((ms * VIDEO_TIMESCALE) / 1000));
  }

  private nalType(nal: Uint8Array): number {
    const first = nal[0] as number;
    return this.codec === 'h264' ? first & 0x1f : (first >> 1) & 0x3f;
  }

  /** Access unit delimiters and filler data are not kept (the packagers write their own). */
  private dropped(type: number): boolean {
    return this.codec === 'h264'
      ? type === H264_NAL.aud || type === FILLER_H264
      : type === H265_NAL.aud || type === FILLER_H265;
  }

  /** Keeps a parameter set; returns whether it changed. */
  private parameterSet(nal: Uint8Array): boolean {
    const type = this.nalType(nal);
    const known = this.parameters.sets.get(type);
    if (!this.parameters.types.includes(type) || (known && bytesEqual(known, nal))) {
      return false;
    }
    this.parameters.sets.set(type, nal);
    return true;
  }

  private declare(): void {
    const sets = this.parameters.types.map((type) => this.parameters.sets.get(type));
    if (sets.some((set) => set === undefined)) {
      return;
    }
    const [a, b, c] = sets as Uint8Array[];
    let config: Uint8Array;
    let described: { codecString: string; width: number; height: number; fps?: number };
    let reorderDepth: number | undefined;
    try {
      config =
        this.codec === 'h264'
          ? buildAvcC([a as Uint8Array], [b as Uint8Array])
          : buildHvcC([a as Uint8Array], [b as Uint8Array], [c as Uint8Array]);
      described = this.codec === 'h264' ? describeAvcC(config) : describeHvcC(config);
      reorderDepth =
        this.codec === 'h264'
          ? parseH264Sps(a as Uint8Array).maxNumReorderFrames
          : parseH265Sps(b as Uint8Array).maxNumReorderPics;
    } catch (error) {
      if (error instanceof ParseError || error instanceof UnsupportedError) {
        throw new ParseError(
          `unreadable ${this.codec === 'h264' ? 'H.264' : 'H.265'} parameter sets: ${error.message}`,
        );
      }
      throw error;
    }
    this.track = {
      kind: 'video',
      id: this.id,
      codec: this.codec,
      timescale: VIDEO_TIMESCALE,
      config,
      codecString: described.codecString,
      width: described.width,
      height: described.height,
      ...(described.fps === undefined ? {} : { fps: described.fps }),
    };
    if (this.decodeTimes) {
      this.decodeTimes.declare(reorderDepth);
    } else {
      this.decodeTimes = new DecodeTimes(
        reorderDepth,
        Math.round(VIDEO_TIMESCALE / (described.fps ?? DEFAULT_FPS)),
        this.onReorder,
      );
    }
  }
}

/** Frame rate assumed, to start decode times, when the SPS gives none. */
const DEFAULT_FPS = 25;

const FILLER_H264 = 12;
const FILLER_H265 = 38;

/** AAC frames of an `mpeg4-generic` or MP4A-LATM stream. */
class AacReader implements TrackReader {
  readonly track: AudioTrack;
  private readonly depacketizer: Mpeg4GenericDepacketizer | LatmDepacketizer;

  constructor(
    private readonly id: number,
    plan: RtspTrackPlan,
  ) {
    const hex = plan.media.fmtp.get('config') ?? '';
    const config = plan.codec === 'latm' ? latmConfig(hex).asc : new Uint8Array(Buffer.from(hex, 'hex'));
    const { track, asc } = aacTrackFromConfig(id, config);
    this.track = track;
    const frameDuration = Math.round((asc.samplesPerFrame * plan.media.clockRate) / asc.sampleRate);
    this.depacketizer =
      plan.codec === 'latm'
        ? new LatmDepacketizer(frameDuration)
        : new Mpeg4GenericDepacketizer(mpeg4GenericFormat(plan.media.fmtp), frameDuration);
  }

  lost(): void {
    this.depacketizer.lost();
  }

  packet(packet: RtpPacket, emit: (unit: MediaUnit) => void): void {
    for (const frame of this.depacketizer.push(packet.payload, packet.timestamp)) {
      // A copy: a view would keep the whole read it came from alive while the hub holds the frame.
      emit({ trackId: this.id, dts: frame.timestamp, pts: frame.timestamp, key: true, data: frame.data.slice() });
    }
  }
}

/** Opus packets, one per RTP packet (RFC 7587 §4.2). */
class OpusReader implements TrackReader {
  readonly track: AudioTrack;

  constructor(
    private readonly id: number,
    plan: RtspTrackPlan,
  ) {
    const channels = plan.media.fmtp.get('sprop-stereo') === '0' ? 1 : 2;
    this.track = {
      kind: 'audio',
      id,
      codec: 'opus',
      timescale: OPUS_SAMPLE_RATE,
      config: buildOpusHead({ channels }),
      codecString: opusCodecString(),
      sampleRate: OPUS_SAMPLE_RATE,
      channels,
    };
  }

  lost(): void {
    // Every Opus packet stands alone: nothing waits to be completed.
  }

  packet(packet: RtpPacket, emit: (unit: MediaUnit) => void): void {
    if (packet.payload.length > 0) {
      emit({ trackId: this.id, dts: packet.timestamp, pts: packet.timestamp, key: true, data: packet.payload.slice() });
    }
  }
}
