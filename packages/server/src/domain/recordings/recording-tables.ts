/**
 * Drizzle table definitions of migration 0010 (recordings and the chapters and clips cut from
 * them), used only by the stores.
 */
import { bigint, boolean, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const time = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const ms = (name: string) => bigint(name, { mode: 'number' });

/** `recordings`: one DVR recording of a stream (one publish, or one startDVR until the stream ends). */
export const recordingsTable = pgTable('recordings', {
  id: uuid('id').primaryKey(),
  tenantId: uuid('tenant_id').notNull(),
  streamId: uuid('stream_id').notNull(),
  dvrHash: text('dvr_hash').notNull(),
  playbackId: text('playback_id').notNull(),
  status: text('status').notNull(),
  nodeId: text('node_id').notNull(),
  storagePrefix: text('storage_prefix').notNull(),
  startedAt: time('started_at').notNull(),
  endedAt: time('ended_at'),
  durationMs: ms('duration_ms').notNull(),
  sizeBytes: ms('size_bytes').notNull(),
  segmentCount: integer('segment_count').notNull(),
  errorMessage: text('error_message'),
  createdAt: time('created_at').notNull(),
  updatedAt: time('updated_at').notNull(),
});

/** `media_artifacts`: chapters and clips, each a range of a recording's segments with its own playback ID. */
export const mediaArtifactsTable = pgTable('media_artifacts', {
  id: uuid('id').primaryKey(),
  tenantId: uuid('tenant_id').notNull(),
  streamId: uuid('stream_id').notNull(),
  recordingId: uuid('recording_id').notNull(),
  kind: text('kind').notNull(),
  hash: text('hash').notNull(),
  playbackId: text('playback_id').notNull(),
  title: text('title'),
  description: text('description'),
  status: text('status').notNull(),
  firstSegment: integer('first_segment').notNull(),
  lastSegment: integer('last_segment').notNull(),
  startUnixMs: ms('start_unix_ms').notNull(),
  endUnixMs: ms('end_unix_ms').notNull(),
  startOffsetMs: ms('start_offset_ms').notNull(),
  durationMs: ms('duration_ms').notNull(),
  sizeBytes: ms('size_bytes').notNull(),
  hasGaps: boolean('has_gaps').notNull(),
  params: jsonb('params').$type<Record<string, unknown>>().notNull(),
  errorMessage: text('error_message'),
  createdAt: time('created_at').notNull(),
  updatedAt: time('updated_at').notNull(),
  expiresAt: time('expires_at'),
});
