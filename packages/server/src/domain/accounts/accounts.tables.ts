/**
 * Drizzle definitions of the account tables (migrations 0001 and 0002 create them).
 */
import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** A timestamptz column read as a Date. */
export const time = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Tenants: every record belongs to one. */
export const tenants = pgTable('tenants', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  createdAt: time('created_at').notNull(),
});

/** Users: each belongs to exactly one tenant; emails are unique case-insensitively. */
export const users = pgTable('users', {
  id: uuid('id').primaryKey(),
  tenantId: uuid('tenant_id').notNull(),
  email: text('email').notNull(),
  name: text('name'),
  passwordHash: text('password_hash').notNull(),
  createdAt: time('created_at').notNull(),
});

/** Sign-in sessions; a session JWT carries the row id as `sid`. */
export const sessions = pgTable('sessions', {
  id: uuid('id').primaryKey(),
  tenantId: uuid('tenant_id').notNull(),
  userId: uuid('user_id').notNull(),
  createdAt: time('created_at').notNull(),
  expiresAt: time('expires_at').notNull(),
  revokedAt: time('revoked_at'),
});

/** One row per login attempt per limiter key (`email:…`, `ip:…`). */
export const loginAttempts = pgTable('login_attempts', {
  id: uuid('id').primaryKey(),
  key: text('key').notNull(),
  attemptedAt: time('attempted_at').notNull(),
});

/** Secrets shared by every process on this database. */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: time('created_at').notNull(),
});
