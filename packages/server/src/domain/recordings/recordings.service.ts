/**
 * Recordings for the API (frameworks.md §1.7, §1.10): startDVR / stopDVR / deleteDVR, the
 * chapters of a recording, and the tenant's storage artifacts. Everything is tenant-scoped:
 * another tenant's stream, recording or chapter answers NOT_FOUND.
 */

import type { ObjectStorage } from '../../storage/object-storage.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { fromGlobalId, isUuid } from '../ids.js';
import type { StreamsService } from '../streams/streams.service.js';
import type { VodAssetRecord } from '../vod/vod-asset.js';
import { isArtifactHash } from './artifact-ids.js';
import type { ArtifactKind, ArtifactRecord, RecordingRecord } from './recording.js';
import type { RecordingEvents } from './recording-events.js';
import { artifactPrefix } from './recording-keys.js';
import { OPEN_STATUSES, type RecordingsStore } from './recordings.store.js';

/** What the API needs of the node's recorders. */
export interface RecorderControl {
  /** Starts recording a stream live on this node; undefined when it is not live here. */
  start(streamId: string, tenantId: string): Promise<RecordingRecord | undefined>;
  /** Stops (and finalizes) the recording of a stream on this node. */
  stop(streamId: string): Promise<void>;
  /** The open recording of a stream on this node. */
  recordingOf(streamId: string): RecordingRecord | undefined;
}

/** Kinds storageArtifactsConnection lists. */
export type StorageArtifactKind = 'DVR' | ArtifactKind | 'VOD';

/** One listed artifact: a recording or a chapter or clip. */
export type StorageArtifactItem =
  | { readonly kind: 'DVR'; readonly recording: RecordingRecord }
  | { readonly kind: ArtifactKind; readonly artifact: ArtifactRecord }
  | { readonly kind: 'VOD'; readonly asset: VodAssetRecord };

/** Where the VOD assets listed among the artifacts come from (the VOD uploads service). */
export interface VodAssetLister {
  /** A page of the tenant's assets (not deleted or expired), newest first, with the total. */
  list(tenantId: string, limit: number, offset: number): Promise<{ rows: VodAssetRecord[]; total: number }>;
}

/** A page of storage artifacts. */
export interface StorageArtifactsPage {
  readonly items: readonly StorageArtifactItem[];
  readonly totalCount: number;
  readonly limit: number;
  readonly offset: number;
}

/** Largest page of storage artifacts and chapters. */
export const MAX_PAGE = 500;

/** The recordings service. */
export class RecordingsService {
  constructor(
    private readonly deps: {
      readonly store: RecordingsStore;
      readonly streams: StreamsService;
      readonly recorders: RecorderControl;
      readonly storage: ObjectStorage;
      readonly events?: RecordingEvents;
      /** VOD uploads, listed as kind VOD (they have no stream: never listed for a streamId). */
      readonly vodAssets?: VodAssetLister;
    },
  ) {}

  /** Starts recording a live stream (startDVR); the open recording when it already records. */
  async startDvr(tenantId: string, streamId: string): Promise<RecordingRecord> {
    const stream = await this.deps.streams.get(tenantId, streamId);
    const recording = await this.deps.recorders.start(stream.id, tenantId);
    if (!recording) {
      throw new ValidationError(
        'streamId',
        'live',
        'the stream is not live on this node; startDVR records a live stream',
      );
    }
    return recording;
  }

  /** A recording of the tenant by dvrHash or UUID. */
  async recording(tenantId: string, dvrId: string, field = 'dvrHash'): Promise<RecordingRecord> {
    const trimmed = dvrId.trim();
    const id = isArtifactHash(trimmed) || trimmed === '' ? trimmed : fromGlobalId('DVRRequest', trimmed, field);
    const found =
      isUuid(id) || isArtifactHash(id) ? await this.deps.store.recording(tenantId, id, isUuid(id)) : undefined;
    if (!found) {
      if (id === '') {
        throw new ValidationError(field, 'required', `${field} is required`);
      }
      throw new NotFoundError('DVRRequest', id);
    }
    return found;
  }

  /** Stops a recording (stopDVR) and answers it as finalized. */
  async stopDvr(tenantId: string, dvrHash: string): Promise<RecordingRecord> {
    const recording = await this.recording(tenantId, dvrHash);
    if (this.deps.recorders.recordingOf(recording.streamId)?.id === recording.id) {
      await this.deps.recorders.stop(recording.streamId);
    }
    return this.recording(tenantId, recording.id);
  }

  /** Deletes a recording, its chapters and clips, and their bytes (deleteDVR). */
  async deleteDvr(tenantId: string, dvrHash: string): Promise<RecordingRecord> {
    const recording = await this.stopDvr(tenantId, dvrHash);
    await this.remove(recording);
    return recording;
  }

  /**
   * Deletes a finished recording's objects (its chapters' and clips' too), then its row; the
   * deleted events go out once, from the caller that deleted the row (deleteDVR, retention).
   */
  async remove(recording: RecordingRecord): Promise<void> {
    const artifacts = [
      ...(await this.deps.store.artifactsOf(recording.id, 'CHAPTER')),
      ...(await this.deps.store.artifactsOf(recording.id, 'CLIP')),
    ];
    for (const artifact of artifacts) {
      await this.deps.storage.deletePrefix(artifactPrefix(artifact.id));
    }
    await this.deps.storage.deletePrefix(recording.storagePrefix);
    if (await this.deps.store.deleteRecording(recording.id)) {
      for (const artifact of artifacts) {
        this.deps.events?.artifact('storage.artifact_deleted', artifact);
      }
      this.deps.events?.recordingDeleted(recording);
    }
  }

