/**
 * Drizzle definition of the signing key table (migration 0004 creates it).
 */
import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const time = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** `signing_keys`: the public half of each ES256 playback signing key. */
export const signingKeysTable = pgTable('signing_keys', {
  id: uuid('id').primaryKey(),
  tenantId: uuid('tenant_id').notNull(),
  kid: text('kid').notNull(),
  name: text('name').notNull(),
  algorithm: text('algorithm').notNull(),
  publicKeyPem: text('public_key_pem').notNull(),
  createdAt: time('created_at').notNull(),
  revokedAt: time('revoked_at'),
  lastUsedAt: time('last_used_at'),
});
