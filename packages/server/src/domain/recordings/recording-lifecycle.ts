/**
 * The media plane's side of recordings: opens a recording row when a stream starts recording,
 * keeps its totals as segments become durable, closes chapters (every interval and at the end),
 * and finalizes the recording (completed, completed_partial after a storage failure, failed when
 * nothing was written). Chapters get their own playback ID and are handed to `renditions`
 * (progressive MP4 and MPEG-TS HLS made from the stored segments).
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from '@airwave/media';
import { newPlaybackId } from '../streams/random-ids.js';
import { newArtifactHash } from './artifact-ids.js';
import { type ChapterRange, rangeDurationMs } from './chapter-cutter.js';
import type { DvrChapterMode } from './chapter-settings.js';
import type { ArtifactKind, ArtifactRecord, RecordingRecord } from './recording.js';
import type { RecordingEvents } from './recording-events.js';
import { recordingPrefix } from './recording-keys.js';
import type { RecordingsStore } from './recordings.store.js';
import type { IndexedSegment } from './segment-index.js';

/** Makes an artifact's stored renditions (MP4, TS HLS) in the background. */
export interface ArtifactRenditions {
  enqueue(artifact: ArtifactRecord, recording: RecordingRecord): void;
}

/** Totals of a recording as the recorder reports them. */
export interface RecordingProgress {
  readonly segmentCount: number;
  readonly durationMs: number;
  readonly sizeBytes: number;
}

/** Options of the lifecycle. */
export interface RecordingLifecycleOptions {
  readonly store: RecordingsStore;
  readonly nodeId: string;
  readonly renditions: ArtifactRenditions;
  readonly log: Logger;
  /** Chapter length for long recordings, ms (0: one chapter per recording): the node's (WINDOW_SIZED). */
  readonly chapterIntervalMs: number;
  /** A stream's own chapter settings (dvrChapterMode); absent: every stream uses the node's. */
  readonly chapterPlanOf?: (streamId: string) => Promise<ChapterPlan>;
  readonly events?: RecordingEvents;
  readonly now?: () => Date;
}

/** How a recording is cut: the mode it follows and the chapter length, ms (0: one chapter, at the end). */
export interface ChapterPlan {
  readonly mode: DvrChapterMode;
  readonly intervalMs: number;
}

/** Builds the artifact row of a run of leading-track segments. */
export function artifactOfRange(
  recording: RecordingRecord,
  kind: ArtifactKind,
  range: readonly IndexedSegment[],
  at: Date,
  extra: Partial<Pick<ArtifactRecord, 'title' | 'description' | 'params' | 'expiresAt'>> = {},
): ArtifactRecord {
  const first = range[0] as IndexedSegment;
  const last = range[range.length - 1] as IndexedSegment;
  return {
    id: randomUUID(),
    tenantId: recording.tenantId,
    streamId: recording.streamId,
    recordingId: recording.id,
    kind,
    hash: newArtifactHash(at),
    playbackId: newPlaybackId(),
    title: extra.title ?? null,
    description: extra.description ?? null,
    status: 'processing',
    firstSegment: first.msn,
    lastSegment: last.msn,
    startUnixMs: first.wallMs,
    endUnixMs: Math.round(last.wallMs + (last.duration * 1000) / last.timescale),
    startOffsetMs: first.offsetMs,
    durationMs: rangeDurationMs(range),
    sizeBytes: range.reduce((sum, segment) => sum + segment.bytes, 0),
    hasGaps: range.slice(1).some((segment) => segment.discontinuity),
    params: extra.params ?? {},
    errorMessage: null,
    createdAt: at,
    updatedAt: at,
    expiresAt: extra.expiresAt ?? null,
  };
}

/** Recording rows and chapters as the recorder goes. */
export class RecordingLifecycle {
  private readonly now: () => Date;

  constructor(private readonly options: RecordingLifecycleOptions) {
    this.now = options.now ?? (() => new Date());
  }

  /** Chapter length for long recordings, ms. */
  get chapterIntervalMs(): number {
    return this.options.chapterIntervalMs;
  }

  /** How recordings of a stream are cut into chapters (read when a recording starts). */
  async chapterPlanFor(streamId: string): Promise<ChapterPlan> {
    return (
      (await this.options.chapterPlanOf?.(streamId)) ?? {
        mode: 'WINDOW_SIZED',
        intervalMs: this.options.chapterIntervalMs,
      }
    );
  }

  /** Whether the stream records every publish (`record: true`), with its tenant. */
  async recordsEveryPublish(streamId: string): Promise<{ tenantId: string } | undefined> {
    const stream = await this.options.store.recordable(streamId);
    return stream?.record ? { tenantId: stream.tenantId } : undefined;
  }

  /** Opens a new recording of a stream on this node. */
  async open(streamId: string, tenantId: string): Promise<RecordingRecord> {
    const at = this.now();
    const id = randomUUID();
    const recording: RecordingRecord = {
      id,
      tenantId,
      streamId,
      dvrHash: newArtifactHash(at),
      playbackId: newPlaybackId(),
      status: 'recording',
      nodeId: this.options.nodeId,
      storagePrefix: recordingPrefix(id),
      startedAt: at,
      endedAt: null,
      durationMs: 0,
      sizeBytes: 0,
      segmentCount: 0,
      errorMessage: null,
      createdAt: at,
      updatedAt: at,
    };
    await this.options.store.insertRecording(recording);
    return recording;
  }

  /** Stores the totals after a durable segment. */
  async progress(recordingId: string, totals: RecordingProgress): Promise<void> {
    await this.options.store.updateRecording(recordingId, { ...totals, updatedAt: this.now() });
  }

  /** Makes a chapter of a closed range (cut under `plan`, kept in its params) and queues its renditions. */
  async chapter(recording: RecordingRecord, range: ChapterRange, plan?: ChapterPlan): Promise<ArtifactRecord> {
    const at = this.now();
    const chapter = artifactOfRange(recording, 'CHAPTER', range, at, {
      title: `Chapter at ${new Date(range[0]?.wallMs ?? at.getTime()).toISOString()}`,
      params: plan ? { mode: plan.mode, intervalSeconds: Math.round(plan.intervalMs / 1000) || null } : {},
    });
    await this.options.store.insertArtifact(chapter);
    this.options.events?.artifact('storage.artifact_created', chapter);
    this.options.renditions.enqueue(chapter, recording);
    return chapter;
  }

  /** Ends a recording: totals, end time and the final status; a storage failure makes it partial. */
  async finish(recordingId: string, totals: RecordingProgress, failure: string | undefined): Promise<void> {
    const status = totals.segmentCount === 0 ? 'failed' : failure ? 'completed_partial' : 'completed';
    const finished = await this.options.store.updateRecording(recordingId, {
      ...totals,
      status,
      endedAt: this.now(),
      updatedAt: this.now(),
      errorMessage: failure ?? (totals.segmentCount === 0 ? 'no media was recorded' : null),
    });
    this.options.log.info({ recordingId, status, ...totals }, 'recording finished');
    if (finished) {
      this.options.events?.dvr(status === 'failed' ? 'dvr.failed' : 'dvr.stopped', finished, failure);
    }
  }
}
