/**
 * One WHIP publish (RFC 9725): a werift peer receiving H.264, AV1 or VP9 and Opus RTP (RFC 3550),
 * put back in order, depacketized (RFC 6184, the AV1 RTP payload format, RFC 9628, RFC 7587) and written to the hub through WhipToStream. Keyframes
 * are requested with PLI (RFC 4585 §6.3.1) at the start, after a loss, every `keyframeIntervalMs`
 * (the HLS/DASH segmenters cut on keyframes, and browsers send one only when asked) and when a
 * WebRTC viewer joins. NACKs for lost packets are werift's. A malformed packet is counted and
 * logged at a bounded rate; it never ends the session.
 */
import type { MediaStreamTrack, RTCRtpReceiver, RtpPacket } from 'werift';
import type { Publisher } from '../../../hub/hub.js';
import type { Logger } from '../../../ports.js';
import { Av1Depacketizer } from '../../shared/rtp/av1-depacketizer.js';
import { H264Depacketizer } from '../../shared/rtp/h264-depacketizer.js';
import { ReorderBuffer } from '../../shared/rtp/reorder-buffer.js';
import { Vp9Depacketizer } from '../../shared/rtp/vp9-depacketizer.js';
import { Peer, type PeerOptions } from '../peer.js';
import type { OfferSummary } from '../sdp/offer-summary.js';
import type { TrickleFragment } from '../sdp/trickle-fragment.js';
import { OpusToAac } from './opus-to-aac.js';
import { WhipToStream } from './to-stream.js';

/** Options of a WHIP session. */
export interface WhipSessionOptions extends PeerOptions {
  /** Ask the browser for a keyframe this often so segments can be cut (default 2000 ms; 0 = never). */
  readonly keyframeIntervalMs?: number;
  /** A connected publisher that sends no RTP this long is gone (default 10 s). */
  readonly mediaTimeoutMs?: number;
  /** Transcode the Opus to an AAC track for classic HLS with one ffmpeg (default true). */
  readonly aacForHls?: boolean;
}

/** Counters of one session. */
export interface WhipSessionStats {
  packets: number;
  badPackets: number;
  keyframeRequests: number;
}

const MIN_KEYFRAME_REQUEST_GAP_MS = 300;
/** Video packets held behind a gap at most (about 25 frames of a 720p publish). */
const VIDEO_REORDER_MAX_HELD = 128;
/**
 * How long a video gap waits for its retransmission. werift NACKs a lost packet every 5 ms, ten
 * times, so the resent packet arrives one round trip after the loss was seen: 200 ms covers
 * publishers up to ~150 ms away and delays delivery only while a packet is missing. Audio is not
 * NACKed (no `nack` feedback for Opus): its gaps wait only for reordering, the buffer's default.
 */
const VIDEO_REORDER_MAX_WAIT_MS = 200;

/** A WHIP publisher's session. */
export class WhipSession {
  readonly stats: WhipSessionStats = { packets: 0, badPackets: 0, keyframeRequests: 0 };
  private readonly peer: Peer;
  private readonly toStream: WhipToStream;
  private readonly startedAt = performance.now();
  private videoReceiver: { receiver: RTCRtpReceiver; ssrc: number } | undefined;
  private lastKeyframeRequest = Number.NEGATIVE_INFINITY;
  private lastPacketAt = performance.now();
  private timers: NodeJS.Timeout[] = [];
  private ended: string | undefined;
  private aac: OpusToAac | undefined;

  constructor(
    /** Unguessable id: the session URL's last segment. */
    readonly id: string,
    private readonly publisher: Publisher,
    private readonly offer: OfferSummary,
    private readonly options: WhipSessionOptions,
    private readonly log: Logger,
    private readonly onEnded: (session: WhipSession, reason: string) => void,
  ) {
    this.peer = new Peer(options, (reason) => this.close(reason));
    const media = offer.media.filter((m) => m.direction === 'sendonly' || m.direction === 'sendrecv');
    const audio = media.some((m) => m.kind === 'audio');
    const derivedAac = audio && (options.aacForHls ?? true);
    this.toStream = new WhipToStream(
      publisher,
      { video: media.some((m) => m.kind === 'video'), audio, derivedAac },
      () => performance.now() - this.startedAt,
    );
    if (derivedAac) {
      this.aac = new OpusToAac(log.child({ sessionId: id }), (time, frame) => this.toStream.onDerivedAac(time, frame));
    }
    this.peer.pc.onTrack.subscribe((track) => this.onTrack(track));
  }

  /** The stream this session publishes to. */
  get streamId(): string {
    return this.publisher.stream.streamId;
  }

  /** Why it ended, or undefined while it runs. */
  get endReason(): string | undefined {
    return this.ended;
  }

  /** Negotiates and returns the answer SDP. */
  async answer(sdp: string): Promise<string> {
    const answer = await this.peer.answer(sdp, (transceivers) => {
      for (const transceiver of transceivers) {
        transceiver.setDirection('recvonly');
      }
    });
    void this.peer.whenConnected().then(() => this.onConnected());
    return answer;
  }

  /** Applies PATCHed candidates. */
  addCandidates(fragment: TrickleFragment): Promise<void> {
    return this.peer.addCandidates(fragment);
  }

