/**
 * Drizzle definition of the playback policy table (migration 0004 creates it).
 */
import { integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** The columns holding a policy, shared by every owner's policy table (streams, VOD assets). */
export function policyColumns() {
  return {
    policyType: text('policy_type').notNull(),
    allowedKids: text('allowed_kids').array().notNull(),
    webhookUrl: text('webhook_url'),
    webhookSecret: text('webhook_secret'),
    webhookTimeoutMs: integer('webhook_timeout_ms'),
    version: integer('version').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  };
}

/** `playback_policies`: at most one per stream; no row means the playback ID is public. */
export const playbackPoliciesTable = pgTable('playback_policies', {
  streamId: uuid('stream_id').primaryKey(),
  tenantId: uuid('tenant_id').notNull(),
  ...policyColumns(),
});
