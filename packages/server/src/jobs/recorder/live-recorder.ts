/**
 * Records one live stream: a synchronous hub reader feeding its own CmafPackager (the same fMP4
 * the live CMAF outputs serve; no re-encode) and writing every segment to storage as it closes,
 * init segments first, then the index entry once the segment is durable. Writes run one at a
 * time off the event loop's media path; a failed write (full disk, store down) or a backlog past
 * MAX_BACKLOG_BYTES stops the recording with the reason, and the stream goes on.
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

/** Bytes of closed segments waiting for storage before the recording gives up. */
export const MAX_BACKLOG_BYTES = 256 * 1024 * 1024;

/** Totals of a recording so far (leading track for durations and counts). */
export interface RecordingTotals {
  readonly segmentCount: number;
  readonly durationMs: number;
  readonly sizeBytes: number;
}

/** What a recorder tells its owner. */
export interface LiveRecorderEvents {
  /** A segment of the leading track is durable and indexed. */
  segmentWritten(segment: IndexedSegment, totals: RecordingTotals): void;
  /** Storage failed; the recorder stopped writing. */
  failed(reason: string): void;
}

/** Segment and part targets of recordings: 2 s segments as the live outputs, one part per segment. */
const RECORDING_PACKAGER = { segmentTargetSeconds: 2, partTargetSeconds: 2, windowSegments: 4 } as const;

/** The recorder of one stream into one storage prefix. */
export class LiveRecorder implements StreamSink {
  private readonly packager: CmafPackager;
  private readonly index: SegmentIndexWriter;
  private readonly lastWritten = new Map<CmafTrackName, number>();
  private readonly initsWritten = new Set<string>();
  private readonly offsets = new Map<CmafTrackName, number>();
  private queue: Promise<void> = Promise.resolve();
  private backlog = 0;
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
  }

  onInterrupted(): void {
    this.packager.onInterrupted();
    this.collect();
  }

  onEnd(reason: string): void {
    this.packager.onEnd(reason);
    this.collect();
  }

  /** Resolves once every closed segment is durable (or the recorder failed). */
  async drain(): Promise<void> {
    let seen: Promise<void>;
    do {
      seen = this.queue;
      await seen;
    } while (seen !== this.queue);
  }

  /** Queues the segments that closed since the last call. */
  private collect(): void {
    for (const writer of this.packager.tracks) {
      const last = this.lastWritten.get(writer.name) ?? -1;
      const fresh = writer.segments.filter((segment) => segment.msn > last && segment.data !== undefined);
      for (const segment of fresh) {
        this.lastWritten.set(writer.name, segment.msn);
        this.enqueue(writer, segment);
      }
    }
  }

  private enqueue(writer: CmafTrackWriter, segment: CmafSegment): void {
    const data = segment.data as Uint8Array;
    const track = writer.trackOf(segment.initVersion);
    const init = writer.init(segment.initVersion);
    const offsetMs = this.offsets.get(writer.name) ?? 0;
    this.offsets.set(writer.name, offsetMs + (segment.duration * 1000) / track.timescale);
    const entry: IndexedSegment = {
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
      bytes: data.byteLength,
    };
    const described: RecordedTrack = {
      track: writer.name,
      version: segment.initVersion,
      codecString: track.codecString,
      timescale: track.timescale,
      ...(track.kind === 'video'
        ? { width: track.width, height: track.height }
        : { sampleRate: track.sampleRate, channels: track.channels }),
    };
    const leader = writer === this.packager.leader;
    this.backlog += data.byteLength;
    if (this.backlog > MAX_BACKLOG_BYTES) {
      this.fail(`storage too slow: ${this.backlog} bytes of segments waiting`);
      return;
    }
    this.queue = this.queue.then(async () => {
      if (this.failure !== undefined) {
        return;
      }
      try {
        const initId = `${writer.name}-${segment.initVersion}`;
        if (!this.initsWritten.has(initId) && init) {
          await this.storage.put(initKey(this.prefix, writer.name, segment.initVersion), init);
          await this.index.describe(described);
          this.initsWritten.add(initId);
        }
        await this.storage.put(segmentKey(this.prefix, writer.name, segment.msn), data);
        this.backlog -= data.byteLength;
        await this.index.append(entry, this.backlog === 0);
        this.totals = {
          segmentCount: this.totals.segmentCount + (leader ? 1 : 0),
          durationMs: leader
            ? Math.round(entry.offsetMs + (entry.duration * 1000) / entry.timescale)
            : this.totals.durationMs,
          sizeBytes: this.totals.sizeBytes + data.byteLength,
        };
        if (leader) {
          this.events.segmentWritten(entry, this.totals);
        }
      } catch (error) {
        this.fail(error instanceof Error ? error.message : String(error));
      }
    });
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
