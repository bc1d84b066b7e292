/**
 * SQL of signing keys: insert, keyset pages per tenant (optionally by status), a tenant's keys,
 * active count, revoke, last use.
 */
import { and, asc, count, desc, eq, gt, isNotNull, isNull, lt, or, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import type { PageRequest } from '../pagination.js';
import { signingKeysTable } from './signing-keys.tables.js';

/** A signing key row. */
export type SigningKeyRow = typeof signingKeysTable.$inferSelect;

/** Which keys a page lists. */
export type SigningKeyStatusFilter = 'ACTIVE' | 'REVOKED' | undefined;

function statusCondition(status: SigningKeyStatusFilter): SQL | undefined {
  if (status === 'ACTIVE') {
    return isNull(signingKeysTable.revokedAt);
  }
  return status === 'REVOKED' ? isNotNull(signingKeysTable.revokedAt) : undefined;
}

/** Reads and writes signing key rows. */
export class SigningKeysStore {
  constructor(private readonly db: Db) {}

  /** Stores a new key. */
  async insert(row: SigningKeyRow): Promise<void> {
    await this.db.insert(signingKeysTable).values(row);
  }

  /** A tenant's key by id. */
  async find(tenantId: string, id: string): Promise<SigningKeyRow | undefined> {
    const rows = await this.db
      .select()
      .from(signingKeysTable)
      .where(and(eq(signingKeysTable.id, id), eq(signingKeysTable.tenantId, tenantId)))
      .limit(1);
    return rows[0];
  }

  /** A tenant's most recent keys, active and revoked, for verification. */
  async verificationKeys(tenantId: string, limit: number): Promise<SigningKeyRow[]> {
    return this.db
      .select()
      .from(signingKeysTable)
      .where(eq(signingKeysTable.tenantId, tenantId))
      .orderBy(desc(signingKeysTable.createdAt))
      .limit(limit);
  }

  /** The kids of a tenant's active keys. */
  async activeKids(tenantId: string): Promise<string[]> {
    const rows = await this.db
      .select({ kid: signingKeysTable.kid })
      .from(signingKeysTable)
      .where(and(eq(signingKeysTable.tenantId, tenantId), isNull(signingKeysTable.revokedAt)));
    return rows.map((row) => row.kid);
  }

  /** How many active keys a tenant has. */
  async countActive(tenantId: string): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(signingKeysTable)
      .where(and(eq(signingKeysTable.tenantId, tenantId), isNull(signingKeysTable.revokedAt)));
    return Number(row?.n ?? 0);
  }

  /** One page of a tenant's keys in creation order: `limit + 1` rows in the request's direction. */
  async page(
    tenantId: string,
    request: PageRequest,
    status: SigningKeyStatusFilter,
  ): Promise<{ rows: SigningKeyRow[]; total: number }> {
    const forward = request.direction === 'forward';
    const base: SQL[] = [eq(signingKeysTable.tenantId, tenantId)];
    const byStatus = statusCondition(status);
    if (byStatus) {
      base.push(byStatus);
    }
    const conditions = [...base];
    if (request.cursor) {
      const at = new Date(Number(request.cursor.createdAtMicros / 1000n));
      const { id } = request.cursor;
      const t = signingKeysTable;
      const beyond = forward
        ? or(gt(t.createdAt, at), and(eq(t.createdAt, at), gt(t.id, id)))
        : or(lt(t.createdAt, at), and(eq(t.createdAt, at), lt(t.id, id)));
      if (beyond) {
        conditions.push(beyond);
      }
    }
    const order = forward
      ? [asc(signingKeysTable.createdAt), asc(signingKeysTable.id)]
      : [desc(signingKeysTable.createdAt), desc(signingKeysTable.id)];
    const rows = await this.db
      .select()
      .from(signingKeysTable)
      .where(and(...conditions))
      .orderBy(...order)
      .limit(request.limit + 1);
    const [total] = await this.db
      .select({ n: count() })
      .from(signingKeysTable)
      .where(and(...base));
    return { rows, total: Number(total?.n ?? 0) };
  }

  /** Marks a tenant's key revoked; returns the row, or undefined when the tenant has no such key. */
  async revoke(tenantId: string, id: string, now: Date): Promise<SigningKeyRow | undefined> {
    await this.db
      .update(signingKeysTable)
      .set({ revokedAt: now })
      .where(
        and(eq(signingKeysTable.id, id), eq(signingKeysTable.tenantId, tenantId), isNull(signingKeysTable.revokedAt)),
      );
    return this.find(tenantId, id);
  }

  /** Records a use of the key. */
  async touch(id: string, now: Date): Promise<void> {
    await this.db.update(signingKeysTable).set({ lastUsedAt: now }).where(eq(signingKeysTable.id, id));
  }
}
