/**
 * SQL of retention: tenant defaults per class, per-stream settings (retention overrides and
 * chapter settings), per-asset overrides, and the sweeper's walk over finished assets joined
 * with everything that decides their retention. Reads for the API are tenant-scoped by callers.
 */
import { and, asc, eq, gt, inArray, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import type { ArtifactRecord, RecordingRecord, RecordingStatus } from '../recordings/recording.js';
import { mediaArtifactsTable, recordingsTable } from '../recordings/recording-tables.js';
import { OPEN_STATUSES } from '../recordings/recordings.store.js';
import { vodAssetsTable } from '../vod/vod-tables.js';
import type { RetentionClass, RetentionInputs } from './effective-retention.js';
import {
  assetRetentionOverridesTable,
  mediaRetentionPoliciesTable,
  streamMediaSettingsTable,
} from './retention-tables.js';

/** A stream's own settings (null: inherited). */
export interface StreamMediaSettings {
  readonly dvrRetentionDays: number | null;
  readonly clipRetentionDays: number | null;
  readonly dvrChapterMode: string | null;
  readonly dvrChapterIntervalSeconds: number | null;
}

/** No settings of its own. */
export const INHERITED_SETTINGS: StreamMediaSettings = {
  dvrRetentionDays: null,
  clipRetentionDays: null,
  dvrChapterMode: null,
  dvrChapterIntervalSeconds: null,
};

/** An asset the sweeper looks at, with what decides its retention. */
export interface SweepCandidate<T> {
  readonly asset: T;
  readonly inputs: RetentionInputs;
}

/** A VOD asset as the sweeper sees it. */
export interface VodSweepAsset {
  readonly id: string;
  readonly tenantId: string;
}

type UuidColumn = typeof recordingsTable.id | typeof mediaArtifactsTable.id | typeof vodAssetsTable.id;
type TenantColumn =
  | typeof recordingsTable.tenantId
  | typeof mediaArtifactsTable.tenantId
  | typeof vodAssetsTable.tenantId;

const override = (kind: RetentionClass, id: UuidColumn) =>
  and(eq(assetRetentionOverridesTable.targetType, kind), eq(assetRetentionOverridesTable.targetId, id));

const policy = (kind: RetentionClass, tenantId: TenantColumn) =>
  and(eq(mediaRetentionPoliciesTable.tenantId, tenantId), eq(mediaRetentionPoliciesTable.targetType, kind));

/** Retention and per-stream settings rows. */
export class RetentionStore {
  constructor(private readonly db: Db) {}

  /** The tenant's defaults by class, with the latest change. */
  async policies(tenantId: string): Promise<{ days: Map<RetentionClass, number>; updatedAt: Date | null }> {
    const rows = await this.db
      .select()
      .from(mediaRetentionPoliciesTable)
      .where(eq(mediaRetentionPoliciesTable.tenantId, tenantId));
    const updated = rows.map((row) => row.updatedAt.getTime());
    return {
      days: new Map(rows.map((row) => [row.targetType as RetentionClass, row.days])),
      updatedAt: updated.length > 0 ? new Date(Math.max(...updated)) : null,
    };
  }

  /** Sets (days) or clears (null) the tenant's default of a class. */
  async setPolicy(tenantId: string, kind: RetentionClass, days: number | null, now: Date): Promise<void> {
    if (days === null) {
      await this.db
        .delete(mediaRetentionPoliciesTable)
        .where(
          and(eq(mediaRetentionPoliciesTable.tenantId, tenantId), eq(mediaRetentionPoliciesTable.targetType, kind)),
        );
      return;
    }
    await this.db
      .insert(mediaRetentionPoliciesTable)
      .values({ tenantId, targetType: kind, days, updatedAt: now })
      .onConflictDoUpdate({
        target: [mediaRetentionPoliciesTable.tenantId, mediaRetentionPoliciesTable.targetType],
        set: { days, updatedAt: now },
      });
  }

  /** A stream's own settings (media plane and API; callers check the tenant). */
  async streamSettings(streamId: string): Promise<StreamMediaSettings> {
    const rows = await this.db
      .select()
      .from(streamMediaSettingsTable)
      .where(eq(streamMediaSettingsTable.streamId, streamId))
      .limit(1);
    return rows[0] ?? INHERITED_SETTINGS;
  }

  /** Changes some of a tenant's stream's settings (undefined: left as is; null: inherited again). */
  async updateStreamSettings(
    tenantId: string,
    streamId: string,
    patch: Partial<StreamMediaSettings>,
    now: Date,
  ): Promise<StreamMediaSettings> {
    const rows = await this.db
      .insert(streamMediaSettingsTable)
      .values({ ...INHERITED_SETTINGS, ...patch, streamId, tenantId, updatedAt: now })
      .onConflictDoUpdate({ target: streamMediaSettingsTable.streamId, set: { ...patch, updatedAt: now } })
      .returning();
    return rows[0] ?? INHERITED_SETTINGS;
  }

  /** An asset's own override: undefined without one, null when it is kept until deleted. */
  async assetOverride(kind: RetentionClass, id: string): Promise<Date | null | undefined> {
    const rows = await this.db
      .select({ until: assetRetentionOverridesTable.retentionUntil })
      .from(assetRetentionOverridesTable)
      .where(and(eq(assetRetentionOverridesTable.targetType, kind), eq(assetRetentionOverridesTable.targetId, id)))
      .limit(1);
    return rows[0] ? rows[0].until : undefined;
  }

  /** Sets an asset's own override (null: kept until deleted). */
  async setAssetOverride(tenantId: string, kind: RetentionClass, id: string, until: Date | null, now: Date) {
    await this.db
      .insert(assetRetentionOverridesTable)
      .values({ targetType: kind, targetId: id, tenantId, retentionUntil: until, updatedAt: now })
      .onConflictDoUpdate({
        target: [assetRetentionOverridesTable.targetType, assetRetentionOverridesTable.targetId],
        set: { retentionUntil: until, updatedAt: now },
      });
  }

  /** Removes an asset's own override. */
  async clearAssetOverride(kind: RetentionClass, id: string): Promise<void> {
    await this.db
      .delete(assetRetentionOverridesTable)
      .where(and(eq(assetRetentionOverridesTable.targetType, kind), eq(assetRetentionOverridesTable.targetId, id)));
  }

  /** Finished recordings after `afterId` (id order), with their retention inputs. */
  async recordingCandidates(afterId: string, limit: number): Promise<SweepCandidate<RecordingRecord>[]> {
    const rows = await this.db
      .select({
        recording: recordingsTable,
        hasOverride: sql<boolean>`${assetRetentionOverridesTable.targetId} IS NOT NULL`,
        until: assetRetentionOverridesTable.retentionUntil,
        streamDays: streamMediaSettingsTable.dvrRetentionDays,
        tenantDays: mediaRetentionPoliciesTable.days,
      })
      .from(recordingsTable)
      .leftJoin(assetRetentionOverridesTable, override('DVR', recordingsTable.id))
      .leftJoin(streamMediaSettingsTable, eq(streamMediaSettingsTable.streamId, recordingsTable.streamId))
      .leftJoin(mediaRetentionPoliciesTable, policy('DVR', recordingsTable.tenantId))
      .where(and(gt(recordingsTable.id, afterId), notInArray(recordingsTable.status, [...OPEN_STATUSES])))
      .orderBy(asc(recordingsTable.id))
      .limit(limit);
    return rows.map((row) => ({
      asset: { ...row.recording, status: row.recording.status as RecordingStatus },
      inputs: {
        kind: 'DVR',
        since: row.recording.endedAt ?? row.recording.updatedAt,
        ...(row.hasOverride ? { assetUntil: row.until } : {}),
        streamDays: row.streamDays,
        tenantDays: row.tenantDays,
      },
    }));
  }

  /** Clips after `afterId` (id order), with their retention inputs (createClip's expiresAt is their own override). */
  async clipCandidates(afterId: string, limit: number): Promise<SweepCandidate<ArtifactRecord>[]> {
    const rows = await this.db
      .select({
        clip: mediaArtifactsTable,
        hasOverride: sql<boolean>`${assetRetentionOverridesTable.targetId} IS NOT NULL`,
        until: assetRetentionOverridesTable.retentionUntil,
        streamDays: streamMediaSettingsTable.clipRetentionDays,
        tenantDays: mediaRetentionPoliciesTable.days,
      })
      .from(mediaArtifactsTable)
      .leftJoin(assetRetentionOverridesTable, override('CLIP', mediaArtifactsTable.id))
      .leftJoin(streamMediaSettingsTable, eq(streamMediaSettingsTable.streamId, mediaArtifactsTable.streamId))
      .leftJoin(mediaRetentionPoliciesTable, policy('CLIP', mediaArtifactsTable.tenantId))
      .where(and(gt(mediaArtifactsTable.id, afterId), eq(mediaArtifactsTable.kind, 'CLIP')))
      .orderBy(asc(mediaArtifactsTable.id))
      .limit(limit);
    return rows.map((row) => ({
      asset: {
        ...row.clip,
        kind: 'CLIP',
        status: row.clip.status as ArtifactRecord['status'],
      },
      inputs: clipInputs(row.clip.createdAt, row.hasOverride ? row.until : (row.clip.expiresAt ?? undefined), row),
    }));
  }

  /** Finished VOD assets after `afterId` (id order), with their retention inputs. */
  async vodCandidates(afterId: string, limit: number): Promise<SweepCandidate<VodSweepAsset>[]> {
    const rows = await this.db
      .select({
        id: vodAssetsTable.id,
        tenantId: vodAssetsTable.tenantId,
        since: sql<Date>`coalesce(${vodAssetsTable.completedAt}, ${vodAssetsTable.updatedAt})`.mapWith(
          vodAssetsTable.updatedAt,
        ),
        hasOverride: sql<boolean>`${assetRetentionOverridesTable.targetId} IS NOT NULL`,
        until: assetRetentionOverridesTable.retentionUntil,
        tenantDays: mediaRetentionPoliciesTable.days,
      })
      .from(vodAssetsTable)
      .leftJoin(assetRetentionOverridesTable, override('VOD', vodAssetsTable.id))
      .leftJoin(mediaRetentionPoliciesTable, policy('VOD', vodAssetsTable.tenantId))
      .where(and(gt(vodAssetsTable.id, afterId), inArray(vodAssetsTable.status, ['READY', 'FAILED'])))
      .orderBy(asc(vodAssetsTable.id))
      .limit(limit);
    return rows.map((row) => ({
      asset: { id: row.id, tenantId: row.tenantId },
      inputs: {
        kind: 'VOD',
        since: row.since,
        ...(row.hasOverride ? { assetUntil: row.until } : {}),
        tenantDays: row.tenantDays,
      },
    }));
  }

  /** Whether a recording still has clips (their segments are the recording's). */
  async hasClips(recordingId: string): Promise<boolean> {
    const rows = await this.db
      .select({ id: mediaArtifactsTable.id })
      .from(mediaArtifactsTable)
      .where(and(eq(mediaArtifactsTable.recordingId, recordingId), eq(mediaArtifactsTable.kind, 'CLIP')))
      .limit(1);
    return rows.length > 0;
  }
}

function clipInputs(
  createdAt: Date,
  assetUntil: Date | null | undefined,
  row: { streamDays: number | null; tenantDays: number | null },
): RetentionInputs {
  return {
    kind: 'CLIP',
    since: createdAt,
    ...(assetUntil !== undefined ? { assetUntil } : {}),
    streamDays: row.streamDays,
    tenantDays: row.tenantDays,
  };
}
