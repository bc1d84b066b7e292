/**
 * Live MPEG-TS segmenter for classic HLS (RFC 8216 section 3.2 and 6.2.2): cuts the stream into
 * segments that start at video keyframes, each beginning with PAT/PMT, keeps a bounded window
 * and measures what the multivariant playlist advertises (bandwidth, frame rate, GOP length).
 */
import { TsMuxer } from '../../../formats/mpegts/ts-muxer.js';
import type { StreamSink } from '../../../hub/live-stream.js';
import type { MediaUnit } from '../../../stream/media-unit.js';
import type { StreamDescription, Track } from '../../../stream/track.js';
import { ChangeWaiters } from '../../shared/change-waiters.js';
import { bufferBytes } from '../../shared/held-bytes.js';
import type { SegmentSpool, SpooledSegment } from './segment-spool.js';

/** Options of one segmenter. */
export interface TsSegmenterOptions {
  /** Segments are cut at the first keyframe at or after this duration (seconds, default 2). */
  readonly targetDurationSeconds?: number;
  /** Segments listed in the media playlist (default 6). */
  readonly windowSegments?: number;
  /** Segments kept for clients that read an older playlist, beyond the window (default = window). */
  readonly retainSegments?: number;
  /** A segment is closed once it holds this many bytes; units are then dropped until the next keyframe. */
  readonly maxSegmentBytes?: number;
  /** Clock for program date times (tests). */
  readonly now?: () => number;
  /** Where finished segments are written, leaving memory (default: kept in memory). */
  readonly spool?: SegmentSpool;
}

const SPOOLED = new Uint8Array(0);

/** One finished segment. */
export interface TsSegment {
  /** Media sequence number (`seg-<sequence>.ts`). */
  readonly sequence: number;
  /** Duration in seconds, measured from the timestamps. */
  readonly duration: number;
  /** Wall-clock time of the first sample. */
  readonly programDateTime: Date;
  /** True when the segment follows a reconnect or a change of codec configuration. */
  readonly discontinuity: boolean;
  /** EXT-X-DISCONTINUITY-SEQUENCE while this segment is the first listed: discontinuities before it. */
  readonly discontinuitySequence: number;
  /** The MPEG-TS bytes; empty when the segment was spooled to a file (`spooled` then has them). */
  readonly data: Uint8Array;
  /** The segment's file, when a spool holds it. */
  readonly spooled?: SpooledSegment;
  /** Size of the MPEG-TS bytes. */
  readonly byteLength: number;
  /** Payload bytes per track id (for per-track bitrates). */
  readonly trackBytes: ReadonlyMap<number, number>;
  /** Video frames in the segment. */
  readonly videoFrames: number;
}

/** What the segmenter measured over its window. */
export interface TsMeasurements {
  /** Peak segment bitrate in bits per second (RFC 8216 BANDWIDTH), undefined before a segment. */
  readonly peakBandwidth: number | undefined;
  /** Average bitrate over the retained segments. */
  readonly averageBandwidth: number | undefined;
  /** Mean interval between the last video keyframes, in seconds. */
  readonly keyframeIntervalSeconds: number | undefined;
  /** Frames per second measured over the retained segments. */
  readonly fps: number | undefined;
  /** Bits per second per track id, measured over the retained segments. */
  readonly trackBitrates: ReadonlyMap<number, number>;
  /** True once a video frame was presented before the frame decoded ahead of it (B-frames). */
  readonly bFrames: boolean;
}

interface OpenSegment {
  readonly startDts: number;
  readonly programDateTime: Date;
  readonly discontinuity: boolean;
  /** The muxer writing this segment; its bytes are taken once, when the segment closes. */
  readonly muxer: TsMuxer;
  readonly trackBytes: Map<number, number>;
  videoFrames: number;
}

const KEYFRAME_INTERVALS_KEPT = 8;
/** Finished segments whose sizes predict the next one. */
const SIZE_HISTORY = 3;

