/**
 * A bounded, keyframe-aligned history of a live stream: whole GOPs of units (with their arrival
 * times) plus the description changes and publisher drops between them, so a packager created
 * later can be primed into the state an always-on packager would have. Bounded by media seconds
 * and GOPs (kept at least) and by bytes (never exceeded; a single GOP above it is dropped).
 */
import type { MediaUnit } from '../stream/media-unit.js';
import type { StreamDescription } from '../stream/track.js';

/** How much history a stream keeps. */
export interface HistoryLimits {
  /** Media seconds kept at least (on the video track, else the stream's only timeline). */
  readonly seconds: number;
  /** Whole GOPs kept at least. */
  readonly gops: number;
  /** Most payload bytes held; oldest GOPs go first, a single larger GOP is dropped whole. */
  readonly maxBytes: number;
}

/** Default byte bound of a stream's history. */
export const HISTORY_MAX_BYTES = 64 * 1024 * 1024;

/** Something that happened between units: a new description or a publisher drop. */
type Mark = { readonly description: StreamDescription } | { readonly interrupted: true };

/** What a replay drives: the callbacks of a synchronous stream reader. */
export interface HistorySink {
  onDescription?(description: StreamDescription): void;
  onUnit(unit: MediaUnit): void;
  onInterrupted?(): void;
}

/** Recent units of one stream, oldest GOP first. */
export class UnitHistory {
  private entries: (MediaUnit | Mark)[] = [];
  private arrivals: number[] = [];
  private gopStarts: number[] = [];
  private gopSeconds: number[] = [];
  private bytes = 0;
  private latestSeconds = 0;
  /** The description in force at the first entry. */
  private base: StreamDescription | undefined;
  private current: StreamDescription | undefined;

  constructor(private limits: HistoryLimits) {}

  /** Raises the limits to cover `limits` too (every field the larger of both). */
  widen(limits: HistoryLimits): void {
    this.limits = {
      seconds: Math.max(this.limits.seconds, limits.seconds),
      gops: Math.max(this.limits.gops, limits.gops),
      maxBytes: Math.max(this.limits.maxBytes, limits.maxBytes),
    };
  }

  /** Payload bytes held. */
  get byteLength(): number {
    return this.bytes;
  }

  /** Whole GOPs held. */
  get gopCount(): number {
    return this.gopStarts.length;
  }

  /** Records a description change. */
  describe(description: StreamDescription, at: number): void {
    this.current = description;
    if (this.entries.length === 0) {
      this.base = description;
      return;
    }
    this.entries.push({ description });
    this.arrivals.push(at);
  }

  /** Records a publisher drop. */
  interrupt(at: number): void {
    if (this.entries.length > 0) {
      this.entries.push({ interrupted: true });
      this.arrivals.push(at);
    }
  }

  /**
   * Records a unit. `gopStart` marks a GOP's first unit (a video keyframe, or any unit without
   * video); `seconds` is the unit's time on the timeline track, undefined for other tracks.
   * Units before the first GOP start are not kept.
   */
  push(unit: MediaUnit, gopStart: boolean, seconds: number | undefined, at: number): void {
    if (gopStart) {
      this.gopStarts.push(this.entries.length);
      this.gopSeconds.push(seconds ?? this.latestSeconds);
    } else if (this.gopStarts.length === 0) {
      return;
    }
    this.entries.push(unit);
    this.arrivals.push(at);
    this.bytes += unit.data.byteLength;
    if (seconds !== undefined) {
      this.latestSeconds = seconds;
    }
    // Only a new GOP, more time held or going over the byte bound can make the oldest GOP evictable.
    if (gopStart || seconds !== undefined || this.bytes > this.limits.maxBytes) {
      this.evict();
    }
  }

  /** Replays the history into `sink`: the description first, then every unit and mark in order. */
  replay(sink: HistorySink, pin: (at: number | undefined) => void): void {
    const first = this.base ?? this.current;
    if (first) {
      pin(this.arrivals[0]);
      sink.onDescription?.(first);
    }
    for (let i = 0; i < this.entries.length; i++) {
      pin(this.arrivals[i]);
      const entry = this.entries[i] as MediaUnit | Mark;
      if ('description' in entry) {
        sink.onDescription?.(entry.description);
      } else if ('interrupted' in entry) {
        sink.onInterrupted?.();
      } else {
        sink.onUnit(entry);
      }
    }
    pin(undefined);
  }

  /** Drops everything (the description in force is kept for the next replay). */
  clear(): void {
    this.dropFirst(this.entries.length);
    this.gopStarts = [];
    this.gopSeconds = [];
  }

  private evict(): void {
    while (this.gopStarts.length >= 2) {
      const overBytes = this.bytes > this.limits.maxBytes;
      const enoughWithout =
        this.gopStarts.length - 1 >= this.limits.gops &&
        this.latestSeconds - (this.gopSeconds[1] as number) >= this.limits.seconds;
      if (!overBytes && !enoughWithout) {
        return;
      }
      const cut = this.gopStarts[1] as number;
      this.dropFirst(cut);
      this.gopStarts.shift();
      this.gopSeconds.shift();
      for (let i = 0; i < this.gopStarts.length; i++) {
        this.gopStarts[i] = (this.gopStarts[i] as number) - cut;
      }
    }
    if (this.bytes > this.limits.maxBytes) {
      this.clear();
    }
  }

  private dropFirst(count: number): void {
    for (let i = 0; i < count; i++) {
      const entry = this.entries[i] as MediaUnit | Mark;
      if ('description' in entry) {
        this.base = entry.description;
      } else if (!('interrupted' in entry)) {
        this.bytes -= entry.data.byteLength;
      }
    }
    this.entries.splice(0, count);
    this.arrivals.splice(0, count);
    if (this.entries.length === 0) {
      this.base = this.current;
    }
  }
}
