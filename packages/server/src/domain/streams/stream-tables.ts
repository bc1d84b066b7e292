/**
 * Drizzle table definitions of migration 0003 (streams and stream keys), used only by
 * the stores.
 */
import { boolean, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { TrackInfo } from './stream.js';

const time = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** `streams`: one row per stream, with its live status columns. */
export const streamsTable = pgTable('streams', {
  id: uuid('id').primaryKey(),
  tenantId: uuid('tenant_id').notNull(),
  name: text('name').notNull(),
  description: text('description'),
  playbackId: text('playback_id').notNull(),
  record: boolean('record').notNull(),
  ingestMode: text('ingest_mode').notNull(),
  pullSourceUri: text('pull_source_uri'),
  pullSourceEnabled: boolean('pull_source_enabled').notNull(),
  pullSourceClass: text('pull_source_class'),
  pullSourceOnDemand: boolean('pull_source_on_demand').notNull(),
  sourceLocation: text('source_location'),
  status: text('status').notNull(),
  statusNodeId: text('status_node_id'),
  currentViewers: integer('current_viewers').notNull(),
  startedAt: time('started_at'),
  statusUpdatedAt: time('status_updated_at'),
  tracks: jsonb('tracks').$type<TrackInfo[]>().notNull(),
  createdAt: time('created_at').notNull(),
  updatedAt: time('updated_at').notNull(),
});

/** `stream_keys`: ingest keys; exactly one primary per stream. */
export const streamKeysTable = pgTable('stream_keys', {
  id: uuid('id').primaryKey(),
  tenantId: uuid('tenant_id').notNull(),
  streamId: uuid('stream_id').notNull(),
  keyValue: text('key_value').notNull(),
  keyName: text('key_name').notNull(),
  isPrimary: boolean('is_primary').notNull(),
  isActive: boolean('is_active').notNull(),
  lastUsedAt: time('last_used_at'),
  createdAt: time('created_at').notNull(),
});
