/**
 * One RTSP session's tracks on one timeline (RFC 3550 §5.1 timestamps, §6.4.1 sender reports;
 * RFC 2326 §12.33 RTP-Info). A track's 32-bit RTP timestamps are extended across wraps and
 * scaled from the RTP clock to the track's timescale. Where the tracks start: from PLAY's
 * RTP-Info when it gives every track's `rtptime` (they all name the same instant), else from each
 * track's first packet arrival. Once every track has a sender report, the tracks are lined up by
 * their wall clocks (and again whenever they drift apart by more than `SR_TOLERANCE_MS`).
 */
import { TimestampUnwrapper } from '../../shared/rtp/rtp-clock.js';
import type { SenderReport } from '../../shared/rtp/rtp-packet.js';

/** Sender-report misalignment corrected, in milliseconds. */
export const SR_TOLERANCE_MS = 20;

const SPAN = 2 ** 32;

/** The signed distance from 32-bit `from` to 32-bit `to`. */
function delta32(from: number, to: number): number {
  const d = (to - from) >>> 0;
  return d >= SPAN / 2 ? d - SPAN : d;
}

class TrackTimeline {
  readonly unwrapper = new TimestampUnwrapper();
  /** The latest extended timestamp seen. */
  last: number | undefined;
  /** An extended RTP timestamp and its time in milliseconds on the session timeline. */
  origin: { rtp: number; ms: number } | undefined;
  report: SenderReport | undefined;

  constructor(
    readonly rate: number,
    readonly timescale: number,
  ) {}

  /** Milliseconds of an extended timestamp (origin set). */
  ms(extended: number): number {
    const origin = this.origin as { rtp: number; ms: number };
    return origin.ms + ((extended - origin.rtp) * 1000) / this.rate;
  }

  /** The extended value of a 32-bit timestamp near the latest one, without moving the unwrapper. */
  near(timestamp: number): number {
    const last = this.last ?? 0;
    return last + delta32(last >>> 0, timestamp);
  }
}

/** Maps every track's RTP timestamps onto one timeline. */
export class RtpTimeline {
  private readonly tracks: TrackTimeline[];
  private startRtp: (number | undefined)[] = [];
  private sessionStartMs: number | undefined;

  /** `tracks` gives each track's RTP clock rate and timescale, the reference track first. */
  constructor(
    tracks: readonly { rate: number; timescale: number }[],
    private readonly now: () => number,
    private readonly onAligned: (track: number, correctionMs: number) => void = () => undefined,
  ) {
    this.tracks = tracks.map((track) => new TrackTimeline(track.rate, track.timescale));
  }

  /** PLAY's RTP-Info: the timestamp of the range start, per track (undefined where not given). */
  rtpInfo(rtptimes: readonly (number | undefined)[]): void {
    if (rtptimes.length === this.tracks.length && rtptimes.every((time) => time !== undefined)) {
      this.startRtp = [...rtptimes];
    }
  }

  /** The time of a packet's timestamp in the track's timescale (may be negative before the start). */
  time(track: number, timestamp: number): number {
    const state = this.tracks[track] as TrackTimeline;
    if (!state.origin) {
      this.sessionStartMs ??= this.now();
      const start = this.startRtp[track];
      if (start !== undefined) {
        const first = state.unwrapper.unwrap(start);
        state.origin = { rtp: first, ms: this.sessionStartMs };
      } else {
        state.origin = { rtp: state.unwrapper.unwrap(timestamp), ms: this.now() };
      }
    }
    const extended = state.unwrapper.unwrap(timestamp);
    state.last = Math.max(state.last ?? extended, extended);
    return Math.round((state.ms(extended) * state.timescale) / 1000);
  }

  /** A sender report of a track: lines the tracks up by wall clock once all have one. */
  senderReport(track: number, report: SenderReport): void {
    const state = this.tracks[track];
    if (!state) {
      return;
    }
    state.report = report;
    const reference = this.tracks[0] as TrackTimeline;
    if (!reference.report || !reference.origin) {
      return;
    }
    const referenceReport = reference.report;
    this.tracks.forEach((other, index) => {
      if (index === 0 || !other.report || !other.origin) {
        return;
      }
      const want = other.report.ntpMs - referenceReport.ntpMs;
      const have =
        other.ms(other.near(other.report.rtpTimestamp)) - reference.ms(reference.near(referenceReport.rtpTimestamp));
      const correction = want - have;
      if (Math.abs(correction) > SR_TOLERANCE_MS) {
        other.origin = { rtp: other.origin.rtp, ms: other.origin.ms + correction };
        this.onAligned(index, correction);
      }
    });
  }
}
