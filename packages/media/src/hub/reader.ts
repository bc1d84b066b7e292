/**
 * A reader of a live stream with a bounded queue. The publisher never waits: when the queue
 * is full the reader drops everything queued, counts it, and resumes at the next video keyframe.
 */
import type { MediaUnit } from '../stream/media-unit.js';

/** Limits of one reader's queue. */
export interface ReaderLimits {
  /** Most units held at once (default 1024). */
  readonly maxUnits?: number;
  /** Most payload bytes held at once (default 8 MiB). */
  readonly maxBytes?: number;
}

/** How a reader is opened: its queue bounds, and whether it makes the stream count as watched. */
export interface ReaderOptions extends ReaderLimits {
  /**
   * Whether someone waits on this reader's units (default true). A reader that tolerates ingest
   * batching its reads of the publisher (a push to another platform, seconds behind anyway) says
   * false, so it does not make an unwatched stream read per packet.
   */
  readonly watches?: boolean;
}

/** Counters a reader exposes for metrics and tests. */
export interface ReaderStats {
  delivered: number;
  dropped: number;
  dropEvents: number;
}

/** A queued reader: consume with `next()` or `for await`. */
export class QueuedReader implements AsyncIterable<MediaUnit> {
  readonly stats: ReaderStats = { delivered: 0, dropped: 0, dropEvents: 0 };
  private readonly queue: MediaUnit[] = [];
  private head = 0;
  private queuedBytes = 0;
  private waitingForKey = false;
  private closed = false;
  private wake: (() => void) | undefined;
  private readonly maxUnits: number;
  private readonly maxBytes: number;

  /** `isResumePoint` tells which unit a reader may resume at after a drop (a video keyframe, or any unit without video). */
  constructor(
    limits: ReaderLimits,
    private readonly isResumePoint: (unit: MediaUnit) => boolean,
    private readonly onClose: (reader: QueuedReader) => void,
  ) {
    this.maxUnits = limits.maxUnits ?? 1024;
    this.maxBytes = limits.maxBytes ?? 8 * 1024 * 1024;
  }

  /** Units waiting to be read. */
  get length(): number {
    return this.queue.length - this.head;
  }

  /** Called by the stream for every unit; never blocks. */
  offer(unit: MediaUnit): void {
    if (this.closed) {
      return;
    }
    if (this.waitingForKey) {
      if (!this.isResumePoint(unit)) {
        this.stats.dropped++;
        return;
      }
      this.waitingForKey = false;
    }
    if (this.length + 1 > this.maxUnits || this.queuedBytes + unit.data.byteLength > this.maxBytes) {
      this.stats.dropped += this.length + 1;
      this.stats.dropEvents++;
      this.queue.length = 0;
      this.head = 0;
      this.queuedBytes = 0;
      this.waitingForKey = true;
      if (this.isResumePoint(unit)) {
        this.waitingForKey = false;
        this.push(unit);
      }
      return;
    }
    this.push(unit);
  }

  /** Resolves with the next unit, or null once the reader or its stream is closed. */
  async next(): Promise<MediaUnit | null> {
    for (;;) {
      const unit = this.shift();
      if (unit) {
        return unit;
      }
      if (this.closed) {
        return null;
      }
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }

  /** Takes the next unit if one is queued, without waiting. */
  shift(): MediaUnit | undefined {
    if (this.head >= this.queue.length) {
      return undefined;
    }
    const unit = this.queue[this.head++] as MediaUnit;
    this.queuedBytes -= unit.data.byteLength;
    if (this.head > 256 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
    this.stats.delivered++;
    return unit;
  }

  /**
   * The stream ended: accept nothing more, but let the consumer drain what is queued before
   * `next()` resolves with null.
   */
  finish(): void {
    if (this.closed) {
      return;
    }
    this.closed = true;
    this.onClose(this);
    this.notify();
  }

  /** Stops the reader and discards what is queued; pending `next()` calls resolve with null. */
  close(): void {
    if (this.closed) {
      return;
    }
    this.closed = true;
    this.queue.length = 0;
    this.head = 0;
    this.queuedBytes = 0;
    this.onClose(this);
    this.notify();
  }

  /** True once closed. */
  get isClosed(): boolean {
    return this.closed;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<MediaUnit> {
    for (;;) {
      const unit = await this.next();
      if (!unit) {
        return;
      }
      yield unit;
    }
  }

  private push(unit: MediaUnit): void {
    this.queue.push(unit);
    this.queuedBytes += unit.data.byteLength;
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
