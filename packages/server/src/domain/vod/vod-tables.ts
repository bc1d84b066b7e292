/** Drizzle table definition of migrations 0040 and 0042 (VOD assets), used only by the VOD store. */
import { bigint, integer, jsonb, pgTable, real, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const time = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const bytes = (name: string) => bigint(name, { mode: 'number' });

/** `vod_assets`: one upload session and the asset it becomes. */
export const vodAssetsTable = pgTable('vod_assets', {
  id: uuid('id').primaryKey(),
  tenantId: uuid('tenant_id').notNull(),
  artifactHash: text('artifact_hash').notNull(),
  playbackId: text('playback_id').notNull(),
  uploadId: text('upload_id').notNull(),
  storageKind: text('storage_kind').notNull(),
  storagePrefix: text('storage_prefix').notNull(),
  filename: text('filename').notNull(),
  contentType: text('content_type').notNull(),
  title: text('title'),
  description: text('description'),
  sizeBytes: bytes('size_bytes').notNull(),
  partBytes: bytes('part_bytes').notNull(),
  partCount: integer('part_count').notNull(),
  status: text('status').notNull(),
  progressPercent: real('progress_percent').notNull(),
  errorMessage: text('error_message'),
  durationMs: bytes('duration_ms'),
  width: integer('width'),
  height: integer('height'),
  videoCodec: text('video_codec'),
  audioCodec: text('audio_codec'),
  bitrateKbps: integer('bitrate_kbps'),
  storedBytes: bytes('stored_bytes'),
  outputs: jsonb('outputs').$type<string[]>().notNull(),
  processingNode: text('processing_node'),
  expiresAt: time('expires_at').notNull(),
  completedAt: time('completed_at'),
  createdAt: time('created_at').notNull(),
  updatedAt: time('updated_at').notNull(),
});
