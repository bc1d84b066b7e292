/**
 * GOP-aligned clip ranges (frameworks.md §1.8): a requested time range is resolved against a
 * recording's leading-track segments (each starts with a keyframe) — the start snaps to the
 * segment starting at or before it, the end to the end of the segment holding it. Modes:
 * ABSOLUTE (startUnix, stopUnix), RELATIVE (startMedia, stopMedia: seconds from the recording's
 * first frame), DURATION (a start of either kind plus `duration`), CLIP_NOW (the last `duration`
 * seconds). A time outside what was recorded is a ValidationError naming its field.
 */
import { ValidationError } from '../errors.js';
import type { IndexedSegment } from '../recordings/segment-index.js';

/** How a clip's range is given. */
export type ClipMode = 'ABSOLUTE' | 'RELATIVE' | 'DURATION' | 'CLIP_NOW';

/** The time fields of createClip's input (seconds). */
export interface ClipTimes {
  readonly mode?: ClipMode | null;
  readonly startUnix?: number | null;
  readonly stopUnix?: number | null;
  readonly startMedia?: number | null;
  readonly stopMedia?: number | null;
  readonly duration?: number | null;
}

/** A range on one timeline: `wall` (epoch ms) or `media` (ms from the recording's first frame). */
export interface RequestedRange {
  readonly timeline: 'wall' | 'media';
  readonly start: number;
  readonly end: number;
  /** Input fields that gave the start and the end (named by errors). */
  readonly startField: string;
  readonly endField: string;
}

const endMs = (segment: IndexedSegment, timeline: 'wall' | 'media') =>
  (timeline === 'wall' ? segment.wallMs : segment.offsetMs) + (segment.duration * 1000) / segment.timescale;
const startMs = (segment: IndexedSegment, timeline: 'wall' | 'media') =>
  timeline === 'wall' ? segment.wallMs : segment.offsetMs;

function need(value: number | null | undefined, field: string): number {
  if (value === null || value === undefined) {
    throw new ValidationError(field, 'required', `${field} is required in this mode`);
  }
  if (!Number.isFinite(value) || value < 0) {
    throw new ValidationError(field, 'range', `${field} must be a number of seconds, 0 or more`);
  }
  return value;
}

/** The range the input asks for; `liveEdgeMs` is the wall-clock end of what is recorded (CLIP_NOW). */
export function requestedRange(times: ClipTimes, liveEdgeMs: number): RequestedRange {
  const mode = times.mode ?? 'ABSOLUTE';
  const field = 'input';
  let range: RequestedRange;
  if (mode === 'ABSOLUTE') {
    range = {
      timeline: 'wall',
      start: need(times.startUnix, `${field}.startUnix`) * 1000,
      end: need(times.stopUnix, `${field}.stopUnix`) * 1000,
      startField: `${field}.startUnix`,
      endField: `${field}.stopUnix`,
    };
  } else if (mode === 'RELATIVE') {
    range = {
      timeline: 'media',
      start: need(times.startMedia, `${field}.startMedia`) * 1000,
      end: need(times.stopMedia, `${field}.stopMedia`) * 1000,
      startField: `${field}.startMedia`,
      endField: `${field}.stopMedia`,
    };
  } else if (mode === 'DURATION') {
    const duration = need(times.duration, `${field}.duration`) * 1000;
    const wall = times.startUnix !== null && times.startUnix !== undefined;
    const startField = wall ? `${field}.startUnix` : `${field}.startMedia`;
    const start = need(wall ? times.startUnix : times.startMedia, startField) * 1000;
    range = {
      timeline: wall ? 'wall' : 'media',
      start,
      end: start + duration,
      startField,
      endField: `${field}.duration`,
    };
  } else {
    const duration = need(times.duration, `${field}.duration`) * 1000;
    range = {
      timeline: 'wall',
      start: liveEdgeMs - duration,
      end: liveEdgeMs,
      startField: `${field}.duration`,
      endField: `${field}.duration`,
    };
  }
  if (!(range.end > range.start)) {
    throw new ValidationError(range.endField, 'range', `${range.endField} must end after the clip's start`);
  }
  return range;
}

/** The leading-track segments a range snaps to (GOP-aligned), or a ValidationError naming the field outside the recording. */
export function snapRange(segments: readonly IndexedSegment[], range: RequestedRange): IndexedSegment[] {
  const { timeline } = range;
  const first = segments[0];
  const last = segments[segments.length - 1];
  const tolerance = 1;
  if (!first || !last || range.start < startMs(first, timeline) - tolerance || range.start >= endMs(last, timeline)) {
    throw new ValidationError(range.startField, 'recorded', `${range.startField} is outside the recorded range`);
  }
  if (range.end > endMs(last, timeline) + tolerance) {
    throw new ValidationError(range.endField, 'recorded', `${range.endField} is past what has been recorded`);
  }
  let from = 0;
  for (let i = 0; i < segments.length; i++) {
    if (startMs(segments[i] as IndexedSegment, timeline) <= range.start + tolerance) {
      from = i;
    }
  }
  let to = from;
  while (to < segments.length - 1 && endMs(segments[to] as IndexedSegment, timeline) < range.end - tolerance) {
    to++;
  }
  return segments.slice(from, to + 1);
}
