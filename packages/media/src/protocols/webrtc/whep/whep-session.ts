/**
 * One WHEP viewer (draft-ietf-wish-whep): a werift peer sending the stream's H.264 and Opus as
 * RTP. It starts at a keyframe: for a stream whose publisher can be asked (WHIP), a PLI upstream
 * and the next live keyframe; otherwise the cached GOP, sent at once with its timestamps pressed
 * together just before the live edge so the browser decodes through it without adding the GOP's
 * age to its playout delay. Video comes through a bounded hub reader: a viewer that falls behind
 * drops to the next keyframe and never holds up the others. Packets leave through RtpSendPath
 * (keys imported once, no per-packet promise; ADR 0031), which also answers NACKs from its
 * history of sent datagrams; a PLI from the viewer is passed upstream when the publisher can be
 * asked.
 */
import type { LiveStream } from '../../../hub/live-stream.js';
import type { QueuedReader } from '../../../hub/reader.js';
import type { Logger } from '../../../ports.js';
import type { MediaUnit } from '../../../stream/media-unit.js';
import { audioTrackOf, videoTrackOf } from '../../../stream/track.js';
import type { RtpPayload } from '../../shared/rtp/h264-packetizer.js';
import { Peer, type PeerOptions } from '../peer.js';
import type { TrickleFragment } from '../sdp/trickle-fragment.js';
import { RtpSendPath, type RtpSendStats, SEND_HISTORY } from '../srtp/rtp-send-path.js';
import { SRTP_AEAD_AES_128_GCM, SRTP_AES128_CM_HMAC_SHA1_80 } from '../srtp/srtp-protector.js';
import { preferSrtpProfiles } from '../srtp/werift-srtp.js';
import { H264UnitPacketizer, opusPayloads } from './units-to-rtp.js';

/** Where a viewer's Opus comes from when the stream's audio is not Opus (a shared transcoder). */
export interface OpusSource {
  /** Calls `onUnit` with each Opus unit (48 kHz timestamps on the stream's timeline); returns the unsubscribe. */
  subscribe(onUnit: (unit: MediaUnit) => void): () => void;
}

/** Who a WHEP session plays to. */
export interface WhepViewer {
  /** The viewer session it is counted under (`currentViewers`, connection events, analytics). */
  readonly sessionId: string;
  /** Told the bytes sent to this viewer, about once a second and when it ends (viewer analytics). */
  readonly served?: (bytes: number) => void;
}

/** What a WHEP session needs from the rest of the WebRTC service. */
export interface WhepContext {
  /** Asks the stream's publisher for a keyframe; false when it cannot be asked (not WHIP). */
  requestKeyframe(streamId: string): boolean;
  /** Opus for streams whose audio is AAC; undefined for Opus streams or streams without audio. */
  readonly opus?: OpusSource;
}

/** Limits of a viewer's queue. */
export interface WhepSessionOptions extends PeerOptions {
  readonly maxQueuedUnits?: number;
  readonly maxQueuedBytes?: number;
  /** A viewer that sends no RTCP (receiver reports) this long is gone (default 6 s). */
  readonly viewerTimeoutMs?: number;
}

/** Counters of one viewer. */
export interface WhepSessionStats {
  packets: number;
  videoUnits: number;
  audioUnits: number;
  keyframeRequests: number;
}

/** Opus packets kept for NACKs (2.5 s of 20 ms packets). */
const AUDIO_SEND_HISTORY = 128;

interface Outgoing {
  readonly path: RtpSendPath;
  sequence: number;
  readonly timestampOffset: number;
}

/** A WHEP viewer's session. */
export class WhepSession {
  readonly stats: WhepSessionStats = { packets: 0, videoUnits: 0, audioUnits: 0, keyframeRequests: 0 };
  private readonly peer: Peer;
  private video: Outgoing | undefined;
  private audio: Outgoing | undefined;
  private reader: QueuedReader | undefined;
  private closeViewer: (() => void) | undefined;
  private unsubscribeOpus: (() => void) | undefined;
  private ended: string | undefined;
  private videoStarted = false;
  private lastHeard = performance.now();
  private reportedBytes = 0;
  private watchdog: NodeJS.Timeout | undefined;

  constructor(
    readonly id: string,
    private readonly stream: LiveStream,
    /** The viewer session the stream counts this viewer under, and where its bytes go. */
    private readonly viewer: WhepViewer,
    private readonly context: WhepContext,
    private readonly options: WhepSessionOptions,
    private readonly log: Logger,
    private readonly onEnded: (session: WhepSession, reason: string) => void,
  ) {
    this.peer = new Peer(options, (reason) => this.close(reason));
  }

