/**
 * The recorders of one node: attached to every stream the hub opens, a stream with `record: true`
 * gets a LiveRecorder from its first keyframe (the cached GOP is replayed when the lookup
 * returns); `startDVR` attaches one to a live stream that was not recording. A publisher that
 * reconnects inside the hub's reconnect window continues the same LiveStream and so the same
 * recording (the packager marks the discontinuity); the stream's end (or stopDVR) drains the
 * recorder, closes the last chapter and finalizes the recording.
 */
import type { Hub, LiveStream, Logger } from '@airwave/media';
import { ChapterCutter } from '../../domain/recordings/chapter-cutter.js';
import type { RecordingRecord } from '../../domain/recordings/recording.js';
import type { ChapterPlan, RecordingLifecycle } from '../../domain/recordings/recording-lifecycle.js';
import type { IndexedSegment } from '../../domain/recordings/segment-index.js';
import type { ObjectStorage } from '../../storage/object-storage.js';
import { LiveRecorder, type RecordingTotals } from './live-recorder.js';

/** What the recorders tell the rest of the service (events). */
export interface RecorderEvents {
  started?(recording: RecordingRecord): void;
  /** Every written leading-track segment; `reported` when the recording's row was updated with these totals (reportDue, a chapter's end). */
  segmentWritten?(
    recording: RecordingRecord,
    segment: IndexedSegment,
    totals: RecordingTotals,
    reported: boolean,
  ): void;
  failed?(recording: RecordingRecord, reason: string): void;
  finished?(recording: RecordingRecord): void;
}

/**
 * The recording's row (totals) is updated, and the DVR lifecycle told, on its first segment, its
 * fifth (10 s of media: a new recording's length shows soon) and then every this many (30 s of
 * media) rather than every segment: one UPDATE and one event per stream every 30 s (ADR 0022,
 * 0023). The index on storage is what crash recovery reads, so nothing depends on the row being
 * newer.
 */
export const REPORT_EVERY_SEGMENTS = 15;

/** Whether the totals after `segmentCount` leading-track segments go to the recording's row. */
export function reportDue(segmentCount: number): boolean {
  return segmentCount === 1 || (segmentCount >= 5 && (segmentCount - 5) % REPORT_EVERY_SEGMENTS === 0);
}

interface Active {
  readonly recording: RecordingRecord;
  readonly recorder: LiveRecorder;
  readonly detach: () => void;
  readonly cutter: ChapterCutter;
  readonly plan: ChapterPlan;
  /** Chapter writes and progress updates, in order. */
  chain: Promise<void>;
  stopping: Promise<void> | undefined;
}

/** Options of the recorders. */
export interface RecordersOptions {
  readonly hub: Hub;
  readonly storage: ObjectStorage;
  readonly lifecycle: RecordingLifecycle;
  readonly log: Logger;
  readonly events?: RecorderEvents;
}

/** Every recording running on this node, by stream. */
export class Recorders {
  private readonly active = new Map<string, Active>();
  private readonly pending = new Set<Promise<unknown>>();

  constructor(private readonly options: RecordersOptions) {
    options.hub.addOutput((stream) => {
      this.track(this.autoStart(stream));
      return { close: () => void this.track(this.stop(stream.streamId)) };
    });
  }

  /** The open recording of a stream on this node, if any. */
  recordingOf(streamId: string): RecordingRecord | undefined {
    return this.active.get(streamId)?.recording;
  }

  /** Starts recording a live stream of this node (startDVR); the open recording when it already records; undefined when not live here. */
  async start(streamId: string, tenantId: string): Promise<RecordingRecord | undefined> {
    const existing = this.active.get(streamId);
    if (existing) {
      return existing.recording;
    }
    const stream = this.options.hub.getByStreamId(streamId);
    if (!stream || stream.endReason !== undefined) {
      return undefined;
    }
    return this.begin(stream, tenantId);
  }

  /** Stops the recording of a stream (stopDVR, stream end); resolves once it is finalized. */
  stop(streamId: string): Promise<void> {
    const active = this.active.get(streamId);
    if (!active) {
      return Promise.resolve();
    }
    active.stopping ??= this.finalize(streamId, active);
    return active.stopping;
  }

  /** Stops every recording (shutdown) and waits for what is pending. */
  async close(): Promise<void> {
    await Promise.all([...this.active.keys()].map((streamId) => this.stop(streamId)));
    await Promise.all([...this.pending]);
  }

  private track(promise: Promise<unknown>): void {
    const guarded = promise.catch((error: unknown) => this.options.log.error({ err: error }, 'recorder task failed'));
    this.pending.add(guarded);
    void guarded.finally(() => this.pending.delete(guarded));
  }

  private async autoStart(stream: LiveStream): Promise<void> {
    const stream_ = await this.options.lifecycle.recordsEveryPublish(stream.streamId);
    if (stream_ && stream.endReason === undefined && !this.active.has(stream.streamId)) {
      await this.begin(stream, stream_.tenantId);
    }
  }

  private async begin(stream: LiveStream, tenantId: string): Promise<RecordingRecord> {
    const { lifecycle, storage, log, events } = this.options;
    const plan = await lifecycle.chapterPlanFor(stream.streamId);
    const recording = await lifecycle.open(stream.streamId, tenantId);
    const existing = this.active.get(stream.streamId);
    if (existing) {
      // A concurrent start won: this row is dropped as failed.
      await lifecycle.finish(recording.id, { segmentCount: 0, durationMs: 0, sizeBytes: 0 }, 'superseded');
      return existing.recording;
    }
    const cutter = new ChapterCutter(plan.intervalMs);
    let active: Active | undefined;
    const recorder = new LiveRecorder(
      storage,
      recording.storagePrefix,
      {
        segmentWritten: (segment, totals) => {
          const closed = cutter.add(segment);
          if (!active) {
            return;
          }
          const current = active;
          const reported = closed !== undefined || reportDue(totals.segmentCount);
          current.chain = current.chain.then(async () => {
            if (reported) {
              await lifecycle.progress(recording.id, totals);
            }
            if (closed) {
              await lifecycle.chapter(recording, closed, plan);
            }
            events?.segmentWritten?.(recording, segment, totals, reported);
          });
          this.track(current.chain);
        },
        failed: (reason) => {
          events?.failed?.(recording, reason);
          void this.stop(stream.streamId);
        },
      },
      log.child({ recordingId: recording.id, streamId: stream.streamId }),
    );
    const detach = stream.attach(recorder);
    active = { recording, recorder, detach, cutter, plan, chain: Promise.resolve(), stopping: undefined };
    this.active.set(stream.streamId, active);
    log.info({ recordingId: recording.id, streamId: stream.streamId }, 'recording started');
    events?.started?.(recording);
    return recording;
  }

  private async finalize(streamId: string, active: Active): Promise<void> {
    const { recorder, recording, cutter, plan } = active;
    active.detach();
    recorder.onEnd('recording stopped');
    await recorder.close();
    await active.chain;
    const last = cutter.close();
    const lifecycle = this.options.lifecycle;
    if (last && recorder.written.segmentCount > 0) {
      await lifecycle.chapter(recording, last, plan);
    }
    await lifecycle.finish(recording.id, recorder.written, recorder.failed);
    if (this.active.get(streamId) === active) {
      this.active.delete(streamId);
    }
    this.options.events?.finished?.({ ...recording, ...recorder.written });
  }
}
