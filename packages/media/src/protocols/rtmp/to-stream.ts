/**
 * FLV/E-RTMP packets to the stream model (E-RTMP v2, FLV v10.1 Annex E): sequence headers become
 * Tracks, coded frames become MediaUnits (video dts = ms × 90, pts = dts + composition offset;
 * audio on the sample-rate clock, kept on exact frame steps while the millisecond timestamps
 * agree), written through a hub Publisher. The description is set once both configs are known,
 * or a short wait after the first coded frame when onMetaData did not say which tracks exist.
 */
import { bytesEqual } from '../../bits/bytes.js';
import { splitLengthPrefixed, toLengthPrefixed } from '../../codecs/nal.js';
import { opusPacketSamples } from '../../codecs/opus.js';
import { isKeyframe as isVp9Keyframe } from '../../codecs/vp9.js';
import type { FlvAudioPacket, FlvPacket, FlvVideoPacket } from '../../formats/flv/flv-packet.js';
import type { FlvMetadataHints } from '../../formats/flv/flv-script.js';
import type { Publisher } from '../../hub/hub.js';
import type { Logger } from '../../ports.js';
import type { MediaUnit } from '../../stream/media-unit.js';
import type { Track } from '../../stream/track.js';
import {
  type AudioTrackInfo,
  audioTrackFromConfig,
  RTMP_AUDIO_TRACK_ID,
  RTMP_VIDEO_TRACK_ID,
  type VideoTrackInfo,
  videoTrackFromConfig,
} from './track-from-config.js';

/** Options of the converter. */
export interface FlvToStreamOptions {
  readonly log: Logger;
  /** How long to wait for the other track's config after the first coded frame (default 1000 ms). */
  readonly descriptionWaitMs?: number;
  /** Most units held while waiting for the description (default 1000); older ones are dropped. */
  readonly maxPendingUnits?: number;
}

/** Counters of one converter. */
export interface FlvToStreamStats {
  videoUnits: number;
  audioUnits: number;
  /** Units dropped: before any config, or beyond the pending limit. */
  droppedUnits: number;
  /** Other multitrack tracks left out. */
  droppedTracks: number;
  descriptions: number;
}

/** Feeds one publisher from parsed FLV packets. */
export class FlvToStream {
  readonly stats: FlvToStreamStats = {
    videoUnits: 0,
    audioUnits: 0,
    droppedUnits: 0,
    droppedTracks: 0,
    descriptions: 0,
  };
  private hints: FlvMetadataHints = {};
  private video: VideoTrackInfo | undefined;
  private videoConfig: { codec: FlvVideoPacket['codec']; data: Uint8Array } | undefined;
  private audio: AudioTrackInfo | undefined;
  private described: readonly Track[] | undefined;
  /** Whether the described tracks include the video / audio track (checked per unit). */
  private describedVideo = false;
  private describedAudio = false;
  private pending: MediaUnit[] = [];
  private timer: NodeJS.Timeout | undefined;
  private audioNext: number | undefined;
  private closed = false;
  private readonly waitMs: number;
  private readonly maxPending: number;
  private readonly log: Logger;

  constructor(
    private readonly publisher: Publisher,
    options: FlvToStreamOptions,
  ) {
    this.log = options.log;
    this.waitMs = options.descriptionWaitMs ?? 1000;
    this.maxPending = options.maxPendingUnits ?? 1000;
  }

  /** The tracks as last declared to the hub. */
  get tracks(): readonly Track[] | undefined {
    return this.described;
  }

  /** onMetaData hints (framerate, size, which tracks exist). */
  setHints(hints: FlvMetadataHints): void {
    this.hints = { ...this.hints, ...hints };
  }

  /** Handles one packet; throws ParseError/UnsupportedError for a bad sequence header. */
  push(packet: FlvPacket): void {
    if (this.closed) {
      return;
    }
    if (packet.droppedTracks) {
      if (this.stats.droppedTracks % 1000 === 0) {
        this.log.info(
          { kind: packet.kind, droppedTracks: this.stats.droppedTracks + packet.droppedTracks },
          'multitrack message: keeping the first track (track 0 when present), the others are dropped',
        );
      }
      this.stats.droppedTracks += packet.droppedTracks;
    }
    if (packet.kind === 'video') {
      this.pushVideo(packet);
    } else {
      this.pushAudio(packet);
    }
  }

  /** Declares what is known when nothing was declared yet (so a short stream is not lost), then stops timers; the session closes the publisher. */
  close(): void {
    if (!this.closed && !this.described && this.pending.length > 0) {
      this.describe('publisher left before every config arrived');
    }
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = [];
  }