  /** The stream this viewer watches. */
  get streamId(): string {
    return this.stream.streamId;
  }

  /** Why it ended, or undefined while it plays. */
  get endReason(): string | undefined {
    return this.ended;
  }

  /** The viewer's hub reader (tests and benchmarks read its counters). */
  get queue(): QueuedReader | undefined {
    return this.reader;
  }

  /** Negotiates; returns the answer SDP, or throws ProtocolError. */
  async answer(sdp: string): Promise<string> {
    const description = this.stream.description;
    const hasVideo = description !== undefined && videoTrackOf(description) !== undefined;
    const hasAudio = description !== undefined && audioTrackOf(description) !== undefined;
    const answer = await this.peer.answer(sdp, (transceivers) => {
      // AES-CM first: its keystream is made a frame at a time, GCM needs a cipher per packet (ADR 0032).
      for (const transport of this.peer.pc.dtlsTransports) {
        preferSrtpProfiles(transport, [SRTP_AES128_CM_HMAC_SHA1_80, SRTP_AEAD_AES_128_GCM]);
      }
      for (const transceiver of transceivers) {
        const wanted = transceiver.kind === 'video' ? hasVideo : transceiver.kind === 'audio' && hasAudio;
        transceiver.setDirection(wanted ? 'sendonly' : 'inactive');
      }
    });
    for (const transceiver of this.peer.pc.getTransceivers()) {
      const codec = transceiver.sender.codec;
      if (transceiver.direction !== 'sendonly' || !codec) {
        continue;
      }
      const outgoing: Outgoing = {
        path: new RtpSendPath(
          transceiver.sender,
          codec.payloadType,
          transceiver.kind === 'audio' ? AUDIO_SEND_HISTORY : SEND_HISTORY,
        ),
        sequence: Math.floor(Math.random() * 0x10000),
        timestampOffset: Math.floor(Math.random() * 0x7fffffff),
      };
      transceiver.sender.onRtcp.subscribe(() => {
        this.lastHeard = performance.now();
      });
      if (transceiver.kind === 'video' && !this.video) {
        this.video = outgoing;
        transceiver.sender.onPictureLossIndication.subscribe(() => this.onViewerPli());
      } else if (transceiver.kind === 'audio' && !this.audio) {
        this.audio = outgoing;
      }
    }
    void this.peer.whenConnected().then(() => this.start());
    return answer;
  }

  /** Counters of the video and audio send paths (packets, retransmissions). */
  get sendStats(): { video?: RtpSendStats; audio?: RtpSendStats } {
    return {
      ...(this.video ? { video: this.video.path.stats } : {}),
      ...(this.audio ? { audio: this.audio.path.stats } : {}),
    };
  }

  /** True when the answer sends at least one track. */
  get sendsMedia(): boolean {
    return this.video !== undefined || this.audio !== undefined;
  }

  /** Applies PATCHed candidates. */
  addCandidates(fragment: TrickleFragment): Promise<void> {
    return this.peer.addCandidates(fragment);
  }

  /** Ends the session (idempotent). */
  close(reason: string): void {
    if (this.ended) {
      return;
    }
    this.ended = reason;
    clearInterval(this.watchdog);
    this.reportBytes();
    this.reader?.close();
    this.unsubscribeOpus?.();
    this.closeViewer?.();
    this.peer.close();
    this.log.info({ sessionId: this.id, reason, ...this.stats }, 'WHEP session ended');
    this.onEnded(this, reason);
  }

  /** Tells the stream's counters and the viewer's analytics the bytes sent since the last report. */
  private reportBytes(): void {
    const sent = (this.video?.path.stats.bytes ?? 0) + (this.audio?.path.stats.bytes ?? 0);
    const bytes = sent - this.reportedBytes;
    if (bytes <= 0) {
      return;
    }
    this.reportedBytes = sent;
    this.stream.stats.bytesOut += bytes;
    this.viewer.served?.(bytes);
  }

  private onViewerPli(): void {
    this.stats.keyframeRequests++;
    this.context.requestKeyframe(this.stream.streamId);
  }

