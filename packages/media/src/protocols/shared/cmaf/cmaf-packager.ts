/**
 * The CMAF packager of one live stream (ISO/IEC 23000-19), shared by LL-HLS (RFC 8216bis) and
 * DASH (ISO/IEC 23009-1): one CMAF track per media kind, segments cut at video keyframes once the
 * segment target is reached (audio cut at the same times), parts cut at the part target.
 * Attach it to a LiveStream as a synchronous sink; readers wait on it with `waitFor`.
 */
import type { StreamSink } from '../../../hub/live-stream.js';
import type { MediaUnit } from '../../../stream/media-unit.js';
import { audioTrackOf, type StreamDescription, type Track, videoTrackOf } from '../../../stream/track.js';
import { ChangeWaiters, type WaiterKind } from '../change-waiters.js';
import { type CmafPackagerOptions, type ResolvedCmafOptions, resolveCmafOptions } from './cmaf-options.js';
import { CmafTrackWriter } from './cmaf-track-writer.js';
import { type CmafPeriod, type CmafTrackName, mediaStartMs } from './cmaf-types.js';

/** What the packager measured over its window. */
export interface CmafMeasurements {
  /** Sum over tracks of the highest segment bitrate, bits per second (HLS BANDWIDTH). */
  readonly peakBandwidth: number | undefined;
  /** Sum over tracks of the mean bitrate over the window, bits per second. */
  readonly averageBandwidth: number | undefined;
  /** Video frames per second over the window, snapped to N or N×1000/1001 when within 0.05%. */
  readonly fps: number | undefined;
  /** Mean bits per second of each track over the window, by track name. */
  readonly trackBitrates: Readonly<Partial<Record<CmafTrackName, number>>>;
  /** Interval between the last two video keyframes, in seconds. */
  readonly keyframeIntervalSeconds: number | undefined;
}

/** Packages one live stream into CMAF tracks. */
export class CmafPackager implements StreamSink {
  /** The options in force (defaults applied). */
  readonly options: ResolvedCmafOptions;
  private readonly writers = new Map<CmafTrackName, CmafTrackWriter>();
  private readonly byTrackId = new Map<number, CmafTrackWriter>();
  private readonly waiters = new ChangeWaiters(() => this.endReason !== undefined);
  private readonly fresh = new Set<number>();
  private leaderWriter: CmafTrackWriter | undefined;
  private started = false;
  private discontinuityNext = false;
  private currentPeriod: CmafPeriod | undefined;
  private firstPeriod: CmafPeriod | undefined;
  private periodCount = 0;
  private segmentStart = 0;
  private partStart = 0;
  private lastKeyDts: number | undefined;
  private keyframeInterval: number | undefined;
  private endReason: string | undefined;
  private changes = 0;
  private failed = 0;

  constructor(options: CmafPackagerOptions = {}) {
    this.options = resolveCmafOptions(options);
  }

  /** The writer of a track kind, once the stream declared one. */
  track(name: CmafTrackName): CmafTrackWriter | undefined {
    return this.writers.get(name);
  }

  /** Writers of every declared track, video first. */
  get tracks(): CmafTrackWriter[] {
    return (['video', 'audio'] as const).flatMap((name) => this.writers.get(name) ?? []);
  }

  /** The track whose keyframes decide the cuts: video when present, else audio. */
  get leader(): CmafTrackWriter | undefined {
    return this.leaderWriter;
  }

  /** Counts changes (parts, segments, end): anything rendered from the packager is stale once it moves. */
  get version(): number {
    return this.changes;
  }

  /** Bytes the track writers hold (the window's parts and their blocks). */
  get heldBytes(): number {
    let total = 0;
    for (const writer of this.writers.values()) {
      total += writer.heldBytes;
    }
    return total;
  }

  /** Drops every spooled segment's file: the packager is gone. */
  dispose(): void {
    for (const writer of this.writers.values()) {
      writer.dispose();
    }
  }

  /** Why the stream ended, or undefined while live. */
  get ended(): string | undefined {
    return this.endReason;
  }

  /** The first period: its start is the DASH availabilityStartTime. */
  get origin(): CmafPeriod | undefined {
    return this.firstPeriod;
  }

  /** True once the leading track has a complete segment (playlists can be served). */
  get ready(): boolean {
    return (this.leaderWriter?.segments.length ?? 0) > 0;
  }

  /** Longest complete segment of any track so far, in seconds. */
  get longestSegmentSeconds(): number {
    let longest = 0;
    for (const writer of this.writers.values()) {
      longest = Math.max(longest, writer.longestSegmentSeconds);
    }
    return longest;
  }

  /** EXT-X-TARGETDURATION: the segment target or the longest segment, in whole seconds. */
  get targetDuration(): number {
    return Math.max(1, Math.ceil(this.options.segmentTargetSeconds), Math.round(this.longestSegmentSeconds));
  }