/** Segments one live stream into MPEG-TS; attach it to the stream as a synchronous sink. */
export class TsSegmenter implements StreamSink {
  private readonly targetSeconds: number;
  private readonly windowSegments: number;
  private readonly retainSegments: number;
  private readonly maxSegmentBytes: number;
  private readonly now: () => number;
  private readonly spool: SegmentSpool | undefined;
  private readonly finished: TsSegment[] = [];
  private readonly waiters = new ChangeWaiters(() => this.endReason !== undefined);
  private readonly keyIntervals: number[] = [];
  private muxer: TsMuxer | undefined;
  private currentTracks: readonly Track[] = [];
  private timelineTrack: Track | undefined;
  private open: OpenSegment | undefined;
  private nextSequence = 0;
  private discontinuities = 0;
  private pendingDiscontinuity = false;
  private lastTimelineDts: number | undefined;
  private lastTimelineStep = 0;
  private lastKeyDts: number | undefined;
  private reordered = false;
  private lastTimelinePts: number | undefined;
  private longestSegment = 0;
  private endReason: string | undefined;
  private unsupportedReason: string | undefined;
  private muxedTrackIds = new Set<number>();
  /** Units the muxer refused (malformed payloads); they are skipped. */
  readonly stats = { badUnits: 0 };

  constructor(options: TsSegmenterOptions = {}) {
    this.targetSeconds = options.targetDurationSeconds ?? 2;
    this.windowSegments = Math.max(1, options.windowSegments ?? 6);
    this.retainSegments = Math.max(0, options.retainSegments ?? this.windowSegments);
    this.maxSegmentBytes = options.maxSegmentBytes ?? 32 * 1024 * 1024;
    this.now = options.now ?? Date.now;
    this.spool = options.spool;
  }

  /** The tracks being muxed. */
  get tracks(): readonly Track[] {
    return this.currentTracks;
  }

  /** Why the tracks cannot be carried in MPEG-TS (e.g. AV1), when they cannot. */
  get unsupported(): string | undefined {
    return this.unsupportedReason;
  }

  /** Reason the stream ended, once it did (the playlist then carries EXT-X-ENDLIST). */
  get ended(): string | undefined {
    return this.endReason;
  }

  /** Bytes of the finished segments kept (their backing blocks). */
  get heldBytes(): number {
    let spooled = 0;
    for (const segment of this.finished) {
      spooled += segment.spooled?.heldBytes ?? 0;
    }
    return spooled + (this.muxer?.spareBytes ?? 0) + bufferBytes(this.finished.map((segment) => segment.data));
  }

  /** Drops every segment (and its file): the packager is gone. */
  dispose(): void {
    for (const segment of this.finished.splice(0)) {
      segment.spooled?.drop();
    }
  }

  /** The segments listed in the media playlist, oldest first. */
  get window(): readonly TsSegment[] {
    return this.finished.slice(-this.windowSegments);
  }

  /** EXT-X-TARGETDURATION: the target, raised to the longest segment produced so far (never lowered). */
  get targetDuration(): number {
    return Math.max(Math.ceil(this.targetSeconds), Math.ceil(this.longestSegment - 0.0005));
  }

  /** A retained segment by media sequence number. */
  segment(sequence: number): TsSegment | undefined {
    const first = this.finished[0];
    if (!first) {
      return undefined;
    }
    const found = this.finished[sequence - first.sequence];
    return found?.sequence === sequence ? found : undefined;
  }

  /** Resolves true once a segment is available; false when the stream ended, `timeoutMs` passed or `signal` aborted first. */
  waitForSegment(timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    return this.waiters.waitFor(() => this.finished.length > 0, timeoutMs, signal);
  }

