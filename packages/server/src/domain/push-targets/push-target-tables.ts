/** Drizzle table definition of migration 0025 (push targets), used only by the push-target store. */
import { bigint, boolean, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const time = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** `push_targets`: restream destinations of a stream, with the pushing node's last report. */
export const pushTargetsTable = pgTable('push_targets', {
  id: uuid('id').primaryKey(),
  tenantId: uuid('tenant_id').notNull(),
  streamId: uuid('stream_id').notNull(),
  platform: text('platform').notNull(),
  name: text('name').notNull(),
  targetUriSealed: text('target_uri_sealed').notNull(),
  targetUriMasked: text('target_uri_masked').notNull(),
  isEnabled: boolean('is_enabled').notNull(),
  status: text('status').notNull(),
  lastError: text('last_error'),
  lastPushedAt: time('last_pushed_at'),
  bytesSent: bigint('bytes_sent', { mode: 'number' }).notNull(),
  bitrateBps: integer('bitrate_bps').notNull(),
  droppedUnits: bigint('dropped_units', { mode: 'number' }).notNull(),
  nodeId: text('node_id'),
  createdAt: time('created_at').notNull(),
  updatedAt: time('updated_at').notNull(),
});
