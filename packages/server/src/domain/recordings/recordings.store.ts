/**
 * SQL of recordings and their artifacts (chapters, clips). Reads for the API are tenant-scoped;
 * the media plane addresses rows by id (it is trusted) and playback looks content up by playback ID.
 */
import { and, asc, count, desc, eq, gte, inArray, or, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { streamsTable } from '../streams/stream-tables.js';
import type { ArtifactKind, ArtifactRecord, RecordingRecord, RecordingStatus, StoredContent } from './recording.js';
import { mediaArtifactsTable, recordingsTable } from './recording-tables.js';

type RecordingRow = typeof recordingsTable.$inferSelect;
type ArtifactRow = typeof mediaArtifactsTable.$inferSelect;

function toRecording(row: RecordingRow): RecordingRecord {
  return { ...row, status: row.status as RecordingStatus };
}

function toArtifact(row: ArtifactRow): ArtifactRecord {
  return { ...row, kind: row.kind as ArtifactKind, status: row.status as ArtifactRecord['status'] };
}

/** Most rows one restart re-check reads (jobs beyond it wait for the next start). */
const RECHECK_LIMIT = 500;

/** Statuses of a recording still being written. */
export const OPEN_STATUSES: readonly RecordingStatus[] = ['requested', 'starting', 'recording', 'finalizing'];

/** The stream facts recording needs. */
export interface RecordableStream {
  readonly streamId: string;
  readonly tenantId: string;
  readonly record: boolean;
}

/** Recordings and artifacts. */
export class RecordingsStore {
  constructor(private readonly db: Db) {}

  /** Whether a stream records, and its tenant (media plane: by UUID). */
  async recordable(streamId: string): Promise<RecordableStream | undefined> {
    const rows = await this.db
      .select({ streamId: streamsTable.id, tenantId: streamsTable.tenantId, record: streamsTable.record })
      .from(streamsTable)
      .where(eq(streamsTable.id, streamId))
      .limit(1);
    return rows[0];
  }

  /** Inserts a recording. */
  async insertRecording(row: RecordingRecord): Promise<void> {
    await this.db.insert(recordingsTable).values(row);
  }

  /** Updates a recording by id and returns it. */
  async updateRecording(
    id: string,
    patch: Partial<Omit<RecordingRecord, 'id' | 'tenantId'>>,
  ): Promise<RecordingRecord | undefined> {
    const rows = await this.db.update(recordingsTable).set(patch).where(eq(recordingsTable.id, id)).returning();
    return rows[0] ? toRecording(rows[0]) : undefined;
  }

  /** A recording of the tenant by UUID or dvrHash. */
  async recording(tenantId: string, idOrHash: string, byUuid: boolean): Promise<RecordingRecord | undefined> {
    const rows = await this.db
      .select()
      .from(recordingsTable)
      .where(
        and(
          eq(recordingsTable.tenantId, tenantId),
          byUuid
            ? or(eq(recordingsTable.id, idOrHash), eq(recordingsTable.dvrHash, idOrHash))
            : eq(recordingsTable.dvrHash, idOrHash),
        ),
      )
      .limit(1);
    return rows[0] ? toRecording(rows[0]) : undefined;
  }

  /** Recordings of a node still open (restart recovery). */
  async openOnNode(nodeId: string): Promise<RecordingRecord[]> {
    const rows = await this.db
      .select()
      .from(recordingsTable)
      .where(and(eq(recordingsTable.nodeId, nodeId), inArray(recordingsTable.status, [...OPEN_STATUSES])));
    return rows.map(toRecording);
  }

  /** The newest recordings of a stream (newest first). */
  async recordingsOfStream(streamId: string, limit: number): Promise<RecordingRecord[]> {
    const rows = await this.db
      .select()
      .from(recordingsTable)
      .where(eq(recordingsTable.streamId, streamId))
      .orderBy(desc(recordingsTable.createdAt), desc(recordingsTable.id))
      .limit(limit);
    return rows.map(toRecording);
  }

  /** Inserts an artifact. */
  async insertArtifact(row: ArtifactRecord): Promise<void> {
    await this.db.insert(mediaArtifactsTable).values({ ...row, params: { ...row.params } });
  }

  /** Updates an artifact by id and returns it. */
  async updateArtifact(
    id: string,
    patch: Partial<Omit<ArtifactRecord, 'id' | 'tenantId' | 'params'>>,
  ): Promise<ArtifactRecord | undefined> {
    const rows = await this.db.update(mediaArtifactsTable).set(patch).where(eq(mediaArtifactsTable.id, id)).returning();
    return rows[0] ? toArtifact(rows[0]) : undefined;
  }

  /** An artifact of the tenant by UUID or hash. */
  async artifact(
    tenantId: string,
    kind: ArtifactKind,
    idOrHash: string,
    byUuid: boolean,
  ): Promise<ArtifactRecord | undefined> {
    const rows = await this.db
      .select()
      .from(mediaArtifactsTable)
      .where(
        and(
          eq(mediaArtifactsTable.tenantId, tenantId),
          eq(mediaArtifactsTable.kind, kind),
          byUuid
            ? or(eq(mediaArtifactsTable.id, idOrHash), eq(mediaArtifactsTable.hash, idOrHash))
            : eq(mediaArtifactsTable.hash, idOrHash),
        ),
      )
      .limit(1);
    return rows[0] ? toArtifact(rows[0]) : undefined;
  }

  /** Artifacts of a recording in timeline order. */
  async artifactsOf(recordingId: string, kind: ArtifactKind): Promise<ArtifactRecord[]> {
    const rows = await this.db
      .select()
      .from(mediaArtifactsTable)
      .where(and(eq(mediaArtifactsTable.recordingId, recordingId), eq(mediaArtifactsTable.kind, kind)))
      .orderBy(asc(mediaArtifactsTable.startOffsetMs));
    return rows.map(toArtifact);
  }

  /** Artifacts still `processing` whose recording this node made, oldest first, with their recordings. */
  async processingArtifactsOnNode(nodeId: string): Promise<{ artifact: ArtifactRecord; recording: RecordingRecord }[]> {
    return this.artifactsOnNode(nodeId, eq(mediaArtifactsTable.status, 'processing'), Number.MAX_SAFE_INTEGER);
  }

  /** Ready artifacts of this node's recordings updated since `since`, with their recordings (thumbnail re-check). */
  async readyArtifactsOnNodeSince(
    nodeId: string,
    since: Date,
  ): Promise<{ artifact: ArtifactRecord; recording: RecordingRecord }[]> {
    return this.artifactsOnNode(
      nodeId,
      and(eq(mediaArtifactsTable.status, 'ready'), gte(mediaArtifactsTable.updatedAt, since)) as SQL,
      RECHECK_LIMIT,
    );
  }

  /** Recordings of this node that ended since `since` with segments (thumbnail re-check). */
  async endedOnNodeSince(nodeId: string, since: Date): Promise<RecordingRecord[]> {
    const rows = await this.db
      .select()
      .from(recordingsTable)
      .where(
        and(
          eq(recordingsTable.nodeId, nodeId),
          inArray(recordingsTable.status, ['completed', 'completed_partial']),
          gte(recordingsTable.endedAt, since),
        ),
      )
      .orderBy(asc(recordingsTable.endedAt))
      .limit(RECHECK_LIMIT);
    return rows.map(toRecording);
  }

  private async artifactsOnNode(
    nodeId: string,
    condition: SQL,
    limit: number,
  ): Promise<{ artifact: ArtifactRecord; recording: RecordingRecord }[]> {
    const rows = await this.db
      .select({ artifact: mediaArtifactsTable, recording: recordingsTable })
      .from(mediaArtifactsTable)
      .innerJoin(recordingsTable, eq(recordingsTable.id, mediaArtifactsTable.recordingId))
      .where(and(eq(recordingsTable.nodeId, nodeId), condition))
      .orderBy(asc(mediaArtifactsTable.createdAt))
      .limit(limit);
    return rows.map((row) => ({ artifact: toArtifact(row.artifact), recording: toRecording(row.recording) }));
  }

  /** Deletes an artifact row; false when it was already gone. */
  async deleteArtifact(id: string): Promise<boolean> {
    const rows = await this.db
      .delete(mediaArtifactsTable)
      .where(eq(mediaArtifactsTable.id, id))
      .returning({ id: mediaArtifactsTable.id });
    return rows.length > 0;
  }

  /** Deletes a recording row (its artifacts cascade); false when it was already gone. */
  async deleteRecording(id: string): Promise<boolean> {
    const rows = await this.db
      .delete(recordingsTable)
      .where(eq(recordingsTable.id, id))
      .returning({ id: recordingsTable.id });
    return rows.length > 0;
  }

  /** What a playback ID names in storage: a recording, or a chapter or clip of one. */
  async contentByPlaybackId(playbackId: string): Promise<StoredContent | undefined> {
    const artifacts = await this.db
      .select({ artifact: mediaArtifactsTable, recording: recordingsTable })
      .from(mediaArtifactsTable)
      .innerJoin(recordingsTable, eq(recordingsTable.id, mediaArtifactsTable.recordingId))
      .where(eq(mediaArtifactsTable.playbackId, playbackId))
      .limit(1);
    const hit = artifacts[0];
    if (hit) {
      return {
        playbackId,
        tenantId: hit.artifact.tenantId,
        streamId: hit.artifact.streamId,
        recording: toRecording(hit.recording),
        artifact: toArtifact(hit.artifact),
      };
    }
    const recordings = await this.db
      .select()
      .from(recordingsTable)
      .where(eq(recordingsTable.playbackId, playbackId))
      .limit(1);
    const recording = recordings[0];
    return recording
      ? {
          playbackId,
          tenantId: recording.tenantId,
          streamId: recording.streamId,
          recording: toRecording(recording),
          artifact: undefined,
        }
      : undefined;
  }

  /** The newest recording of the stream with this (live) playback ID: what its live DVR window plays. */
  async latestOfStreamPlayback(playbackId: string): Promise<StoredContent | undefined> {
    const rows = await this.db
      .select({ recording: recordingsTable })
      .from(recordingsTable)
      .innerJoin(streamsTable, eq(streamsTable.id, recordingsTable.streamId))
      .where(eq(streamsTable.playbackId, playbackId))
      .orderBy(desc(recordingsTable.createdAt), desc(recordingsTable.id))
      .limit(1);
    const recording = rows[0]?.recording;
    return recording
      ? {
          playbackId,
          tenantId: recording.tenantId,
          streamId: recording.streamId,
          recording: toRecording(recording),
          artifact: undefined,
        }
      : undefined;
  }

  /** A page of the tenant's recordings (newest first), optionally of one stream, with the total. */
  async listRecordings(
    tenantId: string,
    streamId: string | undefined,
    limit: number,
    offset: number,
  ): Promise<{ rows: RecordingRecord[]; total: number }> {
    const where = and(
      eq(recordingsTable.tenantId, tenantId),
      streamId ? eq(recordingsTable.streamId, streamId) : undefined,
    );
    const rows = await this.db
      .select()
      .from(recordingsTable)
      .where(where)
      .orderBy(desc(recordingsTable.createdAt), desc(recordingsTable.id))
      .limit(limit)
      .offset(offset);
    const total = await this.db.select({ n: count() }).from(recordingsTable).where(where);
    return { rows: rows.map(toRecording), total: Number(total[0]?.n ?? 0) };
  }

  /** A page of the tenant's artifacts of some kinds (newest first), optionally of one stream, with the total. */
  async listArtifacts(
    tenantId: string,
    kinds: readonly ArtifactKind[],
    streamId: string | undefined,
    limit: number,
    offset: number,
  ): Promise<{ rows: ArtifactRecord[]; total: number }> {
    if (kinds.length === 0) {
      return { rows: [], total: 0 };
    }
    const where = and(
      eq(mediaArtifactsTable.tenantId, tenantId),
      inArray(mediaArtifactsTable.kind, [...kinds]),
      streamId ? eq(mediaArtifactsTable.streamId, streamId) : undefined,
    );
    const rows = await this.db
      .select()
      .from(mediaArtifactsTable)
      .where(where)
      .orderBy(desc(mediaArtifactsTable.createdAt), desc(mediaArtifactsTable.id))
      .limit(limit)
      .offset(offset);
    const total = await this.db.select({ n: count() }).from(mediaArtifactsTable).where(where);
    return { rows: rows.map(toArtifact), total: Number(total[0]?.n ?? 0) };
  }
}