  /** Measured bitrates, frame rate and keyframe interval. */
  measurements(): TsMeasurements {
    let peak: number | undefined;
    let bytes = 0;
    let seconds = 0;
    let frames = 0;
    const perTrack = new Map<number, number>();
    for (const segment of this.finished) {
      if (segment.duration <= 0) {
        continue;
      }
      const bps = (segment.byteLength * 8) / segment.duration;
      peak = peak === undefined ? bps : Math.max(peak, bps);
      bytes += segment.byteLength;
      seconds += segment.duration;
      frames += segment.videoFrames;
      for (const [trackId, trackBytes] of segment.trackBytes) {
        perTrack.set(trackId, (perTrack.get(trackId) ?? 0) + trackBytes);
      }
    }
    const trackBitrates = new Map<number, number>();
    if (seconds > 0) {
      for (const [trackId, trackBytes] of perTrack) {
        trackBitrates.set(trackId, Math.round((trackBytes * 8) / seconds));
      }
    }
    const intervals = this.keyIntervals;
    return {
      peakBandwidth: peak === undefined ? undefined : Math.round(peak),
      averageBandwidth: seconds > 0 ? Math.round((bytes * 8) / seconds) : undefined,
      keyframeIntervalSeconds:
        intervals.length > 0 ? round3(intervals.reduce((sum, value) => sum + value, 0) / intervals.length) : undefined,
      fps: seconds > 0 && frames > 0 ? round3(frames / seconds) : undefined,
      trackBitrates,
      bFrames: this.reordered,
    };
  }

  /** StreamSink: the publisher declared (or replaced) its tracks. */
  onDescription(description: StreamDescription): void {
    if (this.muxer) {
      this.closeOpenSegment(undefined);
      this.pendingDiscontinuity = true;
    }
    const tracks = tracksForTs(description.tracks);
    this.currentTracks = tracks;
    this.muxedTrackIds = new Set(tracks.map((track) => track.id));
    this.timelineTrack = tracks.find((track) => track.kind === 'video') ?? tracks[0];
    this.lastKeyDts = undefined;
    try {
      this.muxer = new TsMuxer(tracks);
      this.unsupportedReason = undefined;
    } catch (error) {
      this.muxer = undefined;
      this.unsupportedReason = error instanceof Error ? error.message : String(error);
    }
  }

  /** StreamSink: one unit in decode order. */
  onUnit(unit: MediaUnit): void {
    const muxer = this.muxer;
    const timeline = this.timelineTrack;
    if (!muxer || !timeline || this.endReason !== undefined || !this.muxedTrackIds.has(unit.trackId)) {
      return;
    }
    if (unit.discontinuity && !this.open?.discontinuity) {
      this.pendingDiscontinuity = true;
    }
    const onTimeline = unit.trackId === timeline.id;
    const isVideoKey = onTimeline && unit.key && timeline.kind === 'video';
    if (onTimeline) {
      this.noteTimeline(unit, isVideoKey);
    }
    const open = this.open;
    if (open && onTimeline) {
      const startsHere = timeline.kind === 'video' ? isVideoKey : true;
      const due = startsHere && unit.dts - open.startDts >= this.targetSeconds * timeline.timescale;
      const forced = startsHere && this.pendingDiscontinuity;
      if (due || forced || open.muxer.size >= this.maxSegmentBytes) {
        this.closeOpenSegment(unit.dts);
      }
    }
    if (!this.open) {
      const canStart = timeline.kind === 'video' ? isVideoKey : onTimeline;
      if (!canStart) {
        return;
      }
      this.startSegment(unit, muxer);
    }
    const current = this.open;
    if (!current) {
      return;
    }
    try {
      current.muxer.writeUnit(unit);
    } catch {
      this.stats.badUnits++;
      return;
    }
    current.trackBytes.set(unit.trackId, (current.trackBytes.get(unit.trackId) ?? 0) + unit.data.byteLength);
    if (onTimeline && timeline.kind === 'video') {
      current.videoFrames++;
    }
  }

  /** StreamSink: the publisher dropped; publish what the open segment holds. */
  onInterrupted(): void {
    this.closeOpenSegment(undefined);
    this.pendingDiscontinuity = true;
  }

  /** StreamSink: the stream ended; the playlist gets EXT-X-ENDLIST. */
  onEnd(reason: string): void {
    if (this.endReason !== undefined) {
      return;
    }
    this.closeOpenSegment(undefined);
    this.endReason = reason;
    this.waiters.notify();
  }

