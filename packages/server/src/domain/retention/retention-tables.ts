/**
 * Drizzle table definitions of migration 0011 (retention policies and overrides, per-stream
 * recording settings), used only by the stores.
 */
import { integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const time = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** `media_retention_policies`: a tenant's default retention of one class (0: kept until deleted). */
export const mediaRetentionPoliciesTable = pgTable(
  'media_retention_policies',
  {
    tenantId: uuid('tenant_id').notNull(),
    targetType: text('target_type').notNull(),
    days: integer('days').notNull(),
    updatedAt: time('updated_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.targetType] })],
);

/** `stream_media_settings`: a stream's retention overrides and chapter settings (null: inherited). */
export const streamMediaSettingsTable = pgTable('stream_media_settings', {
  streamId: uuid('stream_id').primaryKey(),
  tenantId: uuid('tenant_id').notNull(),
  dvrRetentionDays: integer('dvr_retention_days'),
  clipRetentionDays: integer('clip_retention_days'),
  dvrChapterMode: text('dvr_chapter_mode'),
  dvrChapterIntervalSeconds: integer('dvr_chapter_interval_seconds'),
  updatedAt: time('updated_at').notNull(),
});

/** `asset_retention_overrides`: one asset's own end of retention (null: kept until deleted). */
export const assetRetentionOverridesTable = pgTable(
  'asset_retention_overrides',
  {
    targetType: text('target_type').notNull(),
    targetId: uuid('target_id').notNull(),
    tenantId: uuid('tenant_id').notNull(),
    retentionUntil: time('retention_until'),
    updatedAt: time('updated_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.targetType, table.targetId] })],
);
