/**
 * Finalizes the recordings a killed process left open on this node: every segment the index on
 * storage lists was written before it was indexed, so after a kill the totals and chapters are
 * rebuilt from the index and the recording ends `completed` — what was lost is at most the
 * segment that was open — or `failed` when nothing was written. Segments are not fsynced (ADR
 * 0023): after a power loss the index's last VERIFIED_TAIL entries are checked against the
 * stored sizes and the index is cut before the first segment the disk did not keep.
 */
import type { Logger } from '@airwave/media';
import { ChapterCutter } from '../../domain/recordings/chapter-cutter.js';
import type { RecordingLifecycle } from '../../domain/recordings/recording-lifecycle.js';
import type { RecordingsStore } from '../../domain/recordings/recordings.store.js';
import { segmentKept } from '../../domain/recordings/segment-bytes.js';
import {
  type IndexedSegment,
  type RecordingIndex,
  readRecordingIndex,
  rewriteRecordingIndex,
} from '../../domain/recordings/segment-index.js';
import { leaderSegments } from '../../domain/recordings/segment-selection.js';
import type { ObjectStorage } from '../../storage/object-storage.js';

/** Index entries checked against storage on recovery: 2 min of media, past the kernel's 30 s writeback delay. */
export const VERIFIED_TAIL = 120;

/** The index's segments up to the first of its last VERIFIED_TAIL whose stored object is missing or of another size. */
export async function verifiedSegments(
  storage: ObjectStorage,
  prefix: string,
  segments: readonly IndexedSegment[],
): Promise<readonly IndexedSegment[]> {
  for (let i = Math.max(0, segments.length - VERIFIED_TAIL); i < segments.length; i++) {
    const segment = segments[i] as IndexedSegment;
    if (!(await segmentKept(storage, prefix, segment))) {
      return segments.slice(0, i);
    }
  }
  return segments;
}

/** Finalizes every open recording of `nodeId`; returns how many. */
export async function recoverRecordings(deps: {
  readonly store: RecordingsStore;
  readonly storage: ObjectStorage;
  readonly lifecycle: RecordingLifecycle;
  readonly nodeId: string;
  readonly log: Logger;
}): Promise<number> {
  const open = await deps.store.openOnNode(deps.nodeId);
  for (const recording of open) {
    const listed = await readRecordingIndex(deps.storage, recording.storagePrefix);
    const kept = await verifiedSegments(deps.storage, recording.storagePrefix, listed.segments);
    if (kept.length < listed.segments.length) {
      await rewriteRecordingIndex(deps.storage, recording.storagePrefix, kept);
      deps.log.warn(
        { recordingId: recording.id, dropped: listed.segments.length - kept.length },
        'recording index listed segments storage did not keep (power loss): dropped from the index',
      );
    }
    const index: RecordingIndex = { segments: kept, tracks: listed.tracks };
    const leader = leaderSegments(index);
    const existing = await deps.store.artifactsOf(recording.id, 'CHAPTER');
    const chaptered = existing.reduce((last, chapter) => Math.max(last, chapter.lastSegment), -1);
    const plan = await deps.lifecycle.chapterPlanFor(recording.streamId);
    const cutter = new ChapterCutter(plan.intervalMs);
    for (const segment of leader.filter((entry) => entry.msn > chaptered)) {
      const closed = cutter.add(segment);
      if (closed) {
        await deps.lifecycle.chapter(recording, closed, plan);
      }
    }
    const last = cutter.close();
    if (last) {
      await deps.lifecycle.chapter(recording, last, plan);
    }
    const final = leader[leader.length - 1];
    const totals = {
      segmentCount: leader.length,
      durationMs: final ? Math.round(final.offsetMs + (final.duration * 1000) / final.timescale) : 0,
      sizeBytes: index.segments.reduce((sum, segment) => sum + segment.bytes, 0),
    };
    await deps.lifecycle.finish(recording.id, totals, undefined);
    deps.log.warn({ recordingId: recording.id, ...totals }, 'recording left open by a stopped process finalized');
  }
  return open.length;
}