  /** Chapters of a recording overlapping a wall-clock range (epoch ms), a page at a time. */
  async chapters(
    tenantId: string,
    dvrId: string,
    range: { startMs?: number | null; endMs?: number | null },
    pageSize: number | null | undefined,
    pageToken: string | null | undefined,
  ): Promise<{ chapters: ArtifactRecord[]; nextPageToken: string | null; recording: RecordingRecord }> {
    const recording = await this.recording(tenantId, dvrId, 'dvrId');
    const size = pageSize ?? 200;
    if (!Number.isInteger(size) || size < 1 || size > 1000) {
      throw new ValidationError('pageSize', 'range', 'pageSize must be between 1 and 1000');
    }
    const offset = pageToken ? Number(Buffer.from(pageToken, 'base64url').toString('utf8')) : 0;
    if (!Number.isInteger(offset) || offset < 0) {
      throw new ValidationError('pageToken', 'format', 'pageToken is not one this service issued');
    }
    const all = (await this.deps.store.artifactsOf(recording.id, 'CHAPTER')).filter(
      (chapter) =>
        (range.startMs == null || chapter.endUnixMs > range.startMs) &&
        (range.endMs == null || chapter.startUnixMs < range.endMs),
    );
    const chapters = all.slice(offset, offset + size);
    const next = offset + size < all.length ? Buffer.from(String(offset + size)).toString('base64url') : null;
    return { chapters, nextPageToken: next, recording };
  }

  /** The chapter of a recording that covers a wall-clock range, or null. */
  async chapter(tenantId: string, dvrId: string, startMs: number, endMs: number): Promise<ArtifactRecord | null> {
    if (!Number.isFinite(startMs) || !Number.isFinite(endMs) || endMs < startMs) {
      throw new ValidationError('endMs', 'range', 'endMs must be a time at or after startMs');
    }
    const recording = await this.recording(tenantId, dvrId, 'dvrId');
    const chapters = await this.deps.store.artifactsOf(recording.id, 'CHAPTER');
    return (
      chapters.find((chapter) => chapter.startUnixMs <= startMs + 1 && chapter.endUnixMs >= endMs - 1) ??
      chapters.find((chapter) => chapter.startUnixMs < endMs && chapter.endUnixMs > startMs) ??
      null
    );
  }

  /** The tenant's recordings, chapters, clips and VOD assets of the kinds asked, newest first (offset paging). */
  async artifacts(
    tenantId: string,
    input: {
      kinds?: readonly StorageArtifactKind[] | null;
      streamId?: string | null;
      first?: number | null;
      offset?: number | null;
    },
  ): Promise<StorageArtifactsPage> {
    const limit = input.first ?? 25;
    const offset = input.offset ?? 0;
    if (!Number.isInteger(limit) || limit < 0 || limit > MAX_PAGE) {
      throw new ValidationError('input.first', 'range', `first must be between 0 and ${MAX_PAGE}`);
    }
    if (!Number.isInteger(offset) || offset < 0) {
      throw new ValidationError('input.offset', 'range', 'offset must be 0 or more');
    }
    const streamId = input.streamId ? (await this.deps.streams.get(tenantId, input.streamId)).id : undefined;
    const kinds = input.kinds && input.kinds.length > 0 ? input.kinds : ['DVR', 'CLIP', 'VOD'];
    const cut = offset + limit;
    const items: StorageArtifactItem[] = [];
    let total = 0;
    if (kinds.includes('DVR')) {
      const page = await this.deps.store.listRecordings(tenantId, streamId, cut, 0);
      items.push(...page.rows.map((recording) => ({ kind: 'DVR' as const, recording })));
      total += page.total;
    }
    const artifactKinds = kinds.filter((kind): kind is ArtifactKind => kind === 'CHAPTER' || kind === 'CLIP');
    if (artifactKinds.length > 0) {
      const page = await this.deps.store.listArtifacts(tenantId, artifactKinds, streamId, cut, 0);
      items.push(...page.rows.map((artifact) => ({ kind: artifact.kind, artifact })));
      total += page.total;
    }
    if (kinds.includes('VOD') && streamId === undefined && this.deps.vodAssets) {
      const page = await this.deps.vodAssets.list(tenantId, cut, 0);
      items.push(...page.rows.map((asset) => ({ kind: 'VOD' as const, asset })));
      total += page.total;
    }
    const created = (item: StorageArtifactItem) =>
      (item.kind === 'DVR'
        ? item.recording.createdAt
        : item.kind === 'VOD'
          ? item.asset.createdAt
          : item.artifact.createdAt
      ).getTime();
    items.sort((a, b) => created(b) - created(a));
    return { items: items.slice(offset, cut), totalCount: total, limit, offset };
  }

  /** True when a recording is still being written. */
  static isOpen(recording: RecordingRecord): boolean {
    return OPEN_STATUSES.includes(recording.status);
  }
}
