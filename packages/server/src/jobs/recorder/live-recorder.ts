/**
 * Records one live stream: a synchronous hub reader feeding its own CmafPackager (the same fMP4
 * the live CMAF outputs serve; no re-encode; one fragment per segment) and writing every segment
 * to storage as it closes — appended to the recording's pack where the store appends (ADR 0062,
 * 0089), else an object each — init segments first, then the index entries once the segments are
 * written (not fsynced: ADR 0023). The segments one cut closes go out as one batch, one write for
 * every track (ADR 0089): a leader's segment waits for the followers' of the same cut, at most
 * HOLD_LEADER_UNITS of the leader's units. Writes run one batch at a time off the event loop's media
 * path; a failed write (full disk, store down) or a backlog past MAX_BACKLOG_BYTES stops the
 * recording with the reason, and the stream goes on.
 */

import type { Logger } from '@airwave/media';
import type { StreamSink } from '@airwave/media/hub/live-stream';
import { CmafPackager } from '@airwave/media/protocols/shared/cmaf/cmaf-packager';
import type { CmafTrackWriter } from '@airwave/media/protocols/shared/cmaf/cmaf-track-writer';
import type { CmafSegment, CmafTrackName } from '@airwave/media/protocols/shared/cmaf/cmaf-types';
import type { MediaUnit } from '@airwave/media/stream/media-unit';
import type { StreamDescription } from '@airwave/media/stream/track';
import { initKey, segmentKey } from '../../domain/recordings/recording-keys.js';
import { type IndexedSegment, type RecordedTrack, SegmentIndexWriter } from '../../domain/recordings/segment-index.js';
import type { ObjectStorage } from '../../storage/object-storage.js';
import { SegmentPacks } from './segment-packs.js';

/** Bytes of closed segments waiting for storage before the recording gives up. */
export const MAX_BACKLOG_BYTES = 256 * 1024 * 1024;

/** Leader units a closed segment waits for the other tracks' segments of its cut before it is written alone (~0.1 s of 30 fps video). */
export const HOLD_LEADER_UNITS = 3;

/** Totals of a recording so far (leading track for durations and counts). */
export interface RecordingTotals {
  readonly segmentCount: number;
  readonly durationMs: number;
  readonly sizeBytes: number;
}

/** What a recorder tells its owner. */
export interface LiveRecorderEvents {
  /** A segment of the leading track is written and indexed. */
  segmentWritten(segment: IndexedSegment, totals: RecordingTotals): void;
  /** Storage failed; the recorder stopped writing. */
  failed(reason: string): void;
}

/** One closed segment on its way to storage. */
interface Pending {
  readonly track: CmafTrackWriter;
  readonly segment: CmafSegment;
  readonly writer: CmafTrackName;
  readonly leader: boolean;
  /** The segment's bytes in order (boxes, then samples' bytes: not copied). */
  readonly pieces: readonly Uint8Array[];
  readonly init: Uint8Array | undefined;
  /** Its index entry (its place in the pack added when its batch is queued). */
  entry: IndexedSegment;
  readonly described: RecordedTrack;
}

/**
 * Segment and part targets of recordings: 2 s segments as the live outputs, one part (one movie
 * fragment) per segment, its samples' bytes written where they are, not copied (ADR 0062).
 */
const RECORDING_PACKAGER = {
  segmentTargetSeconds: 2,
  partTargetSeconds: 2,
  windowSegments: 3,
  gatherSamples: true,
} as const;

/** The recorder of one stream into one storage prefix. */
export class LiveRecorder implements StreamSink {
  private readonly packager: CmafPackager;
  private readonly index: SegmentIndexWriter;
  private readonly packs: SegmentPacks | undefined;
  private readonly lastWritten = new Map<CmafTrackName, number>();
  private readonly initsWritten = new Set<string>();
  private readonly offsets = new Map<CmafTrackName, number>();
  private queue: Promise<void> = Promise.resolve();
  /** Closed segments of the current cut not yet queued (waiting for the other tracks'). */
  private held: Pending[] = [];
  /** Leader units seen since a segment was held. */
  private heldUnits = 0;
  private backlog = 0;
  /** The packager's version at the last look for closed segments. */
  private seenVersion = -1;
  private failure: string | undefined;
  private totals: RecordingTotals = { segmentCount: 0, durationMs: 0, sizeBytes: 0 };

