/** Drizzle table definitions of migration 0015 (SRT passphrases and ingest connection statistics), used only by the SRT stores. */
import { boolean, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const time = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** `stream_srt_passphrases`: a stream's own SRT passphrase. */
export const srtPassphrasesTable = pgTable('stream_srt_passphrases', {
  streamId: uuid('stream_id').primaryKey(),
  tenantId: uuid('tenant_id').notNull(),
  passphrase: text('passphrase').notNull(),
  updatedAt: time('updated_at').notNull(),
});

/** `stream_ingest_connections`: the current or last ingest connection's statistics of a stream. */
export const ingestConnectionsTable = pgTable('stream_ingest_connections', {
  streamId: uuid('stream_id').primaryKey(),
  nodeId: text('node_id').notNull(),
  sessionId: text('session_id').notNull(),
  protocol: text('protocol').notNull(),
  connected: boolean('connected').notNull(),
  stats: jsonb('stats').notNull(),
  updatedAt: time('updated_at').notNull(),
});
