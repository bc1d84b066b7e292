/**
 * What every video depacketizer shares (RFC 3550 §5.1: one frame per RTP timestamp, the marker
 * bit on its last packet): grouping payloads into one unit per timestamp, dropping a unit that lost
 * a packet or held a malformed one, and skipping units until the next key frame after a loss.
 * A codec's depacketizer parses payloads and says what a finished unit is.
 */

/** Counters of one depacketizer. */
export interface DepacketizerStats {
  units: number;
  /** Units dropped because a packet was lost or malformed. */
  corrupted: number;
  /** Units skipped while waiting for a key frame after a loss. */
  skipped: number;
}

/** Largest unit reassembled (a 4K intra frame fits; a flood does not). */
export const MAX_ACCESS_UNIT_BYTES = 8 * 1024 * 1024;

/** A unit a depacketizer emits. */
export interface AssembledUnit {
  /** RTP timestamp (90 kHz) of its packets. */
  readonly timestamp: number;
  readonly key: boolean;
}

/** Groups one RTP stream's payloads (given in sequence order) into units. */
export abstract class FrameAssembler<U extends AssembledUnit> {
  readonly stats: DepacketizerStats = { units: 0, corrupted: 0, skipped: 0 };
  /** Set by a subclass when what it holds cannot be decoded. */
  protected broken = false;
  private timestamp: number | undefined;
  private needKey = true;

  /** True while units are dropped until the next key frame (a keyframe request is due). */
  get waitingForKeyframe(): boolean {
    return this.needKey;
  }

  /**
   * Adds one RTP payload; returns the units it completed (usually zero or one). Throws
   * ParseError/UnsupportedError for a malformed payload after marking its unit corrupted.
   */
  push(payload: Uint8Array, timestamp: number, marker: boolean): U[] {
    const out: U[] = [];
    if (payload.length === 0) {
      // Padding-only packets (bandwidth probes) carry no media.
      return out;
    }
    if (this.timestamp !== undefined && timestamp !== this.timestamp) {
      this.finish(out);
    }
    this.timestamp = timestamp;
    try {
      this.parse(payload);
    } catch (error) {
      this.broken = true;
      this.abandon();
      if (marker) {
        this.finish(out);
      }
      throw error;
    }
    if (marker) {
      this.finish(out);
    }
    return out;
  }

  /** Packets were lost: the unit in progress cannot be decoded. */
  lost(): void {
    if (this.timestamp !== undefined) {
      this.broken = true;
    }
    this.abandon();
    this.needKey = true;
  }

  /** Parses one payload into the unit being built. */
  protected abstract parse(payload: Uint8Array): void;

  /** Drops a partly received piece (a fragment) of the unit being built. */
  protected abstract abandon(): void;

  /** Hands over the unit built so far and starts a new one; undefined when there is none (or it is broken). */
  protected abstract take(timestamp: number): U | undefined;

  private finish(out: U[]): void {
    const timestamp = this.timestamp;
    this.timestamp = undefined;
    if (timestamp === undefined) {
      return;
    }
    const unit = this.take(timestamp);
    const broken = this.broken;
    this.broken = false;
    if (broken) {
      this.stats.corrupted++;
      this.needKey = true;
      return;
    }
    if (!unit) {
      return;
    }
    if (this.needKey && !unit.key) {
      this.stats.skipped++;
      return;
    }
    this.needKey = false;
    this.stats.units++;
    out.push(unit);
  }
}
