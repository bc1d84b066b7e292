/**
 * SQL of VOD playback policies (migration 0041): one row per asset with a policy (none: public),
 * written with a bumped version, and the policy behind a playback ID of a live (not deleted)
 * asset for the playback gate.
 */
import { and, eq, notInArray, sql } from 'drizzle-orm';
import { pgTable, uuid } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/database.js';
import { policyValues, toPolicy } from '../playback-policies/playback-policies.store.js';
import { policyColumns } from '../playback-policies/playback-policies.tables.js';
import type { PlaybackPolicy, ResolvedPolicy } from '../playback-policies/playback-policy.js';
import { vodAssetsTable } from './vod-tables.js';

/** `vod_playback_policies`: at most one per VOD asset. */
export const vodPlaybackPoliciesTable = pgTable('vod_playback_policies', {
  vodAssetId: uuid('vod_asset_id').primaryKey(),
  tenantId: uuid('tenant_id').notNull(),
  ...policyColumns(),
});

/** Reads and writes VOD playback policies. */
export class VodPolicyStore {
  constructor(private readonly db: Db) {}

  /** The policy of an asset (PUBLIC when it has none). */
  async forAsset(vodAssetId: string): Promise<PlaybackPolicy> {
    const rows = await this.db
      .select()
      .from(vodPlaybackPoliciesTable)
      .where(eq(vodPlaybackPoliciesTable.vodAssetId, vodAssetId))
      .limit(1);
    return toPolicy(rows[0]);
  }

  /** Writes the policy of a tenant's asset; returns it with its new version. */
  async upsert(
    tenantId: string,
    vodAssetId: string,
    policy: Omit<PlaybackPolicy, 'version'>,
    now: Date,
  ): Promise<PlaybackPolicy> {
    const values = policyValues(policy, now);
    const rows = await this.db
      .insert(vodPlaybackPoliciesTable)
      .values({ vodAssetId, tenantId, version: 1, ...values })
      .onConflictDoUpdate({
        target: vodPlaybackPoliciesTable.vodAssetId,
        set: { ...values, version: sql`${vodPlaybackPoliciesTable.version} + 1` },
      })
      .returning();
    return toPolicy(rows[0]);
  }

  /** The policy behind a playback ID of an asset that is not deleted, or undefined when no such asset has it. */
  async byPlaybackId(playbackId: string): Promise<ResolvedPolicy | undefined> {
    const rows = await this.db
      .select({ tenantId: vodAssetsTable.tenantId, policy: vodPlaybackPoliciesTable })
      .from(vodAssetsTable)
      .leftJoin(vodPlaybackPoliciesTable, eq(vodPlaybackPoliciesTable.vodAssetId, vodAssetsTable.id))
      .where(and(eq(vodAssetsTable.playbackId, playbackId), notInArray(vodAssetsTable.status, ['DELETED', 'EXPIRED'])))
      .limit(1);
    const row = rows[0];
    // VOD assets have no stream: the webhook sees an empty streamId and the playback ID.
    return row ? { streamId: '', tenantId: row.tenantId, playbackId, policy: toPolicy(row.policy) } : undefined;
  }
}
