/**
 * Decode times for video that arrives with presentation times only (RTP, RFC 3550 §5.1: the
 * timestamp is the sampling instant; RFC 6184 §5.1 and RFC 7798 §4.1 send H.264/H.265 in decode
 * order). With a reorder depth D (H.264 max_num_reorder_frames, ITU-T H.264 §E.2.1; H.265
 * sps_max_num_reorder_pics, ITU-T H.265 §7.4.3.2.1) no frame is followed in output order by more
 * than D frames that precede it in decode order, so the smallest of the last D + 1 presentation
 * times is a decode time that never goes back and never passes the frame's own presentation time.
 * Nothing is held back: each frame leaves with its decode time as it arrives (see ADR 0072).
 */
import { UnsupportedError } from '../../../errors.js';

/** Largest reorder depth: an H.264 or H.265 decoded picture buffer holds at most 16 frames. */
export const MAX_REORDER_DEPTH = 16;

/** Told, with the reason, when frames start being dropped or the stream raises the reorder depth. */
export type DecodeTimesListener = (reason: string, depth: number) => void;

/** Gives each frame of one video track, in decode order, a decode time from presentation times. */
export class DecodeTimes {
  /** Presentation times not yet used as a decode time, ascending. */
  private readonly pending: number[] = [];
  /** The latest presentation times in decode order (for measuring how deep a frame steps back). */
  private readonly recent: number[] = [];
  private depth: number;
  private lastDts = -1;
  /** The presentation time of the frame the window (re)started from. */
  private startPts: number | undefined;
  /** After a frame that stepped back too far: frames are dropped until the next key frame. */
  private waiting = false;

  /**
   * `declared` is the depth the parameter sets give (undefined when they give none: it is then
   * learnt from the stream); `frameTicks` a frame's duration, to start the decode times below the
   * first presentation time.
   */
  constructor(
    declared: number | undefined,
    private readonly frameTicks: number,
    private readonly onChange: DecodeTimesListener = () => undefined,
  ) {
    this.depth = Math.min(declared ?? 0, MAX_REORDER_DEPTH);
  }

  /** The reorder depth in use. */
  get reorderDepth(): number {
    return this.depth;
  }

  /** New parameter sets: a larger declared depth is taken up (the window grows over the next frames). */
  declare(declared: number | undefined): void {
    if (declared !== undefined && declared > this.depth) {
      this.depth = Math.min(declared, MAX_REORDER_DEPTH);
    }
  }

  /**
   * The decode time of the next frame in decode order, or undefined when the frame is dropped.
   * Throws UnsupportedError when the times step back further than any decoder reorders.
   */
  next(pts: number, key: boolean): number | undefined {
    const deeper = this.remember(pts);
    if (deeper > MAX_REORDER_DEPTH) {
      throw new UnsupportedError(
        `video presentation times step back ${deeper} frames, more than any decoder reorders (${MAX_REORDER_DEPTH})`,
      );
    }
    if (this.waiting) {
      this.learn(deeper);
      if (!key) {
        return undefined;
      }
      this.waiting = false;
      this.pending.length = 0;
      this.startPts = undefined;
    }
    this.startPts ??= pts;
    if (pts < this.startPts) {
      // A leading picture of the key frame the window started from: undecodable from here.
      return undefined;
    }
    const head = Math.min(this.pending[0] ?? pts, pts);
    if (this.pending.length + 1 > this.depth) {
      if (pts <= this.lastDts) {
        // Deeper than the depth in use (or a repeated time): this frame has no valid decode time.
        this.waiting = true;
        if (!this.learn(deeper)) {
          this.onChange(
            `a frame presents at ${pts}, not after decode time ${this.lastDts}: dropped until the next key frame`,
            this.depth,
          );
        }
        return undefined;
      }
      if (head !== pts) {
        this.pending.shift();
        this.insert(pts);
      }
      // Above the last decode time even where the timeline was moved back (`moved`).
      this.lastDts = Math.max(head, this.lastDts + 1);
      return this.lastDts;
    }
    // The window is still filling: decode times are laid below the first presentation time.
    const laid = this.startPts - (this.depth - this.pending.length) * this.frameTicks;
    const dts = Math.max(laid, this.lastDts + 1, 0);
    if (dts >= head) {
      // No room below the window's first presentation time (it starts at 0): wait for a key frame.
      this.waiting = true;
      return undefined;
    }
    this.insert(pts);
    this.lastDts = dts;
    return dts;
  }

  /**
   * The track's timeline moved by `ticks` (sender reports lined it up): times still pending or
   * remembered move with it, so the frames that follow are measured on the same timeline.
   */
  moved(ticks: number): void {
    for (const times of [this.pending, this.recent]) {
      for (let i = 0; i < times.length; i++) {
        times[i] = (times[i] as number) + ticks;
      }
    }
    if (this.startPts !== undefined) {
      this.startPts += ticks;
    }
  }

  /** Notes a presentation time; returns how many of the latest frames present after it. */
  private remember(pts: number): number {
    let deeper = 0;
    for (const earlier of this.recent) {
      if (earlier > pts) {
        deeper++;
      }
    }
    this.recent.push(pts);
    if (this.recent.length > MAX_REORDER_DEPTH + 1) {
      this.recent.shift();
    }
    return deeper;
  }

  /** Raises the depth to `deeper` (telling why); returns whether it did. */
  private learn(deeper: number): boolean {
    if (deeper <= this.depth) {
      return false;
    }
    const before = this.depth;
    this.depth = deeper;
    this.onChange(
      `a frame presents before ${deeper} frames decoded ahead of it, deeper than the reorder depth in use (${before}): reorder depth ${deeper} from here, video dropped until the next key frame`,
      deeper,
    );
    return true;
  }

  private insert(pts: number): void {
    let at = this.pending.length;
    while (at > 0 && (this.pending[at - 1] as number) > pts) {
      at--;
    }
    this.pending.splice(at, 0, pts);
  }
}
