/**
 * Counts one received RTP stream from its headers alone (RFC 3550 §5.1; SRTP, RFC 3711 §3.1,
 * leaves the header in clear): packets, packets lost (gaps in the sequence numbers), packets late
 * or duplicated, and frames — the packets of one RTP timestamp, closed by the marker bit (video,
 * RFC 6184 §5.1) or by the next timestamp (audio) — whole or damaged (a gap touched them). A frame
 * lost with all its packets shows as a gap that damages its neighbours, and as a count short of
 * the expected one.
 */

/** Counters of one stream (cumulative; subtract two snapshots for a window). */
export interface RtpStreamCounters {
  packets: number;
  lost: number;
  /** Packets with a sequence number at or behind the newest one (reordered or duplicated). */
  late: number;
  /** Frames whose every packet arrived (sequence numbers contiguous from the previous frame). */
  wholeFrames: number;
  /** Frames next to a gap in the sequence numbers. */
  damagedFrames: number;
  /** The highest sequence number received, extended with its wrap count (RFC 3550 §A.1). */
  highestSequence: number;
}

/** Counts one stream (one SSRC); feed it every packet's sequence number, timestamp and marker bit. */
export class RtpStreamCount {
  readonly counters: RtpStreamCounters = {
    packets: 0,
    lost: 0,
    late: 0,
    wholeFrames: 0,
    damagedFrames: 0,
    highestSequence: -1,
  };
  private lastSequence = -1;
  private cycles = 0;
  private frameOpen = false;
  private frameTimestamp = 0;
  private frameDamaged = false;

  /** One packet as received. */
  add(sequence: number, timestamp: number, marker: boolean): void {
    const c = this.counters;
    c.packets++;
    if (this.lastSequence >= 0) {
      const step = (sequence - this.lastSequence) & 0xffff;
      if (step === 0 || step >= 0x8000) {
        c.late++;
        return;
      }
      if (sequence < this.lastSequence) {
        this.cycles += 0x10000;
      }
      if (step > 1) {
        c.lost += step - 1;
        // The missing packets ended the open frame or began this one, or both: neither is whole.
        this.frameDamaged = true;
        if (!this.frameOpen || timestamp !== this.frameTimestamp) {
          this.closeFrame();
          this.openFrame(timestamp, true);
        }
      }
    }
    this.lastSequence = sequence;
    c.highestSequence = this.cycles + sequence;
    if (this.frameOpen && timestamp !== this.frameTimestamp) {
      this.closeFrame();
    }
    if (!this.frameOpen) {
      this.openFrame(timestamp, false);
    }
    if (marker) {
      this.closeFrame();
    }
  }

  /** A copy of the counters now. */
  snapshot(): RtpStreamCounters {
    return { ...this.counters };
  }

  private openFrame(timestamp: number, damaged: boolean): void {
    this.frameOpen = true;
    this.frameTimestamp = timestamp;
    this.frameDamaged = damaged;
  }

  private closeFrame(): void {
    if (!this.frameOpen) {
      return;
    }
    this.frameOpen = false;
    if (this.frameDamaged) {
      this.counters.damagedFrames++;
    } else {
      this.counters.wholeFrames++;
    }
  }
}

/** `after − before` of each counter (`highestSequence`: the later one). */
export function countersBetween(before: RtpStreamCounters, after: RtpStreamCounters): RtpStreamCounters {
  return {
    packets: after.packets - before.packets,
    lost: after.lost - before.lost,
    late: after.late - before.late,
    wholeFrames: after.wholeFrames - before.wholeFrames,
    damagedFrames: after.damagedFrames - before.damagedFrames,
    highestSequence: after.highestSequence,
  };
}
