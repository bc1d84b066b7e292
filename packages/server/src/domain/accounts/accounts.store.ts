/**
 * SQL of accounts: tenants and users, sessions, login attempts and server secrets.
 */
import { randomUUID } from 'node:crypto';
import { and, asc, count, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { loginAttempts, serverSecrets, sessions, tenants, users } from './accounts.tables.js';

/** A user row. */
export type UserRow = typeof users.$inferSelect;
/** A session row. */
export type SessionRow = typeof sessions.$inferSelect;

function isUniqueViolation(error: unknown): boolean {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    if ((current as { code?: unknown }).code === '23505') {
      return true;
    }
  }
  return false;
}

/** Reads and writes account rows. */
export class AccountsStore {
  constructor(private readonly db: Db) {}

  /** Creates a tenant and its first user in one transaction; undefined when the email is taken. */
  async createTenantWithUser(user: Omit<UserRow, 'tenantId'>, tenantName: string): Promise<UserRow | undefined> {
    const tenantId = randomUUID();
    const row: UserRow = { ...user, tenantId };
    try {
      await this.db.transaction(async (tx) => {
        await tx.insert(tenants).values({ id: tenantId, name: tenantName, createdAt: user.createdAt });
        await tx.insert(users).values(row);
      });
      return row;
    } catch (error) {
      if (isUniqueViolation(error)) {
        return undefined;
      }
      throw error;
    }
  }

  /** Finds a user by email, ignoring case. */
  async userByEmail(email: string): Promise<UserRow | undefined> {
    const rows = await this.db
      .select()
      .from(users)
      .where(eq(sql`lower(${users.email})`, email.toLowerCase()))
      .limit(1);
    return rows[0];
  }

  /** Finds a user of a tenant by id. */
  async userById(tenantId: string, userId: string): Promise<UserRow | undefined> {
    const rows = await this.db
      .select()
      .from(users)
      .where(and(eq(users.id, userId), eq(users.tenantId, tenantId)))
      .limit(1);
    return rows[0];
  }

  /** Stores a new session. */
  async insertSession(row: SessionRow): Promise<void> {
    await this.db.insert(sessions).values(row);
  }

  /** A session that is neither revoked nor expired at `now`. */
  async activeSession(sessionId: string, now: Date): Promise<SessionRow | undefined> {
    const rows = await this.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
      .limit(1);
    return rows[0];
  }

  /** Marks a session revoked. */
  async revokeSession(tenantId: string, sessionId: string, now: Date): Promise<void> {
    await this.db
      .update(sessions)
      .set({ revokedAt: now })
      .where(and(eq(sessions.id, sessionId), eq(sessions.tenantId, tenantId), isNull(sessions.revokedAt)));
  }

  /** Records one login attempt under `key`; returns its id. */
  async insertAttempt(key: string, at: Date): Promise<string> {
    const id = randomUUID();
    await this.db.insert(loginAttempts).values({ id, key, attemptedAt: at });
    return id;
  }

  /** Number of attempts under `key` after `since`. */
  async attemptsSince(key: string, since: Date): Promise<number> {
    const [total] = await this.db
      .select({ n: count() })
      .from(loginAttempts)
      .where(and(eq(loginAttempts.key, key), gt(loginAttempts.attemptedAt, since)));
    return Number(total?.n ?? 0);
  }

  /** Time of the attempt at `offset` (oldest first) under `key` after `since`. */
  async attemptAt(key: string, since: Date, offset: number): Promise<Date | undefined> {
    const rows = await this.db
      .select({ at: loginAttempts.attemptedAt })
      .from(loginAttempts)
      .where(and(eq(loginAttempts.key, key), gt(loginAttempts.attemptedAt, since)))
      .orderBy(asc(loginAttempts.attemptedAt))
      .offset(offset)
      .limit(1);
    return rows[0]?.at;
  }

  /** Forgets every attempt under `key`. */
  async deleteAttempts(key: string): Promise<void> {
    await this.db.delete(loginAttempts).where(eq(loginAttempts.key, key));
  }

  /** Forgets one attempt. */
  async deleteAttempt(id: string): Promise<void> {
    await this.db.delete(loginAttempts).where(eq(loginAttempts.id, id));
  }

  /** Drops attempts older than `before` (they no longer count). */
  async pruneAttempts(before: Date): Promise<void> {
    await this.db.delete(loginAttempts).where(lt(loginAttempts.attemptedAt, before));
  }

  /** Returns the secret `name`, storing `candidate` first when none exists (first writer wins). */
  async secret(name: string, candidate: string): Promise<string> {
    await this.db
      .insert(serverSecrets)
      .values({ name, value: candidate, createdAt: new Date() })
      .onConflictDoNothing({ target: serverSecrets.name });
    const rows = await this.db.select().from(serverSecrets).where(eq(serverSecrets.name, name)).limit(1);
    const value = rows[0]?.value;
    if (value === undefined) {
      throw new Error(`server secret ${name} could not be stored`);
    }
    return value;
  }
}
