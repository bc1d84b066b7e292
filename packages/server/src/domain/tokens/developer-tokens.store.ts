/**
 * SQL of developer tokens: insert, keyset pages per tenant, lookup by hash, revoke, last use.
 */
import { and, asc, count, desc, eq, gt, isNull, lt, or, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import type { PageRequest } from '../pagination.js';
import { developerTokens } from './developer-tokens.tables.js';

/** A developer token row. */
export type DeveloperTokenRow = typeof developerTokens.$inferSelect;

/** Reads and writes developer token rows. */
export class DeveloperTokensStore {
  constructor(private readonly db: Db) {}

  /** Stores a new token. */
  async insert(row: DeveloperTokenRow): Promise<void> {
    await this.db.insert(developerTokens).values(row);
  }

  /** The token whose value hashes to `tokenHash`. */
  async byHash(tokenHash: string): Promise<DeveloperTokenRow | undefined> {
    const rows = await this.db.select().from(developerTokens).where(eq(developerTokens.tokenHash, tokenHash)).limit(1);
    return rows[0];
  }

  /** One page of a tenant's tokens in creation order: `limit + 1` rows in the request's direction. */
  async page(tenantId: string, request: PageRequest): Promise<{ rows: DeveloperTokenRow[]; total: number }> {
    const forward = request.direction === 'forward';
    const conditions: SQL[] = [eq(developerTokens.tenantId, tenantId)];
    if (request.cursor) {
      const at = new Date(Number(request.cursor.createdAtMicros / 1000n));
      const { id } = request.cursor;
      const beyond = forward
        ? or(gt(developerTokens.createdAt, at), and(eq(developerTokens.createdAt, at), gt(developerTokens.id, id)))
        : or(lt(developerTokens.createdAt, at), and(eq(developerTokens.createdAt, at), lt(developerTokens.id, id)));
      if (beyond) {
        conditions.push(beyond);
      }
    }
    const order = forward
      ? [asc(developerTokens.createdAt), asc(developerTokens.id)]
      : [desc(developerTokens.createdAt), desc(developerTokens.id)];
    const rows = await this.db
      .select()
      .from(developerTokens)
      .where(and(...conditions))
      .orderBy(...order)
      .limit(request.limit + 1);
    const [total] = await this.db
      .select({ n: count() })
      .from(developerTokens)
      .where(eq(developerTokens.tenantId, tenantId));
    return { rows, total: Number(total?.n ?? 0) };
  }

  /** Marks a tenant's token revoked; returns the row, or undefined when the tenant has no such token. */
  async revoke(tenantId: string, id: string, now: Date): Promise<DeveloperTokenRow | undefined> {
    await this.db
      .update(developerTokens)
      .set({ revokedAt: now })
      .where(
        and(eq(developerTokens.id, id), eq(developerTokens.tenantId, tenantId), isNull(developerTokens.revokedAt)),
      );
    const rows = await this.db
      .select()
      .from(developerTokens)
      .where(and(eq(developerTokens.id, id), eq(developerTokens.tenantId, tenantId)))
      .limit(1);
    return rows[0];
  }

  /** Records a use of the token. */
  async touch(id: string, now: Date): Promise<void> {
    await this.db.update(developerTokens).set({ lastUsedAt: now }).where(eq(developerTokens.id, id));
  }
}
