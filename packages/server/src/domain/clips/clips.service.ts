/**
 * Clips (frameworks.md §1.8): createClip cuts a GOP-aligned range of a stream's recording — no
 * re-encode, the recorded CMAF segments are the clip — with its own playback ID; HLS over CMAF
 * and DASH play at once, the MP4 and MPEG-TS renditions follow. `clip`, `deleteClip`; all
 * tenant-scoped.
 */

import type { ObjectStorage } from '../../storage/object-storage.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { fromGlobalId, isUuid } from '../ids.js';
import { isArtifactHash } from '../recordings/artifact-ids.js';
import type { ArtifactRecord, RecordingRecord } from '../recordings/recording.js';
import type { RecordingEvents } from '../recordings/recording-events.js';
import { artifactPrefix } from '../recordings/recording-keys.js';
import { type ArtifactRenditions, artifactOfRange } from '../recordings/recording-lifecycle.js';
import type { RecordingsStore } from '../recordings/recordings.store.js';
import { readRecordingIndex } from '../recordings/segment-index.js';
import { leaderSegments } from '../recordings/segment-selection.js';
import type { StreamsService } from '../streams/streams.service.js';
import { futureTimestamp } from '../timestamps.js';
import { type ClipTimes, requestedRange, snapRange } from './clip-range.js';

/** Longest clip title and description. */
export const CLIP_TITLE_MAX = 255;
/** Longest clip description. */
export const CLIP_DESCRIPTION_MAX = 4096;
/** Recordings of a stream searched for a clip's range. */
const RECORDINGS_SEARCHED = 20;

/** createClip's input. */
export interface CreateClipInput extends ClipTimes {
  readonly streamId: string;
  readonly title: string;
  readonly description?: string | null;
  readonly expiresAt?: string | null;
}

/** The clips service. */
export class ClipsService {
  constructor(
    private readonly deps: {
      readonly store: RecordingsStore;
      readonly streams: StreamsService;
      readonly storage: ObjectStorage;
      readonly renditions: ArtifactRenditions;
      readonly events?: RecordingEvents;
      readonly now?: () => Date;
    },
  ) {}

  /** Cuts a clip; the returned record carries the snapped range. */
  async create(tenantId: string, input: CreateClipInput): Promise<ArtifactRecord> {
    const title = input.title.trim();
    if (title.length === 0 || title.length > CLIP_TITLE_MAX) {
      throw new ValidationError('input.title', 'length', `title must be 1 to ${CLIP_TITLE_MAX} characters`);
    }
    const description = input.description?.trim() || null;
    if (description && description.length > CLIP_DESCRIPTION_MAX) {
      throw new ValidationError(
        'input.description',
        'length',
        `description is at most ${CLIP_DESCRIPTION_MAX} characters`,
      );
    }
    const now = this.deps.now?.() ?? new Date();
    const expiresAt = input.expiresAt ? futureTimestamp(input.expiresAt, 'input.expiresAt', now) : null;
    const stream = await this.deps.streams.get(tenantId, input.streamId);
    const recordings = await this.deps.store.recordingsOfStream(stream.id, RECORDINGS_SEARCHED);
    if (recordings.length === 0) {
      throw new ValidationError('input.streamId', 'recorded', 'the stream has no recording to clip');
    }
    const { recording, range } = await this.locate(recordings, input);
    const clip = artifactOfRange(recording, 'CLIP', range, now, {
      title,
      description,
      expiresAt,
      params: {
        mode: input.mode ?? 'ABSOLUTE',
        startUnix: input.startUnix ?? null,
        stopUnix: input.stopUnix ?? null,
        startMedia: input.startMedia ?? null,
        stopMedia: input.stopMedia ?? null,
        duration: input.duration ?? null,
      },
    });
    await this.deps.store.insertArtifact(clip);
    this.deps.events?.artifact('storage.artifact_created', clip);
    this.deps.renditions.enqueue(clip, recording);
    return clip;
  }

  /** The recording holding the range and the snapped segments; the newest recording's error when none does. */
  private async locate(recordings: readonly RecordingRecord[], times: ClipTimes) {
    let firstError: unknown;
    for (const recording of recordings) {
      const segments = leaderSegments(await readRecordingIndex(this.deps.storage, recording.storagePrefix));
      const last = segments[segments.length - 1];
      const liveEdge = last ? last.wallMs + (last.duration * 1000) / last.timescale : recording.startedAt.getTime();
      const requested = requestedRange(times, liveEdge);
      try {
        return { recording, range: snapRange(segments, requested) };
      } catch (error) {
        firstError ??= error;
        if (requested.timeline === 'media') {
          break;
        }
      }
    }
    throw firstError;
  }

  /** A clip of the tenant by global ID, UUID or clip hash. */
  async get(tenantId: string, id: string): Promise<ArtifactRecord> {
    const trimmed = id.trim();
    const raw = isArtifactHash(trimmed) ? trimmed : fromGlobalId('Clip', trimmed);
    const clip =
      isUuid(raw) || isArtifactHash(raw)
        ? await this.deps.store.artifact(tenantId, 'CLIP', raw, isUuid(raw))
        : undefined;
    if (!clip) {
      throw new NotFoundError('Clip', trimmed);
    }
    return clip;
  }

  /** Deletes a clip and its stored renditions (the recording's segments stay). */
  async delete(tenantId: string, id: string): Promise<ArtifactRecord> {
    const clip = await this.get(tenantId, id);
    await this.remove(clip);
    return clip;
  }

  /** Deletes a clip's stored renditions, then its row; the deleted event goes out once, from the caller that deleted the row. */
  async remove(clip: ArtifactRecord): Promise<void> {
    await this.deps.storage.deletePrefix(artifactPrefix(clip.id));
    if (await this.deps.store.deleteArtifact(clip.id)) {
      this.deps.events?.artifact('storage.artifact_deleted', clip);
    }
  }
}