  private pushVideo(packet: FlvVideoPacket): void {
    if (packet.packetType === 'config') {
      if (packet.data.byteLength === 0) {
        return;
      }
      const same =
        this.videoConfig && this.videoConfig.codec === packet.codec && bytesEqual(this.videoConfig.data, packet.data);
      if (same) {
        return;
      }
      this.videoConfig = { codec: packet.codec, data: packet.data.slice() };
      const info = videoTrackFromConfig(packet.codec, this.videoConfig.data, this.hints);
      if (info || this.video?.track.codec !== packet.codec) {
        this.video = info;
      }
      this.configChanged();
      return;
    }
    if (packet.packetType !== 'frame' || packet.data.byteLength === 0) {
      return;
    }
    const config = this.videoConfig;
    if (!config || config.codec !== packet.codec) {
      this.stats.droppedUnits++;
      return;
    }
    if (!this.video && packet.codec === 'vp9' && isVp9Keyframe(packet.data)) {
      this.video = videoTrackFromConfig(packet.codec, config.data, this.hints, packet.data);
      this.configChanged();
    }
    const info = this.video;
    if (!info) {
      this.stats.droppedUnits++;
      return;
    }
    let data = packet.data;
    if (info.lengthSize !== 0 && info.lengthSize !== 4) {
      data = toLengthPrefixed(splitLengthPrefixed(data, info.lengthSize));
    }
    const dts = packet.timestampMs * 90;
    this.stats.videoUnits++;
    this.emit(
      { trackId: RTMP_VIDEO_TRACK_ID, dts, pts: dts + packet.compositionOffsetMs * 90, key: packet.key, data },
      true,
    );
  }

  private pushAudio(packet: FlvAudioPacket): void {
    if (packet.packetType === 'config') {
      if (packet.data.byteLength === 0) {
        return;
      }
      const current = this.audio?.track;
      if (current && current.codec === packet.codec && bytesEqual(current.config, packet.data)) {
        return;
      }
      this.audio = audioTrackFromConfig(packet.codec, packet.data.slice(), this.hints);
      this.audioNext = undefined;
      this.configChanged();
      return;
    }
    if (packet.packetType !== 'frame' || packet.data.byteLength === 0) {
      return;
    }
    const info = this.audio;
    if (!info || info.track.codec !== packet.codec) {
      this.stats.droppedUnits++;
      return;
    }
    const rate = info.track.sampleRate;
    const fromMs = Math.round((packet.timestampMs * rate) / 1000);
    const expected = this.audioNext;
    const dts = expected !== undefined && Math.abs(fromMs - expected) <= (rate * 2) / 1000 ? expected : fromMs;
    const samples = info.samplesPerFrame > 0 ? info.samplesPerFrame : opusPacketSamples(packet.data);
    this.audioNext = dts + samples;
    this.stats.audioUnits++;
    this.emit({ trackId: RTMP_AUDIO_TRACK_ID, dts, pts: dts, key: true, data: packet.data }, false);
  }

  private currentTracks(): Track[] {
    const tracks: Track[] = [];
    if (this.video) {
      tracks.push(this.video.track);
    }
    if (this.audio) {
      tracks.push(this.audio.track);
    }
    return tracks;
  }

  private configChanged(): void {
    if (this.described) {
      this.describe('sequence header changed');
      return;
    }
    const wantVideo = this.hints.hasVideo !== false;
    const wantAudio = this.hints.hasAudio !== false;
    const haveVideo = this.video !== undefined || !wantVideo;
    const haveAudio = this.audio !== undefined || !wantAudio;
    if (haveVideo && haveAudio && this.hints.hasVideo !== undefined) {
      this.describe('all announced tracks configured');
    } else if (this.video && this.audio) {
      this.describe('audio and video configured');
    }
  }

  private describe(reason: string): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const tracks = this.currentTracks();
    if (tracks.length === 0) {
      return;
    }
    this.described = tracks;
    this.describedVideo = tracks.some((track) => track.id === RTMP_VIDEO_TRACK_ID);
    this.describedAudio = tracks.some((track) => track.id === RTMP_AUDIO_TRACK_ID);
    this.stats.descriptions++;
    this.publisher.setDescription({ tracks });
    this.log.info(
      { tracks: tracks.map((t) => (t.kind === 'video' ? `${t.codecString} ${t.width}x${t.height}` : t.codecString)) },
      `stream description set: ${reason}`,
    );
    const pending = this.pending;
    this.pending = [];
    for (const unit of pending) {
      if (unit.trackId === RTMP_VIDEO_TRACK_ID ? this.describedVideo : this.describedAudio) {
        this.publisher.write(unit);
      }
    }
  }

  private emit(unit: MediaUnit, video: boolean): void {
    if (video ? this.describedVideo : this.describedAudio) {
      this.publisher.write(unit);
      return;
    }
    this.pending.push(unit);
    if (this.pending.length > this.maxPending) {
      this.pending.shift();
      this.stats.droppedUnits++;
    }
    if (this.described) {
      return;
    }
    if (!this.timer && (video || this.hints.hasVideo === false || this.video === undefined)) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        if (!this.closed) {
          this.describe(`no further config ${this.waitMs} ms after the first frame`);
        }
      }, this.waitMs);
      this.timer.unref();
    }
  }
}