  /**
   * Longest part a track can produce, in seconds (rounded up to a millisecond; LL-HLS PART-TARGET):
   * the part target plus the jitter tolerance, and for a follower one of its samples, since its
   * parts end at the first sample at or after the leader's cut.
   */
  partTargetOf(writer: CmafTrackWriter): number {
    let seconds = this.options.partTargetSeconds * PART_TOLERANCE;
    if (writer !== this.leaderWriter) {
      seconds += writer.sampleDuration / writer.track.timescale;
    }
    return Math.ceil(seconds * 1000 - 1e-6) / 1000;
  }

  /** Interval between the last two video keyframes in seconds (the real GOP), once measured. */
  get keyframeIntervalSeconds(): number | undefined {
    return this.keyframeInterval;
  }

  /** Resolves true once `ready()` holds (checked after every change), false on timeout, abort or end. */
  waitFor(ready: () => boolean, timeoutMs: number, signal?: AbortSignal, kind?: WaiterKind): Promise<boolean> {
    return this.waiters.waitFor(ready, timeoutMs, signal, kind);
  }

  /** Bitrates, frame rate and keyframe interval measured over the window. */
  measurements(): CmafMeasurements {
    let peak: number | undefined;
    let average: number | undefined;
    let fps: number | undefined;
    const trackBitrates: Partial<Record<CmafTrackName, number>> = {};
    for (const writer of this.writers.values()) {
      const timescale = writer.track.timescale;
      let trackPeak = 0;
      let bytes = 0;
      let ticks = 0;
      let samples = 0;
      for (const segment of writer.segments) {
        if (segment.duration <= 0) {
          continue;
        }
        trackPeak = Math.max(trackPeak, (segment.bytes * 8 * timescale) / segment.duration);
        bytes += segment.bytes;
        ticks += segment.duration;
        samples += segment.samples;
      }
      if (ticks === 0) {
        continue;
      }
      const mean = (bytes * 8 * timescale) / ticks;
      trackBitrates[writer.name] = Math.round(mean);
      peak = (peak ?? 0) + Math.round(trackPeak);
      average = (average ?? 0) + Math.round(mean);
      if (writer.name === 'video') {
        fps = snapFrameRate((samples * timescale) / ticks);
      }
    }
    return {
      peakBandwidth: peak,
      averageBandwidth: average,
      fps,
      trackBitrates,
      keyframeIntervalSeconds: this.keyframeInterval,
    };
  }

