/**
 * SQL of VOD assets: insert a session, read by tenant and ID / upload ID, by playback ID (the
 * playback plane, any tenant), the bytes a tenant holds (quota), state moves guarded by the state
 * they leave, and the sessions past their expiry.
 */
import { and, eq, inArray, isNull, lt, notInArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import type { VodAssetRecord, VodProcessed, VodStatus } from './vod-asset.js';
import { vodAssetsTable } from './vod-tables.js';

type Row = typeof vodAssetsTable.$inferSelect;

function toRecord(row: Row): VodAssetRecord {
  return {
    ...row,
    storageKind: row.storageKind === 's3' ? 's3' : 'local',
    status: row.status as VodStatus,
  };
}

/** A new upload session's row. */
export type NewVodAsset = Omit<
  VodAssetRecord,
  | 'status'
  | 'progressPercent'
  | 'errorMessage'
  | 'durationMs'
  | 'width'
  | 'height'
  | 'videoCodec'
  | 'audioCodec'
  | 'bitrateKbps'
  | 'storedBytes'
  | 'outputs'
  | 'processingNode'
  | 'completedAt'
>;

/** Reads and writes `vod_assets`. */
export class VodStore {
  constructor(private readonly db: Db) {}

  /** Inserts an UPLOADING session. */
  async insert(asset: NewVodAsset): Promise<VodAssetRecord> {
    const rows = await this.db
      .insert(vodAssetsTable)
      .values({ ...asset, status: 'UPLOADING', progressPercent: 0, outputs: [] })
      .returning();
    return toRecord(rows[0] as Row);
  }

  /** A tenant's asset by ID (deleted ones included). */
  async byId(tenantId: string, id: string): Promise<VodAssetRecord | undefined> {
    const rows = await this.db
      .select()
      .from(vodAssetsTable)
      .where(and(eq(vodAssetsTable.tenantId, tenantId), eq(vodAssetsTable.id, id)))
      .limit(1);
    return rows[0] ? toRecord(rows[0]) : undefined;
  }

  /** A tenant's asset by artifact hash. */
  async byHash(tenantId: string, hash: string): Promise<VodAssetRecord | undefined> {
    const rows = await this.db
      .select()
      .from(vodAssetsTable)
      .where(and(eq(vodAssetsTable.tenantId, tenantId), eq(vodAssetsTable.artifactHash, hash)))
      .limit(1);
    return rows[0] ? toRecord(rows[0]) : undefined;
  }

  /** A tenant's asset by the store's upload ID. */
  async byUploadId(tenantId: string, uploadId: string): Promise<VodAssetRecord | undefined> {
    const rows = await this.db
      .select()
      .from(vodAssetsTable)
      .where(and(eq(vodAssetsTable.tenantId, tenantId), eq(vodAssetsTable.uploadId, uploadId)))
      .limit(1);
    return rows[0] ? toRecord(rows[0]) : undefined;
  }

  /** The asset of a playback ID, any tenant (the viewer asked by playback ID). */
  async byPlaybackId(playbackId: string): Promise<VodAssetRecord | undefined> {
    const rows = await this.db.select().from(vodAssetsTable).where(eq(vodAssetsTable.playbackId, playbackId)).limit(1);
    return rows[0] ? toRecord(rows[0]) : undefined;
  }

  /** A tenant's assets, newest first (deleted and expired left out). */
  async list(tenantId: string, limit: number, offset: number): Promise<{ rows: VodAssetRecord[]; total: number }> {
    const where = and(eq(vodAssetsTable.tenantId, tenantId), notInArray(vodAssetsTable.status, ['DELETED', 'EXPIRED']));
    const rows = await this.db
      .select()
      .from(vodAssetsTable)
      .where(where)
      .orderBy(sql`${vodAssetsTable.createdAt} DESC, ${vodAssetsTable.id} DESC`)
      .limit(limit)
      .offset(offset);
    const counted = await this.db.select({ n: sql<number>`count(*)::int` }).from(vodAssetsTable).where(where);
    return { rows: rows.map(toRecord), total: counted[0]?.n ?? 0 };
  }

  /** Bytes a tenant holds or is uploading (the quota's measure). */
  async bytesHeld(tenantId: string): Promise<number> {
    const rows = await this.db
      .select({
        total: sql<string>`coalesce(sum(greatest(${vodAssetsTable.sizeBytes}, coalesce(${vodAssetsTable.storedBytes}, 0))), 0)`,
      })
      .from(vodAssetsTable)
      .where(
        and(eq(vodAssetsTable.tenantId, tenantId), notInArray(vodAssetsTable.status, ['DELETED', 'EXPIRED', 'FAILED'])),
      );
    return Number(rows[0]?.total ?? 0);
  }

  /** Moves an asset from one of `from` to `to` with extra fields; undefined when it was in no state of `from`. */
  async move(
    id: string,
    from: readonly VodStatus[],
    to: VodStatus,
    fields: Partial<Pick<Row, 'errorMessage' | 'completedAt' | 'progressPercent' | 'processingNode'>> &
      Partial<VodProcessed>,
    now: Date,
  ): Promise<VodAssetRecord | undefined> {
    const rows = await this.db
      .update(vodAssetsTable)
      .set({ ...fields, outputs: fields.outputs ? [...fields.outputs] : undefined, status: to, updatedAt: now })
      .where(and(eq(vodAssetsTable.id, id), inArray(vodAssetsTable.status, [...from])))
      .returning();
    return rows[0] ? toRecord(rows[0]) : undefined;
  }

  /** Records processing progress (0–100) of an asset being processed (PROCESSING, or READY with outputs to come); answers it. */
  async progress(id: string, percent: number, now: Date): Promise<VodAssetRecord | undefined> {
    const rows = await this.db
      .update(vodAssetsTable)
      .set({ progressPercent: percent, updatedAt: now })
      .where(and(eq(vodAssetsTable.id, id), inArray(vodAssetsTable.status, ['PROCESSING', 'READY'])))
      .returning();
    return rows[0] ? toRecord(rows[0]) : undefined;
  }

  /** UPLOADING sessions whose expiry has passed. */
  async expired(now: Date): Promise<VodAssetRecord[]> {
    const rows = await this.db
      .select()
      .from(vodAssetsTable)
      .where(and(eq(vodAssetsTable.status, 'UPLOADING'), lt(vodAssetsTable.expiresAt, now)));
    return rows.map(toRecord);
  }

  /**
   * Assets a node left PROCESSING, or READY short of 100 % (it died mid-job): processing starts
   * again. Assets of other nodes sharing the database are theirs.
   */
  async unfinished(nodeId: string): Promise<VodAssetRecord[]> {
    const rows = await this.db
      .select()
      .from(vodAssetsTable)
      .where(
        and(
          or(
            eq(vodAssetsTable.status, 'PROCESSING'),
            and(eq(vodAssetsTable.status, 'READY'), lt(vodAssetsTable.progressPercent, 100)),
          ),
          or(eq(vodAssetsTable.processingNode, nodeId), isNull(vodAssetsTable.processingNode)),
        ),
      )
      .orderBy(vodAssetsTable.completedAt);
    return rows.map(toRecord);
  }
}
