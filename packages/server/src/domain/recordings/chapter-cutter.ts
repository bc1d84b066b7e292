/**
 * Cuts a recording into chapters on segment boundaries of its leading track: a chapter closes
 * once it holds `intervalMs` of media (long streams; FIXED_INTERVAL) and at the end of the
 * recording. Works on media time, so a recording made faster than real time chapters the same.
 */
import type { IndexedSegment } from './segment-index.js';

/** A closed chapter: its leading-track segments, in order. */
export type ChapterRange = readonly IndexedSegment[];

/** Follows the leading track's segments and says when a chapter closes. */
export class ChapterCutter {
  private open: IndexedSegment[] = [];

  /** `intervalMs` 0 or less: one chapter per recording. */
  constructor(private readonly intervalMs: number) {}

  /** Adds a segment; returns the chapter it closes, if any. */
  add(segment: IndexedSegment): ChapterRange | undefined {
    this.open.push(segment);
    const first = this.open[0] as IndexedSegment;
    const endMs = segment.offsetMs + (segment.duration * 1000) / segment.timescale;
    if (this.intervalMs > 0 && endMs - first.offsetMs >= this.intervalMs - 1) {
      return this.close();
    }
    return undefined;
  }

  /** Closes what is open (the recording ended); undefined when nothing is. */
  close(): ChapterRange | undefined {
    if (this.open.length === 0) {
      return undefined;
    }
    const chapter = this.open;
    this.open = [];
    return chapter;
  }
}

/** Media duration of a run of segments of one track, ms. */
export function rangeDurationMs(segments: readonly IndexedSegment[]): number {
  let ticks = 0;
  for (const segment of segments) {
    ticks += (segment.duration * 1000) / segment.timescale;
  }
  return Math.round(ticks);
}