  /** Declares or replaces tracks; a changed codec configuration starts a new period. */
  onDescription(description: StreamDescription): void {
    if (this.endReason !== undefined) {
      return;
    }
    let reset = false;
    this.byTrackId.clear();
    const declared: [CmafTrackName, Track | undefined][] = [
      ['video', videoTrackOf(description)],
      ['audio', audioTrackOf(description)],
    ];
    for (const [name, track] of declared) {
      if (!track) {
        continue;
      }
      try {
        let writer = this.writers.get(name);
        if (!writer) {
          writer = new CmafTrackWriter(
            name,
            track,
            this.options.windowSegments,
            2 * this.options.maxSegmentSeconds,
            () => this.notify(),
            this.options.spool ? { spool: this.options.spool, memorySegments: this.options.memorySegments } : undefined,
            this.options.gatherSamples,
          );
          const leader = this.leaderWriter;
          if (leader) {
            const open = leader.openSegment;
            writer.numberFrom(open ? open.msn : leader.nextSegmentNumber);
          }
          this.writers.set(name, writer);
          if (this.currentPeriod) {
            writer.beginPeriod(this.currentPeriod, false);
          }
        } else if (writer.setTrack(track)) {
          reset = true;
        }
        this.byTrackId.set(track.id, writer);
      } catch (error) {
        this.fail(
          `${name} track ${track.codecString} not packaged: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
    const mapped = new Set(this.byTrackId.values());
    const video = this.writers.get('video');
    const leader = video && mapped.has(video) ? video : [...mapped][0];
    if (leader !== this.leaderWriter) {
      reset = reset || this.started;
      this.leaderWriter = leader;
    }
    if (reset) {
      this.breakTimeline();
    }
  }

  /**
   * Cuts and writes one unit. Never throws: a unit with a negative timestamp is dropped, and a part
   * the boxes cannot carry is dropped with its samples; both are counted in `failures`.
   */
  onUnit(unit: MediaUnit): void {
    if (this.endReason !== undefined) {
      return;
    }
    if (!(unit.dts >= 0 && Number.isSafeInteger(unit.dts) && Number.isSafeInteger(unit.pts))) {
      this.fail(`unit of track ${unit.trackId} with dts ${unit.dts}, pts ${unit.pts} dropped`);
      return;
    }
    try {
      this.write(unit);
    } catch (error) {
      this.fail(`part of track ${unit.trackId} dropped: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Units and parts dropped because they could not be packaged. */
  get failures(): number {
    return this.failed;
  }

  private flushAll(): void {
    for (const writer of this.writers.values()) {
      try {
        writer.flush();
      } catch (error) {
        this.fail(`${writer.name} flush failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  private fail(reason: string): void {
    this.failed++;
    this.options.onFailure?.();
    if (this.failed % 100 === 1) {
      this.options.log.warn({ failures: this.failed }, `CMAF packager: ${reason}`);
    }
  }

  private write(unit: MediaUnit): void {
    const writer = this.byTrackId.get(unit.trackId);
    const leader = this.leaderWriter;
    if (!writer || !leader) {
      return;
    }
    if (unit.discontinuity && this.fresh.has(unit.trackId)) {
      this.breakTimeline();
    }
    if (writer !== leader) {
      if (this.started) {
        this.fresh.add(unit.trackId);
        writer.push(unit);
      }
      return;
    }
    if (!this.started) {
      if (!unit.key) {
        return;
      }
      this.beginPeriod(unit, leader.track.timescale);
    } else {
      this.decideCut(leader, unit);
    }
    this.fresh.add(unit.trackId);
    leader.push(unit);
  }

  /** The publisher dropped: close what is open; the next unit starts a new period. */
  onInterrupted(): void {
    if (this.endReason === undefined) {
      this.breakTimeline();
    }
  }

  /** The stream ended: close what is open and wake every waiting request. */
  onEnd(reason: string): void {
    if (this.endReason !== undefined) {
      return;
    }
    this.flushAll();
    this.endReason = reason;
    this.notify();
  }

  private decideCut(leader: CmafTrackWriter, unit: MediaUnit): void {
    const timescale = leader.track.timescale;
    const isVideo = leader.track.kind === 'video';
    if (isVideo && unit.key) {
      if (this.lastKeyDts !== undefined && unit.dts > this.lastKeyDts) {
        this.keyframeInterval = (unit.dts - this.lastKeyDts) / timescale;
      }
      this.lastKeyDts = unit.dts;
    }
    const elapsed = unit.dts - this.segmentStart;
    const halfSample = leader.sampleDuration / 2;
    if (unit.key && elapsed + halfSample >= this.options.segmentTargetSeconds * timescale) {
      this.cutAll(unit.dts, timescale, true);
    } else if (elapsed >= this.options.maxSegmentSeconds * timescale) {
      this.cutAll(unit.dts, timescale, true);
    } else if (
      unit.dts > this.partStart &&
      unit.dts + leader.sampleDuration - this.partStart > this.options.partTargetSeconds * timescale * PART_TOLERANCE
    ) {
      this.cutAll(unit.dts, timescale, false);
    }
  }

  private cutAll(time: number, timescale: number, segment: boolean): void {
    this.partStart = time;
    if (segment) {
      this.segmentStart = time;
    }
    for (const writer of this.writers.values()) {
      writer.cut(Math.round((time * writer.track.timescale) / timescale), segment);
    }
  }

  private beginPeriod(unit: MediaUnit, timescale: number): void {
    const startWallMs = this.options.now();
    const period: CmafPeriod = {
      id: this.periodCount++,
      startWallMs,
      startMediaSeconds: unit.dts / timescale,
      tracks: [...new Set(this.byTrackId.values())].map((writer) => writer.name),
      presentationStartMs: this.currentPeriod ? this.presentationEndMs(this.currentPeriod) : startWallMs,
    };
    this.currentPeriod = period;
    this.firstPeriod ??= period;
    for (const writer of this.writers.values()) {
      writer.beginPeriod(period, this.discontinuityNext);
    }
    this.discontinuityNext = false;
    this.started = true;
    this.segmentStart = unit.dts;
    this.partStart = unit.dts;
  }

  /** Wall-clock ms at which `period`'s media ends: the earliest end over its tracks' last segments. */
  private presentationEndMs(period: CmafPeriod): number {
    let endSeconds: number | undefined;
    for (const writer of this.writers.values()) {
      const last = writer.segments.findLast((segment) => segment.period.id === period.id);
      if (last) {
        const end = (last.earliestPresentationTime + last.duration) / writer.trackOf(last.initVersion).timescale;
        endSeconds = Math.min(endSeconds ?? end, end);
      }
    }
    const start = mediaStartMs(period);
    return endSeconds === undefined ? start : start + Math.max(0, endSeconds - period.startMediaSeconds) * 1000;
  }

  private breakTimeline(): void {
    this.flushAll();
    this.started = false;
    this.fresh.clear();
    this.lastKeyDts = undefined;
    this.discontinuityNext = this.currentPeriod !== undefined;
  }

  private notify(): void {
    this.changes++;
    this.waiters.notify();
  }
}

/** Snaps a measured frame rate to an integer or NTSC rate it is within 0.05% of. */
export function snapFrameRate(fps: number): number {
  const integer = Math.round(fps);
  if (Math.abs(fps - integer) <= fps * 0.0005) {
    return integer;
  }
  const ntsc = (Math.round(fps * 1.001) * 1000) / 1001;
  return Math.abs(fps - ntsc) <= fps * 0.0005 ? ntsc : fps;
}

/** Parts may run this much over the part target when timestamps jitter (millisecond clocks). */
const PART_TOLERANCE = 1.01;
