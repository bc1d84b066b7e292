/**
 * WHIP media into the hub: reassembled H.264 access units (RFC 6184), AV1 temporal units (AV1 RTP
 * payload format; their sequence header becomes the av1C, AV1-ISOBMFF §2.3), VP9 frames (RFC 9628;
 * a key frame's header becomes the vpcC, VP-ISOBMFF §2.2) and Opus packets
 * (RFC 7587) become MediaUnits. Video carries SPS/PPS in band; they become the track's avcC (ISO/IEC
 * 14496-15 §5.3.3) and a changed SPS/PPS (a resolution switch) re-declares the tracks. RTP
 * timestamps of each track are unwrapped and placed on one timeline by their arrival time, so
 * audio and video start together. H.264 from WebRTC has no B-frames: pts equals dts. An AAC
 * track transcoded from the Opus (opus-to-aac.ts) can be declared beside it for classic HLS.
 */
import { bytesEqual } from '../../../bits/bytes.js';
import { aacCodecString } from '../../../codecs/aac.js';
import { buildAv1C, describeAv1C, OBU, splitObus } from '../../../codecs/av1.js';
import { buildAvcC, describeAvcC, H264_NAL } from '../../../codecs/h264.js';
import { toLengthPrefixed } from '../../../codecs/nal.js';
import { buildOpusHead, OPUS_SAMPLE_RATE, opusCodecString } from '../../../codecs/opus.js';
import { buildVpcC, parseFrameSize, vp9CodecString, vp9LevelFor, vpcCFieldsFromFrame } from '../../../codecs/vp9.js';
import type { MediaUnit } from '../../../stream/media-unit.js';
import {
  type AudioTrack,
  type StreamDescription,
  VIDEO_TIMESCALE,
  type VideoCodec,
  type VideoTrack,
} from '../../../stream/track.js';
import type { Av1TemporalUnit } from '../../shared/rtp/av1-depacketizer.js';
import type { H264AccessUnit } from '../../shared/rtp/h264-depacketizer.js';
import { TimestampUnwrapper } from '../../shared/rtp/rtp-clock.js';
import type { Vp9Frame } from '../../shared/rtp/vp9-depacketizer.js';
import { DERIVED_AAC_CONFIG } from './opus-to-aac.js';

/** Track id of WHIP video. */
export const WHIP_VIDEO_TRACK_ID = 1;
/** Track id of WHIP audio. */
export const WHIP_AUDIO_TRACK_ID = 2;

/** Where converted media goes (a hub Publisher). */
export interface UnitSink {
  setDescription(description: StreamDescription): void;
  write(unit: MediaUnit): void;
}

/** Track id of the AAC rendition derived from WHIP Opus (for classic HLS). */
export const WHIP_AAC_TRACK_ID = 3;

/** What the offer said the publisher sends. */
export interface ExpectedTracks {
  readonly video: boolean;
  readonly audio: boolean;
  /** Also declare an AAC track (written with onDerivedAac) beside the Opus one. */
  readonly derivedAac?: boolean;
}

/** One track's timeline: first RTP timestamp mapped to its arrival on the session clock. */
class TrackClock {
  private readonly unwrapper = new TimestampUnwrapper();
  private origin: { rtp: number; at: number } | undefined;

  constructor(private readonly rate: number) {}

  /** The track-clock time of `rtp` on the session timeline (0 = session start). */
  time(rtp: number, arrivalMs: number): number {
    const extended = this.unwrapper.unwrap(rtp);
    if (!this.origin) {
      this.origin = { rtp: extended, at: Math.round((arrivalMs * this.rate) / 1000) };
    }
    return extended - this.origin.rtp + this.origin.at;
  }
}

/** Converts one WHIP session's media into units for the hub. */
export class WhipToStream {
  private video: VideoTrack | undefined;
  private audio: AudioTrack | undefined;
  private aac: AudioTrack | undefined;
  private lastAacTime = -1;
  private sps: Uint8Array | undefined;
  private av1SequenceHeader: Uint8Array | undefined;
  private pps: Uint8Array | undefined;
  private described = false;
  private readonly videoClock = new TrackClock(VIDEO_TIMESCALE);
  private readonly audioClock = new TrackClock(OPUS_SAMPLE_RATE);
  private lastAudioTime = -1;
  private lastVideoTime = -1;

  constructor(
    private readonly sink: UnitSink,
    expected: ExpectedTracks,
    /** Milliseconds since the session started (arrival clock). */
    private readonly clock: () => number,
  ) {
    if (expected.audio) {
      this.audio = opusTrack();
      if (expected.derivedAac) {
        this.aac = aacTrack();
      }
    }
    if (!expected.video && this.audio) {
      this.declare();
    }
  }

  /** True once the tracks are declared (video waits for its first SPS/PPS). */
  get isDescribed(): boolean {
    return this.described;
  }