  private noteTimeline(unit: MediaUnit, isVideoKey: boolean): void {
    const last = this.lastTimelineDts;
    if (last !== undefined && unit.dts > last) {
      this.lastTimelineStep = unit.dts - last;
    }
    this.lastTimelineDts = unit.dts;
    if (this.timelineTrack?.kind === 'video' && this.lastTimelinePts !== undefined && unit.pts < this.lastTimelinePts) {
      this.reordered = true;
    }
    this.lastTimelinePts = unit.pts;
    if (!isVideoKey || !this.timelineTrack) {
      return;
    }
    if (this.lastKeyDts !== undefined && !unit.discontinuity && unit.dts > this.lastKeyDts) {
      this.keyIntervals.push((unit.dts - this.lastKeyDts) / this.timelineTrack.timescale);
      if (this.keyIntervals.length > KEYFRAME_INTERVALS_KEPT) {
        this.keyIntervals.shift();
      }
    }
    this.lastKeyDts = unit.dts;
  }

  private startSegment(unit: MediaUnit, muxer: TsMuxer): void {
    const discontinuity = this.pendingDiscontinuity && this.nextSequence > 0;
    this.pendingDiscontinuity = false;
    this.open = {
      startDts: unit.dts,
      programDateTime: new Date(this.now()),
      discontinuity,
      muxer,
      trackBytes: new Map(),
      videoFrames: 0,
    };
    const expected = this.expectedSegmentBytes();
    if (this.spool) {
      // Each segment in a buffer of its own, handed back once its file is written (no copy, no new memory).
      muxer.startOwnBlock(expected);
    } else if (expected > 0) {
      muxer.reserve(expected);
    }
    muxer.writeTables();
  }

  /**
   * Room to reserve for the next segment so it is written into one block and kept without a
   * copy: the largest of the last finished segments plus an eighth, or 0 before the first.
   */
  private expectedSegmentBytes(): number {
    let largest = 0;
    for (const segment of this.finished.slice(-SIZE_HISTORY)) {
      largest = Math.max(largest, segment.byteLength);
    }
    return Math.min(this.maxSegmentBytes, Math.ceil(largest * 1.125));
  }

  /** Finishes the open segment at `endDts`, or one frame after the last timeline unit. */
  private closeOpenSegment(endDts: number | undefined): void {
    const open = this.open;
    const timeline = this.timelineTrack;
    this.open = undefined;
    if (!open || !timeline) {
      return;
    }
    const end = endDts ?? (this.lastTimelineDts ?? open.startDts) + this.lastTimelineStep;
    const duration = Math.max(0, end - open.startDts) / timeline.timescale;
    const data = open.muxer.take();
    if (data.byteLength === 0 || duration <= 0) {
      this.pendingDiscontinuity ||= open.discontinuity;
      return;
    }
    const discontinuitySequence = this.discontinuities;
    if (open.discontinuity) {
      this.discontinuities++;
    }
    const spooled = this.spool?.store(data, 'ts', (buffer) => this.muxer?.recycle(buffer));
    this.finished.push({
      sequence: this.nextSequence++,
      duration,
      programDateTime: open.programDateTime,
      discontinuity: open.discontinuity,
      discontinuitySequence,
      data: spooled ? SPOOLED : data,
      ...(spooled ? { spooled } : {}),
      byteLength: data.byteLength,
      trackBytes: open.trackBytes,
      videoFrames: open.videoFrames,
    });
    this.longestSegment = Math.max(this.longestSegment, duration);
    while (this.finished.length > this.windowSegments + this.retainSegments) {
      this.finished.shift()?.spooled?.drop();
    }
    this.waiters.notify();
  }
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/**
 * The tracks classic HLS muxes: all of them, except that a stream carrying AAC beside Opus (a WHIP
 * stream's AAC rendition) gets only the AAC, which every HLS player decodes.
 */
export function tracksForTs(tracks: readonly Track[]): readonly Track[] {
  const hasAac = tracks.some((track) => track.kind === 'audio' && track.codec === 'aac');
  return hasAac ? tracks.filter((track) => !(track.kind === 'audio' && track.codec === 'opus')) : tracks;
}
