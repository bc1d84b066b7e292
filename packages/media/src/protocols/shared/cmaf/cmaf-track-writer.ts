/**
 * One CMAF track (ISO/IEC 23000-19 §7.3.2): turns the units of one track into CMAF chunks
 * (ISO/IEC 14496-12 movie fragments via formats/fmp4) cut at the times the packager decides,
 * groups them into segments and keeps a bounded window of complete segments.
 */
import { bytesEqual, concatBytes } from '../../../bits/bytes.js';
import { SpareBuffer } from '../../../bits/spare-buffer.js';
import { fragmentBoxes, planFragment, writeFragment } from '../../../formats/fmp4/fragment.js';
import { buildInitSegment } from '../../../formats/fmp4/init-segment.js';
import { typicalStep } from '../../../hub/live-stream.js';
import type { MediaUnit } from '../../../stream/media-unit.js';
import type { Track } from '../../../stream/track.js';
import { bufferBytes } from '../held-bytes.js';
import type { SegmentSpool } from '../segment-spool.js';
import type { CmafPart, CmafPeriod, CmafSegment, CmafTrackName } from './cmaf-types.js';
import { SampleColumns, type TimedSample } from './sample-columns.js';

/** A boundary the packager decided, in this track's timescale. */
interface Cut {
  readonly time: number;
  readonly segment: boolean;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type OpenSegment = Mutable<CmafSegment> & { parts: CmafPart[] };

/** Cuts a follower may have queued before it receives a sample (about 30 s of parts). */
const MAX_QUEUED_CUTS = 64;
/** Complete segments whose sizes predict the next one. */
const SIZE_HISTORY = 3;
/** What a spooled segment and its parts hold in memory instead of their bytes. */
const SPOOLED = new Uint8Array(0);
/** A gathering writer's complete segment's `data`: its bytes are its `pieces`. */
const GATHERED = new Uint8Array(0);

/** Where a track writer spools its older segments, and how many of the newest stay in memory. */
export interface CmafTrackSpool {
  readonly spool: SegmentSpool;
  readonly memorySegments: number;
}

/** Segments and parts of one track. */
export class CmafTrackWriter {
  private current: Track;
  private version = 0;
  private readonly inits = new Map<number, { readonly init: Uint8Array; readonly track: Track }>();
  private readonly complete: CmafSegment[] = [];
  private open: OpenSegment | undefined;
  private readonly samples = new SampleColumns();
  private pending: MediaUnit | undefined;
  private cuts: Cut[] = [];
  private nextMsn = 0;
  private nextPartSequence = 0;
  private lastDuration: number;
  private nextDiscontinuity = false;
  private period: CmafPeriod | undefined;
  private evictedDiscontinuities = 0;
  private longestSegment = 0;
  /** Write-once buffer the parts are built into, so a segment's parts usually lie back to back. */
  private block = new Uint8Array(0);
  private blockUsed = 0;
  /** A spooled segment's buffer handed back for the next segment's block (with a spool only). */
  private readonly spare = new SpareBuffer();
  /** Buffers a view of which was handed out (served from memory): never reused. */
  private readonly lent = new WeakSet<ArrayBufferLike>();

  constructor(
    /** `video` or `audio`: the prefix of every resource of this track. */
    readonly name: CmafTrackName,
    track: Track,
    private readonly windowSegments: number,
    /** Longest stretch of samples held without a cut, seconds; beyond it the track cuts itself. */
    private readonly maxHeldSeconds: number,
    private readonly changed: () => void,
    /** Where complete segments beyond the newest few go (default: all stay in memory). */
    private readonly store?: CmafTrackSpool,
    /** Parts keep their samples' bytes where they are (`CmafPart.samples`); see CmafPackagerOptions.gatherSamples. */
    private readonly gathering = false,
  ) {
    this.current = track;
    this.lastDuration = typicalStep(track);
    this.inits.set(0, { init: buildInitSegment([track]), track });
  }

  /** The track being written. */
  get track(): Track {
    return this.current;
  }

  /** Version of the current init segment. */
  get initVersion(): number {
    return this.version;
  }

