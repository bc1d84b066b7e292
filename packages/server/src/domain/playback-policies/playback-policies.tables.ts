/**
 * Drizzle definitions of the playback policy tables (migration 0004: streams; 0012: clips and VOD assets).
 */
import { integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** The columns of a policy, shared by stream and content policies. */
const policyColumns = () => ({
  policyType: text('policy_type').notNull(),
  allowedKids: text('allowed_kids').array().notNull(),
  webhookUrl: text('webhook_url'),
  webhookSecret: text('webhook_secret'),
  webhookTimeoutMs: integer('webhook_timeout_ms'),
  version: integer('version').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
});

/** `playback_policies`: at most one per stream; no row means the playback ID is public. */
export const playbackPoliciesTable = pgTable('playback_policies', {
  streamId: uuid('stream_id').primaryKey(),
  tenantId: uuid('tenant_id').notNull(),
  ...policyColumns(),
});

/** `content_playback_policies` (migration 0012): a clip's or VOD asset's own policy, by its playback ID. */
export const contentPlaybackPoliciesTable = pgTable('content_playback_policies', {
  playbackId: text('playback_id').primaryKey(),
  tenantId: uuid('tenant_id').notNull(),
  contentKind: text('content_kind').notNull(),
  contentId: uuid('content_id').notNull(),
  streamId: uuid('stream_id'),
  ...policyColumns(),
});
