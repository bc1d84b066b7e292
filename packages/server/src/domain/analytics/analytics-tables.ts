/**
 * Drizzle table definitions of migration 0031 (viewer sessions and their daily roll-up), used
 * only by the analytics store.
 */
import {
  bigint,
  date,
  doublePrecision,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

const time = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** `viewer_sessions`: one row per playback session. */
export const viewerSessionsTable = pgTable('viewer_sessions', {
  id: uuid('id').primaryKey(),
  streamId: uuid('stream_id'),
  contentType: text('content_type').notNull(),
  contentId: text('content_id').notNull(),
  nodeId: text('node_id').notNull(),
  protocol: text('protocol').notNull(),
  viewerKey: text('viewer_key').notNull(),
  startedAt: time('started_at').notNull(),
  lastSeenAt: time('last_seen_at').notNull(),
  endedAt: time('ended_at'),
  bytesSent: bigint('bytes_sent', { mode: 'number' }).notNull(),
});

/** `stream_analytics_daily`: the roll-up per stream and UTC day. */
export const streamAnalyticsDailyTable = pgTable(
  'stream_analytics_daily',
  {
    streamId: uuid('stream_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    totalViews: bigint('total_views', { mode: 'number' }).notNull(),
    uniqueViewers: bigint('unique_viewers', { mode: 'number' }).notNull(),
    egressBytes: bigint('egress_bytes', { mode: 'number' }).notNull(),
    viewerSeconds: doublePrecision('viewer_seconds').notNull(),
    peakConcurrent: integer('peak_concurrent').notNull(),
  },
  (table) => [primaryKey({ columns: [table.streamId, table.day] })],
);

/** `stream_daily_viewers`: viewer keys already counted for a stream and day. */
export const streamDailyViewersTable = pgTable(
  'stream_daily_viewers',
  {
    streamId: uuid('stream_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    viewerKey: text('viewer_key').notNull(),
  },
  (table) => [primaryKey({ columns: [table.streamId, table.day, table.viewerKey] })],
);

/** `stream_concurrency`: most concurrent viewers per stream, minute and node. */
export const streamConcurrencyTable = pgTable(
  'stream_concurrency',
  {
    streamId: uuid('stream_id').notNull(),
    minute: time('minute').notNull(),
    nodeId: text('node_id').notNull(),
    viewers: integer('viewers').notNull(),
  },
  (table) => [primaryKey({ columns: [table.streamId, table.minute, table.nodeId] })],
);

/** `analytics_salts`: the salt of each UTC day's viewer keys. */
export const analyticsSaltsTable = pgTable('analytics_salts', {
  day: date('day', { mode: 'string' }).primaryKey(),
  salt: text('salt').notNull(),
});