  /** Bytes of the blocks the window's parts (and the open segment's) lie in, the current block included. */
  get heldBytes(): number {
    const parts = [...this.complete, ...(this.open ? [this.open] : [])].flatMap((segment) =>
      segment.parts.map((part) => part.data),
    );
    let spooled = 0;
    for (const segment of this.complete) {
      spooled += segment.spooled?.file.heldBytes ?? 0;
    }
    return spooled + this.spare.bytes + bufferBytes([...parts, this.block]);
  }

  /** Records that `view` is handed out (a response body): its buffer is never built into again. */
  lend(view: Uint8Array): Uint8Array {
    this.lent.add(view.buffer);
    return view;
  }

  /** Drops every spooled segment's file (the packager is gone). */
  dispose(): void {
    for (const segment of this.complete) {
      segment.spooled?.file.drop();
    }
  }

  /** Complete segments in the window, oldest first. */
  get segments(): readonly CmafSegment[] {
    return this.complete;
  }

  /** The segment being written (has at least one part), if any. */
  get openSegment(): CmafSegment | undefined {
    return this.open;
  }

  /** Number the next part will get (the LL-HLS preload hint). */
  get nextPart(): number {
    return this.nextPartSequence;
  }

  /** Media sequence number the next segment to open will get. */
  get nextSegmentNumber(): number {
    return this.open ? this.open.msn + 1 : this.nextMsn;
  }

  /**
   * Numbers this track's first segment `msn`: a track added mid-stream takes the leader's current
   * number, so segments cut at the same times have the same number in every track.
   */
  numberFrom(msn: number): void {
    if (this.complete.length === 0 && this.open === undefined) {
      this.nextMsn = msn;
    }
  }

  /** Discontinuities of segments that left the window (EXT-X-DISCONTINUITY-SEQUENCE). */
  get discontinuitySequence(): number {
    return this.evictedDiscontinuities;
  }

  /** Longest complete segment so far, in seconds. */
  get longestSegmentSeconds(): number {
    return this.longestSegment;
  }

  /** Duration of the last sample with a known duration, in the track's timescale. */
  get sampleDuration(): number {
    return this.lastDuration;
  }

  /** Decode time where the current part starts, if it has a sample. */
  get partStartTime(): number | undefined {
    return this.samples.firstDts ?? this.pending?.dts;
  }

  /** The init segment of a version still referenced by the window. */
  init(version: number): Uint8Array | undefined {
    return this.inits.get(version)?.init;
  }

  /** The track an init segment version describes (older periods may differ from the current one). */
  trackOf(version: number): Track {
    return this.inits.get(version)?.track ?? this.current;
  }

  /** Replaces the track; when its init segment changes, closes what is open and returns true. */
  setTrack(track: Track): boolean {
    const init = buildInitSegment([track]);
    const existing = this.inits.get(this.version);
    if (existing && bytesEqual(existing.init, init) && track.id === this.current.id) {
      this.current = track;
      return false;
    }
    this.flush();
    this.current = track;
    this.version++;
    this.inits.set(this.version, { init, track });
    return true;
  }

  /** The next segment opened starts `period`; `discontinuity` marks it EXT-X-DISCONTINUITY. */
  beginPeriod(period: CmafPeriod, discontinuity: boolean): void {
    this.period = period;
    this.nextDiscontinuity = this.nextDiscontinuity || discontinuity;
  }

  /** Adds one unit; it becomes a sample once the next unit tells its duration. */
  push(unit: MediaUnit): void {
    const previous = this.pending;
    if (previous) {
      const duration = unit.dts - previous.dts;
      if (duration < 0) {
        return;
      }
      if (duration > 0) {
        this.lastDuration = duration;
      }
      this.samples.push(previous, duration);
    }
    this.pending = unit;
    this.applyCuts();
    const oldest = this.samples.firstDts;
    if (oldest !== undefined && unit.dts - oldest > this.maxHeldSeconds * this.current.timescale) {
      this.cut(unit.dts, true);
    }
  }