  private start(): void {
    if (this.ended) {
      return;
    }
    this.closeViewer = this.stream.viewers.open(this.viewer.sessionId, 'webrtc');
    // At once, before any bytes: analytics learns who the viewer is before its first flush.
    this.viewer.served?.(0);
    const timeout = this.options.viewerTimeoutMs ?? 6000;
    this.lastHeard = performance.now();
    this.watchdog = setInterval(() => {
      this.reportBytes();
      if (performance.now() - this.lastHeard > timeout) {
        this.close(`the viewer sent no RTCP for ${Math.round(timeout / 1000)} s`);
      }
    }, 1000);
    this.watchdog.unref();
    this.log.info({ sessionId: this.id, streamId: this.stream.streamId }, 'WHEP session connected');
    const description = this.stream.description;
    const videoTrack = description ? videoTrackOf(description) : undefined;
    const audioTrack = description ? audioTrackOf(description) : undefined;
    const packetizer = videoTrack && this.video ? H264UnitPacketizer.forTrack(videoTrack) : undefined;
    const opusInStream = audioTrack?.codec === 'opus';
    if (this.audio && audioTrack && !opusInStream && this.context.opus) {
      this.unsubscribeOpus = this.context.opus.subscribe((unit) => this.sendAudio(unit));
    }
    const reader = this.stream.openReader({
      maxUnits: this.options.maxQueuedUnits ?? 512,
      maxBytes: this.options.maxQueuedBytes ?? 4 * 1024 * 1024,
    });
    this.reader = reader;
    const upstream = this.context.requestKeyframe(this.stream.streamId);
    const cached = reader.length;
    const cachedVideo = upstream ? [] : this.stream.gopCache.filter((unit) => unit.trackId === videoTrack?.id);
    if (upstream) {
      for (let i = 0; i < cached; i++) {
        reader.shift();
      }
    }
    void this.pump(reader, {
      videoTrackId: videoTrack?.id,
      audioTrackId: opusInStream ? audioTrack?.id : undefined,
      packetizer,
      cachedCount: upstream ? 0 : cached,
      lastCachedVideoPts: cachedVideo.at(-1)?.pts,
      cachedVideoCount: cachedVideo.length,
    });
  }

  private async pump(
    reader: QueuedReader,
    plan: {
      videoTrackId: number | undefined;
      audioTrackId: number | undefined;
      packetizer: H264UnitPacketizer | undefined;
      cachedCount: number;
      lastCachedVideoPts: number | undefined;
      cachedVideoCount: number;
    },
  ): Promise<void> {
    let index = 0;
    let cachedVideoSeen = 0;
    for await (const unit of reader) {
      if (this.ended) {
        return;
      }
      const fromCache = index++ < plan.cachedCount;
      if (unit.trackId === plan.videoTrackId && plan.packetizer && this.video) {
        if (unit.pts !== unit.dts) {
          this.close('the stream has B-frames, which WebRTC cannot carry');
          return;
        }
        if (!this.videoStarted && !unit.key) {
          continue;
        }
        if (unit.key && !this.followTrackChange(plan)) {
          return;
        }
        this.videoStarted = true;
        let timestamp = unit.pts;
        if (fromCache && plan.lastCachedVideoPts !== undefined) {
          cachedVideoSeen++;
          timestamp = plan.lastCachedVideoPts - (plan.cachedVideoCount - cachedVideoSeen);
        }
        this.stats.videoUnits++;
        this.send(this.video, plan.packetizer.payloads(unit), timestamp);
      } else if (unit.trackId === plan.audioTrackId && !fromCache && (this.videoStarted || !this.video)) {
        this.sendAudio(unit);
      }
    }
    if (!this.ended) {
      this.close(this.stream.endReason ? `stream ended: ${this.stream.endReason}` : 'stream reader closed');
    }
  }

  /**
   * At a keyframe: when the publisher re-declared its video (a browser lowering its resolution, a
   * reconnect with new settings), packetize from now on with the new SPS/PPS. False (and the
   * session closed) when the video is no longer H.264.
   */
  private followTrackChange(plan: {
    packetizer: H264UnitPacketizer | undefined;
    videoTrackId: number | undefined;
  }): boolean {
    const description = this.stream.description;
    const track = description ? videoTrackOf(description) : undefined;
    if (!track || track.id !== plan.videoTrackId || plan.packetizer?.track === track) {
      return true;
    }
    if (track.codec !== 'h264') {
      this.close(`the stream's video changed to ${track.codec}, which WebRTC playback does not carry`);
      return false;
    }
    plan.packetizer = H264UnitPacketizer.forTrack(track);
    return true;
  }

  private sendAudio(unit: MediaUnit): void {
    if (!this.audio || this.ended || (this.video && !this.videoStarted)) {
      return;
    }
    this.stats.audioUnits++;
    this.send(this.audio, opusPayloads(unit), unit.pts);
  }

  private send(outgoing: Outgoing, payloads: readonly RtpPayload[], timestamp: number): void {
    const rtpTimestamp = (Math.round(timestamp) + outgoing.timestampOffset) >>> 0;
    outgoing.path.markFrameTime();
    outgoing.path.sendFrame(payloads, outgoing.sequence, rtpTimestamp);
    outgoing.sequence = (outgoing.sequence + payloads.length) & 0xffff;
    this.stats.packets += payloads.length;
  }
}
