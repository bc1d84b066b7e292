/**
 * Finalizes the recordings a killed process left open on this node: every segment the index on
 * storage lists is durable (it is indexed only after its bytes are), so the totals and chapters
 * are rebuilt from the index and the recording ends `completed` — what was lost is at most the
 * segment that was open — or `failed` when nothing was written.
 */
import type { Logger } from '@airwave/media';
import { ChapterCutter } from '../../domain/recordings/chapter-cutter.js';
import type { RecordingLifecycle } from '../../domain/recordings/recording-lifecycle.js';
import type { RecordingsStore } from '../../domain/recordings/recordings.store.js';
import { readRecordingIndex } from '../../domain/recordings/segment-index.js';
import { leaderSegments } from '../../domain/recordings/segment-selection.js';
import type { ObjectStorage } from '../../storage/object-storage.js';

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
    const index = await readRecordingIndex(deps.storage, recording.storagePrefix);
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