  /** Queues a boundary at `time` (this track's timescale): a part end, and a segment end when `segment`. */
  cut(time: number, segment: boolean): void {
    this.cuts.push({ time, segment });
    if (this.cuts.length > MAX_QUEUED_CUTS) {
      const dropped = this.cuts.shift();
      const next = this.cuts[0];
      if (dropped?.segment && next && !next.segment) {
        this.cuts[0] = { time: next.time, segment: true };
      }
    }
    this.applyCuts();
  }

  /** Closes everything held: the last sample lasts as long as the one before it. */
  flush(): void {
    if (this.pending) {
      this.samples.push(this.pending, this.lastDuration);
      this.pending = undefined;
    }
    const cuts = this.cuts;
    this.cuts = [];
    for (const cut of cuts) {
      this.closePart(cut.time);
      if (cut.segment) {
        this.closeSegment();
      }
    }
    this.closePart(Number.POSITIVE_INFINITY);
    this.closeSegment();
  }

  /** Drops held samples without writing them (the stream restarts at a keyframe). */
  discardPending(): void {
    this.pending = undefined;
    this.samples.clear();
    this.cuts = [];
  }

  private applyCuts(): void {
    for (;;) {
      const cut = this.cuts[0];
      const pending = this.pending;
      if (!cut || !pending || pending.dts < cut.time) {
        return;
      }
      this.cuts.shift();
      this.closePart(cut.time);
      if (cut.segment) {
        this.closeSegment();
      }
    }
  }

  private closePart(before: number): void {
    const count = this.samples.countBefore(before);
    if (count === 0) {
      return;
    }
    const taken = this.samples.take(count);
    const first = taken[0] as TimedSample;
    const last = taken[count - 1] as TimedSample;
    const sequence = this.nextPartSequence;
    const startsSegment = !this.open || this.open.parts.length === 0;
    // Planned before any state changes, so a sample the boxes cannot carry only loses its own part.
    const plan = planFragment(
      sequence + 1,
      [{ trackId: this.current.id, baseMediaDecodeTime: first.dts, samples: taken }],
      { styp: startsSegment },
    );
    const data = this.gathering
      ? fragmentBoxes(plan)
      : this.placePart(plan.size, startsSegment, (block, offset) => writeFragment(plan, block, offset));
    const segment = this.open ?? this.openSegmentAt(first);
    this.nextPartSequence++;
    segment.parts.push({
      sequence,
      msn: segment.msn,
      index: segment.parts.length,
      startTime: first.dts,
      duration: last.dts + last.duration - first.dts,
      independent: first.key,
      data,
      ...(this.gathering ? { samples: taken.map((sample) => sample.data) } : {}),
    });
    segment.duration = last.dts + last.duration - segment.startTime;
    segment.bytes += plan.size;
    segment.samples += count;
    for (const sample of taken) {
      segment.earliestPresentationTime = Math.min(segment.earliestPresentationTime, sample.pts);
    }
    this.changed();
  }

  /**
   * Writes a part into the current block, starting a new block when it lacks the room: for the
   * first part of a segment one sized to the expected segment (the largest of the last complete
   * ones plus an eighth), so the segment can later be served as one view without a copy.
   */
  private placePart(
    size: number,
    startsSegment: boolean,
    write: (block: Uint8Array, offset: number) => Uint8Array,
  ): Uint8Array {
    let wanted = size;
    if (startsSegment) {
      let largest = 0;
      for (const segment of this.complete.slice(-SIZE_HISTORY)) {
        largest = Math.max(largest, segment.bytes);
      }
      wanted = Math.max(size, Math.ceil(largest * 1.125));
    }
    if (startsSegment && this.store) {
      // Each segment starts a block of its own, handed back once its file is written.
      this.block = this.spare.take(wanted);
      this.blockUsed = 0;
    } else if (this.block.byteLength - this.blockUsed < wanted) {
      this.block = new Uint8Array(wanted);
      this.blockUsed = 0;
    }
    const data = write(this.block, this.blockUsed);
    this.blockUsed += data.byteLength;
    return data;
  }