  /** Sends a PLI for the video track now, unless one went out in the last few hundred ms. */
  requestKeyframe(): boolean {
    const now = performance.now();
    if (!this.videoReceiver || now - this.lastKeyframeRequest < MIN_KEYFRAME_REQUEST_GAP_MS) {
      return this.videoReceiver !== undefined;
    }
    this.lastKeyframeRequest = now;
    this.stats.keyframeRequests++;
    this.videoReceiver.receiver.sendRtcpPLI(this.videoReceiver.ssrc).catch(() => undefined);
    return true;
  }

  /** Ends the session (idempotent): closes the peer and releases the stream. */
  close(reason: string): void {
    if (this.ended) {
      return;
    }
    this.ended = reason;
    for (const timer of this.timers) {
      clearInterval(timer);
    }
    this.peer.close();
    this.aac?.close();
    this.publisher.close(reason);
    this.log.info({ sessionId: this.id, reason, ...this.stats }, 'WHIP session ended');
    this.onEnded(this, reason);
  }

  private onConnected(): void {
    if (this.ended) {
      return;
    }
    this.log.info({ sessionId: this.id, media: this.offer.media.map((m) => m.kind) }, 'WHIP session connected');
    this.lastPacketAt = performance.now();
    const mediaTimeout = this.options.mediaTimeoutMs ?? 10_000;
    const watchdog = setInterval(() => {
      if (performance.now() - this.lastPacketAt > mediaTimeout) {
        this.close(`no media for ${Math.round(mediaTimeout / 1000)} s`);
      }
    }, 1000);
    watchdog.unref();
    this.timers.push(watchdog);
    const interval = this.options.keyframeIntervalMs ?? 2000;
    if (interval > 0) {
      const keyframes = setInterval(() => this.requestKeyframe(), interval);
      keyframes.unref();
      this.timers.push(keyframes);
    }
  }

  private onTrack(track: MediaStreamTrack): void {
    const receiver = this.peer.pc.getReceivers().find((r) => r.tracks.includes(track));
    const reorder =
      track.kind === 'video'
        ? new ReorderBuffer<RtpPacket>(VIDEO_REORDER_MAX_HELD, VIDEO_REORDER_MAX_WAIT_MS)
        : new ReorderBuffer<RtpPacket>();
    const deliver = track.kind === 'video' ? this.videoHandler(track, receiver) : this.audioHandler();
    const release = () => {
      if (this.ended) {
        return;
      }
      for (const event of reorder.poll(performance.now())) {
        deliver(event);
      }
    };
    // Timers run before I/O in an event-loop turn: the check waits for the turn's reads, so what
    // arrived while the process was busy fills its gap before the gap is given up.
    const poll = setInterval(() => setImmediate(release), 20);
    poll.unref();
    this.timers.push(poll);
    track.onReceiveRtp.subscribe((rtp) => {
      if (this.ended) {
        return;
      }
      this.stats.packets++;
      this.lastPacketAt = performance.now();
      for (const event of reorder.push(rtp.header.sequenceNumber, rtp, this.lastPacketAt)) {
        deliver(event);
      }
    });
  }

  private videoHandler(
    track: MediaStreamTrack,
    receiver: RTCRtpReceiver | undefined,
  ): (event: { kind: 'packet'; packet: RtpPacket } | { kind: 'lost'; count: number }) => void {
    const codec = track.codec?.mimeType.toLowerCase();
    if (codec !== 'video/h264' && codec !== 'video/av1' && codec !== 'video/vp9') {
      this.close(`video codec ${codec ?? 'unknown'} is not accepted (H.264, AV1 or VP9)`);
      return () => undefined;
    }
    if (receiver && track.ssrc !== undefined) {
      this.videoReceiver = { receiver, ssrc: track.ssrc };
    }
    const depacketizer =
      codec === 'video/av1'
        ? new Av1Depacketizer()
        : codec === 'video/vp9'
          ? new Vp9Depacketizer()
          : new H264Depacketizer();
    this.requestKeyframe();
    return (event) => {
      if (event.kind === 'lost') {
        depacketizer.lost();
        this.requestKeyframe();
        return;
      }
      const { header, payload } = event.packet;
      try {
        if (depacketizer instanceof Av1Depacketizer) {
          for (const unit of depacketizer.push(payload, header.timestamp, header.marker)) {
            this.toStream.onAv1(unit);
          }
        } else if (depacketizer instanceof Vp9Depacketizer) {
          for (const unit of depacketizer.push(payload, header.timestamp, header.marker)) {
            this.toStream.onVp9(unit);
          }
        } else {
          for (const unit of depacketizer.push(payload, header.timestamp, header.marker)) {
            this.toStream.onH264(unit);
          }
        }
      } catch (error) {
        this.badPacket(error);
      }
      if (depacketizer.waitingForKeyframe) {
        this.requestKeyframe();
      }
    };
  }

  private audioHandler(): (event: { kind: 'packet'; packet: RtpPacket } | { kind: 'lost'; count: number }) => void {
    return (event) => {
      if (event.kind === 'packet') {
        try {
          const time = this.toStream.onAudio(event.packet.payload, event.packet.header.timestamp);
          if (time !== undefined) {
            this.aac?.write(event.packet.payload, time);
          }
        } catch (error) {
          this.badPacket(error);
        }
      }
    };
  }

  private badPacket(error: unknown): void {
    this.stats.badPackets++;
    if (this.stats.badPackets % 100 === 1) {
      this.log.warn(
        { sessionId: this.id, err: (error as Error).message, badPackets: this.stats.badPackets },
        'WHIP packet dropped',
      );
    }
  }
}
