/**
 * Drizzle definition of the developer token table (migration 0002 creates it).
 */
import { pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { time } from '../accounts/accounts.tables.js';

/** Developer tokens: only the SHA-256 of the value is stored. */
export const developerTokens = pgTable('developer_tokens', {
  id: uuid('id').primaryKey(),
  tenantId: uuid('tenant_id').notNull(),
  userId: uuid('user_id').notNull(),
  name: text('name').notNull(),
  tokenHash: text('token_hash').notNull(),
  scopes: text('scopes').array().notNull(),
  createdAt: time('created_at').notNull(),
  expiresAt: time('expires_at'),
  revokedAt: time('revoked_at'),
  lastUsedAt: time('last_used_at'),
});