  private openSegmentAt(first: TimedSample): OpenSegment {
    const period = this.period;
    if (!period) {
      throw new Error(`track ${this.name} received samples before its first period began`);
    }
    const segment: OpenSegment = {
      msn: this.nextMsn++,
      startTime: first.dts,
      duration: 0,
      earliestPresentationTime: first.pts,
      parts: [],
      discontinuity: this.nextDiscontinuity,
      period,
      initVersion: this.version,
      programDateTimeMs: Math.round(
        period.startWallMs + (first.dts / this.current.timescale - period.startMediaSeconds) * 1000,
      ),
      independent: first.key,
      bytes: 0,
      samples: 0,
      data: undefined,
    };
    this.nextDiscontinuity = false;
    this.open = segment;
    return segment;
  }

  private closeSegment(): void {
    const segment = this.open;
    if (!segment) {
      return;
    }
    this.open = undefined;
    if (this.gathering) {
      segment.pieces = segment.parts.flatMap((part) => [part.data, ...(part.samples ?? [])]);
      segment.data = GATHERED;
    } else {
      segment.data = adjacentView(segment.parts) ?? this.joinParts(segment);
    }
    this.complete.push(segment);
    this.longestSegment = Math.max(this.longestSegment, segment.duration / this.current.timescale);
    while (this.complete.length > this.windowSegments) {
      const evicted = this.complete.shift();
      evicted?.spooled?.file.drop();
      if (evicted?.discontinuity) {
        this.evictedDiscontinuities++;
      }
    }
    this.spoolAged();
    this.dropUnusedInits();
    this.changed();
  }

  /** Moves complete segments older than the newest `memorySegments` to the spool (same bytes, from a file). */
  private spoolAged(): void {
    const store = this.store;
    if (!store) {
      return;
    }
    for (let i = this.complete.length - 1 - store.memorySegments; i >= 0; i--) {
      const segment = this.complete[i] as CmafSegment;
      if (segment.spooled || !segment.data) {
        return;
      }
      const partEnds: number[] = [];
      let end = 0;
      for (const part of segment.parts) {
        end += part.data.byteLength;
        partEnds.push(end);
      }
      this.complete[i] = {
        ...segment,
        data: SPOOLED,
        parts: segment.parts.map((part) => ({ ...part, data: SPOOLED })),
        spooled: { file: store.spool.store(segment.data, 'm4s', (buffer) => this.reuse(buffer)), partEnds },
      };
    }
  }

  /**
   * A gathering writer lets go of a complete segment's bytes (its samples') once its owner wrote
   * them out: the window keeps the segment's description only. A no-op for other writers.
   */
  release(segment: CmafSegment): void {
    const index = this.complete.indexOf(segment);
    if (!this.gathering || index < 0) {
      return;
    }
    this.complete[index] = {
      ...segment,
      pieces: [],
      parts: segment.parts.map((part) => ({ ...part, samples: [] })),
    };
  }

  /** Keeps a written segment's buffer for the next segment, unless a view of it was handed out. */
  private reuse(buffer: ArrayBuffer): void {
    if (!this.lent.has(buffer)) {
      this.spare.give(buffer, this.block.buffer);
    }
  }

  /** Copies parts spread over several blocks into one segment buffer; the parts become views of it. */
  private joinParts(segment: OpenSegment): Uint8Array {
    const data = concatBytes(segment.parts.map((part) => part.data));
    let offset = 0;
    segment.parts = segment.parts.map((part) => {
      const view = data.subarray(offset, offset + part.data.byteLength);
      offset += part.data.byteLength;
      return { ...part, data: view };
    });
    return data;
  }

  private dropUnusedInits(): void {
    const oldest = this.complete[0]?.initVersion ?? this.version;
    for (const version of this.inits.keys()) {
      if (version < oldest && version !== this.version) {
        this.inits.delete(version);
      }
    }
  }
}

/** The parts' bytes as one view when they lie back to back in one buffer (built into one block). */
function adjacentView(parts: readonly CmafPart[]): Uint8Array | undefined {
  const first = parts[0];
  if (!first) {
    return new Uint8Array(0);
  }
  let end = first.data.byteOffset;
  for (const part of parts) {
    if (part.data.buffer !== first.data.buffer || part.data.byteOffset !== end) {
      return undefined;
    }
    end += part.data.byteLength;
  }
  return new Uint8Array(first.data.buffer, first.data.byteOffset, end - first.data.byteOffset);
}
