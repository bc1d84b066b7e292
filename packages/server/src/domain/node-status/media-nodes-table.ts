/**
 * Drizzle table definition of `media_nodes` (migration 0003), used only by the node store.
 */
import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

const time = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** `media_nodes`: nodes that host live streams, with their heartbeat. */
export const mediaNodesTable = pgTable('media_nodes', {
  id: text('id').primaryKey(),
  baseUrl: text('base_url').notNull(),
  version: text('version').notNull(),
  startedAt: time('started_at').notNull(),
  heartbeatAt: time('heartbeat_at').notNull(),
});
