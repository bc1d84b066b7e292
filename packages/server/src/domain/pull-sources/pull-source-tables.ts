/** Drizzle table definitions of migration 0035 (pull state and pull events), used only by the pull stores. */
import { bigserial, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const time = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** `pull_source_state`: the node pulling a stream (with its lease) and the pull's phase. */
export const pullSourceStateTable = pgTable('pull_source_state', {
  streamId: uuid('stream_id').primaryKey(),
  nodeId: text('node_id').notNull(),
  leaseUntil: time('lease_until').notNull(),
  phase: text('phase').notNull(),
  attempt: integer('attempt').notNull(),
  failures: integer('failures').notNull(),
  nextAttemptAt: time('next_attempt_at'),
  lastError: text('last_error'),
  updatedAt: time('updated_at').notNull(),
});

/** `pull_source_events`: the outcome of each connection attempt (newest kept, older pruned). */
export const pullSourceEventsTable = pgTable('pull_source_events', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  streamId: uuid('stream_id').notNull(),
  tenantId: uuid('tenant_id').notNull(),
  nodeId: text('node_id').notNull(),
  eventKind: text('event_kind').notNull(),
  attempt: integer('attempt').notNull(),
  message: text('message').notNull(),
  address: text('address'),
  createdAt: time('created_at').notNull(),
});