  /** One reassembled H.264 access unit. */
  onH264(unit: H264AccessUnit): void {
    const arrival = this.clock();
    const time = this.videoClock.time(unit.timestamp, arrival);
    const slices: Uint8Array[] = [];
    let sps = this.sps;
    let pps = this.pps;
    for (const nal of unit.nals) {
      const type = (nal[0] as number) & 0x1f;
      if (type === H264_NAL.sps) {
        sps = nal;
      } else if (type === H264_NAL.pps) {
        pps = nal;
      } else if (type !== H264_NAL.aud && type !== FILLER) {
        slices.push(nal);
      }
    }
    if (sps && pps && (sps !== this.sps || pps !== this.pps)) {
      this.updateVideo(sps, pps);
    }
    if (slices.length > 0) {
      this.writeVideo(time, unit.key, toLengthPrefixed(slices));
    }
  }

  /** One reassembled AV1 temporal unit; its sequence header (re)declares the track. */
  onAv1(unit: Av1TemporalUnit): void {
    const time = this.videoClock.time(unit.timestamp, this.clock());
    const sequenceHeader = splitObus(unit.data).find((obu) => obu.type === OBU.sequenceHeader);
    if (sequenceHeader && (!this.av1SequenceHeader || !bytesEqual(sequenceHeader.bytes, this.av1SequenceHeader))) {
      this.av1SequenceHeader = sequenceHeader.bytes;
      const config = buildAv1C(sequenceHeader.bytes);
      this.declareVideo('av1', config, describeAv1C(config));
    }
    this.writeVideo(time, unit.key, unit.data);
  }

  /** One reassembled VP9 frame; a key frame of a new size or format (re)declares the track. */
  onVp9(unit: Vp9Frame): void {
    const time = this.videoClock.time(unit.timestamp, this.clock());
    const info = unit.key ? parseFrameSize(unit.data) : undefined;
    if (info) {
      const fields = vpcCFieldsFromFrame(info, vp9LevelFor(info.width, info.height, 30));
      const config = buildVpcC(fields);
      const current = this.video;
      if (
        current?.codec !== 'vp9' ||
        current.width !== info.width ||
        current.height !== info.height ||
        !bytesEqual(current.config, config)
      ) {
        this.declareVideo('vp9', config, {
          codecString: vp9CodecString(fields),
          width: info.width,
          height: info.height,
        });
      }
    }
    this.writeVideo(time, unit.key, unit.data);
  }

  private writeVideo(time: number, key: boolean, data: Uint8Array): void {
    if (!this.described || !this.video || time <= this.lastVideoTime) {
      return;
    }
    this.lastVideoTime = time;
    this.sink.write({ trackId: WHIP_VIDEO_TRACK_ID, dts: time, pts: time, key, data });
  }

  /** One Opus packet (the whole RTP payload, RFC 7587 §4.2); returns its time when it was written. */
  onAudio(packet: Uint8Array, rtpTimestamp: number): number | undefined {
    const time = this.audioClock.time(rtpTimestamp, this.clock());
    if (!this.described || !this.audio || packet.length === 0 || time <= this.lastAudioTime) {
      return undefined;
    }
    this.lastAudioTime = time;
    this.sink.write({ trackId: WHIP_AUDIO_TRACK_ID, dts: time, pts: time, key: true, data: packet });
    return time;
  }

  /** One AAC frame transcoded from the Opus track, at `time` (48 kHz, the Opus timeline). */
  onDerivedAac(time: number, frame: Uint8Array): void {
    if (!this.described || !this.aac || time <= this.lastAacTime) {
      return;
    }
    this.lastAacTime = time;
    this.sink.write({ trackId: WHIP_AAC_TRACK_ID, dts: time, pts: time, key: true, data: frame });
  }

  private updateVideo(sps: Uint8Array, pps: Uint8Array): void {
    const changed =
      this.sps === undefined || this.pps === undefined || !bytesEqual(this.sps, sps) || !bytesEqual(this.pps, pps);
    this.sps = sps;
    this.pps = pps;
    if (!changed && this.video) {
      return;
    }
    const config = buildAvcC([sps], [pps]);
    this.declareVideo('h264', config, describeAvcC(config));
  }

  private declareVideo(
    codec: VideoCodec,
    config: Uint8Array,
    d: { codecString: string; width: number; height: number; fps?: number },
  ): void {
    this.video = {
      kind: 'video',
      id: WHIP_VIDEO_TRACK_ID,
      codec,
      timescale: VIDEO_TIMESCALE,
      config,
      codecString: d.codecString,
      width: d.width,
      height: d.height,
      ...(d.fps === undefined ? {} : { fps: d.fps }),
    };
    this.declare();
  }

  private declare(): void {
    const tracks = [this.video, this.audio, this.aac].filter((track) => track !== undefined);
    this.sink.setDescription({ tracks });
    this.described = true;
  }
}

const FILLER = 12;

function aacTrack(): AudioTrack {
  return {
    kind: 'audio',
    id: WHIP_AAC_TRACK_ID,
    codec: 'aac',
    timescale: OPUS_SAMPLE_RATE,
    config: DERIVED_AAC_CONFIG,
    codecString: aacCodecString(2),
    sampleRate: OPUS_SAMPLE_RATE,
    channels: 2,
  };
}

function opusTrack(): AudioTrack {
  return {
    kind: 'audio',
    id: WHIP_AUDIO_TRACK_ID,
    codec: 'opus',
    timescale: OPUS_SAMPLE_RATE,
    config: buildOpusHead({ channels: 2 }),
    codecString: opusCodecString(),
    sampleRate: OPUS_SAMPLE_RATE,
    channels: 2,
  };
}