  constructor(
    private readonly storage: ObjectStorage,
    private readonly prefix: string,
    private readonly events: LiveRecorderEvents,
    private readonly log: Logger,
  ) {
    this.packager = new CmafPackager({ ...RECORDING_PACKAGER, log });
    this.index = new SegmentIndexWriter(storage, prefix);
    this.packs = SegmentPacks.of(storage, prefix);
  }

  /** Why the recorder stopped writing, if it failed. */
  get failed(): string | undefined {
    return this.failure;
  }

  /** Totals of what is durable. */
  get written(): RecordingTotals {
    return this.totals;
  }

  /** Every durable segment so far. */
  get segments(): readonly IndexedSegment[] {
    return this.index.segments;
  }

  onDescription(description: StreamDescription): void {
    this.packager.onDescription(description);
  }

  onUnit(unit: MediaUnit): void {
    if (this.failure !== undefined) {
      return;
    }
    this.packager.onUnit(unit);
    this.collect();
    if (
      this.held.length > 0 &&
      unit.trackId === this.packager.leader?.track.id &&
      ++this.heldUnits > HOLD_LEADER_UNITS
    ) {
      this.queueHeld();
    }
  }

  onInterrupted(): void {
    this.packager.onInterrupted();
    this.collect();
    this.queueHeld();
  }

  onEnd(reason: string): void {
    this.packager.onEnd(reason);
    this.collect();
    this.queueHeld();
  }

  /** Resolves once every closed segment is written and indexed (or the recorder failed). */
  async drain(): Promise<void> {
    this.queueHeld();
    let seen: Promise<void>;
    do {
      seen = this.queue;
      await seen;
    } while (seen !== this.queue);
  }

  /** Drains, then brings the packs and the index to stable storage and releases them (the recording is over). */
  async close(): Promise<void> {
    await this.drain();
    for (const release of [() => this.packs?.close(), () => this.index.close()]) {
      try {
        await release();
      } catch (error) {
        this.fail(error instanceof Error ? error.message : String(error));
      }
    }
  }

  /** Queues the segments that closed since the last look (only when the packager moved). */
  private collect(): void {
    const version = this.packager.version;
    if (version === this.seenVersion) {
      return;
    }
    this.seenVersion = version;
    for (const writer of this.packager.tracks) {
      const last = this.lastWritten.get(writer.name) ?? -1;
      const segments = writer.segments;
      let from = segments.length;
      while (from > 0 && (segments[from - 1] as CmafSegment).msn > last) {
        from--;
      }
      for (let i = from; i < segments.length; i++) {
        const segment = segments[i] as CmafSegment;
        if (segment.data !== undefined) {
          this.lastWritten.set(writer.name, segment.msn);
          this.hold(this.pending(writer, segment));
        }
      }
    }
  }

  /** Holds a closed segment until its cut's segments of every track are closed, then queues them together. */
  private hold(item: Pending): void {
    if (this.held.some((held) => held.writer === item.writer)) {
      this.queueHeld();
    }
    if (this.held.length === 0) {
      this.heldUnits = 0;
    }
    this.held.push(item);
    if (this.held.length >= this.packager.tracks.length) {
      this.queueHeld();
    }
  }

  /** Queues what is held as one batch. */
  private queueHeld(): void {
    const batch = this.held;
    if (batch.length > 0) {
      this.held = [];
      this.enqueue(batch);
    }
  }

  /** What writing one closed segment takes: its bytes, its index entry and its track's description. */
  private pending(writer: CmafTrackWriter, segment: CmafSegment): Pending {
    const bytes = segment.bytes;
    const track = writer.trackOf(segment.initVersion);
    const offsetMs = this.offsets.get(writer.name) ?? 0;
    this.offsets.set(writer.name, offsetMs + (segment.duration * 1000) / track.timescale);
    return {
      track: writer,
      segment,
      writer: writer.name,
      leader: writer === this.packager.leader,
      pieces: segment.pieces ?? [],
      init: writer.init(segment.initVersion),
      entry: {
        track: writer.name,
        msn: segment.msn,
        init: segment.initVersion,
        timescale: track.timescale,
        start: segment.startTime,
        duration: segment.duration,
        ept: segment.earliestPresentationTime,
        wallMs: segment.programDateTimeMs,
        offsetMs: Math.round(offsetMs),
        discontinuity: segment.discontinuity,
        bytes,
      },
      described: {
        track: writer.name,
        version: segment.initVersion,
        codecString: track.codecString,
        timescale: track.timescale,
        ...(track.kind === 'video'
          ? { width: track.width, height: track.height }
          : { sampleRate: track.sampleRate, channels: track.channels }),
      },
    };
  }

  /**
   * Queues one batch (the segments of every track one cut closed): new init segments stored
   * stably first, then the segments written — one append of them all to the pack, back to back
   * in batch order — then their index lines in one append.
   */
  private enqueue(batch: readonly Pending[]): void {
    const bytes = batch.reduce((sum, item) => sum + item.entry.bytes, 0);
    this.backlog += bytes;
    if (this.backlog > MAX_BACKLOG_BYTES) {
      this.fail(`storage too slow: ${this.backlog} bytes of segments waiting`);
      return;
    }
    const places = this.packs?.place(batch.map((item) => item.entry.bytes));
    places?.forEach((place, i) => {
      const item = batch[i] as Pending;
      item.entry = { ...item.entry, ...place };
    });
    this.queue = this.queue.then(async () => {
      if (this.failure !== undefined) {
        return;
      }
      try {
        for (const item of batch) {
          const initId = `${item.writer}-${item.entry.init}`;
          if (!this.initsWritten.has(initId) && item.init) {
            await this.storage.put(initKey(this.prefix, item.writer, item.entry.init), item.init);
            await this.index.describe(item.described);
            this.initsWritten.add(initId);
          }
        }
        await this.writeBatch(batch);
        this.backlog -= bytes;
        for (const item of batch) {
          item.track.release(item.segment);
        }
        await this.index.append(
          batch.map((item) => item.entry),
          this.backlog === 0,
        );
        for (const item of batch) {
          const leader = item.leader;
          const entry = item.entry;
          this.totals = {
            segmentCount: this.totals.segmentCount + (leader ? 1 : 0),
            durationMs: leader
              ? Math.round(entry.offsetMs + (entry.duration * 1000) / entry.timescale)
              : this.totals.durationMs,
            sizeBytes: this.totals.sizeBytes + item.entry.bytes,
          };
          if (leader) {
            this.events.segmentWritten(entry, this.totals);
          }
        }
      } catch (error) {
        this.fail(error instanceof Error ? error.message : String(error));
      }
    });
  }

  /** Appends a batch's segments to the pack in one write, or writes each as an object of its own (`written` durability, ADR 0023). */
  private async writeBatch(batch: readonly Pending[]): Promise<void> {
    const pack = batch[0]?.entry.pack;
    if (this.packs && pack !== undefined) {
      await this.packs.write(
        pack,
        batch.flatMap((item) => item.pieces),
      );
      return;
    }
    await Promise.all(
      batch.map((item) =>
        this.storage.put(segmentKey(this.prefix, item.writer, item.entry.msn), Buffer.concat(item.pieces), {
          durability: 'written',
        }),
      ),
    );
  }

  private fail(reason: string): void {
    if (this.failure !== undefined) {
      return;
    }
    this.failure = reason;
    this.log.error({ prefix: this.prefix, reason }, 'recording stopped: storage failed');
    this.events.failed(reason);
  }
}
