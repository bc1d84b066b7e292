/**
 * SQL of stream keys: tenant-scoped listing, creation, deletion and primary-key rotation, and
 * the ingest lookup by key value (active keys only).
 */
import { and, count, eq, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import type { PageRequest } from '../pagination.js';
import { keysetCondition, keysetOrder } from './keyset.js';
import type { IngestMode, StreamKeyRecord } from './stream.js';
import { primaryKeyRow, tenantStream } from './stream-rows.js';
import { streamKeysTable, streamsTable } from './stream-tables.js';

/** What an active key resolves to for ingest. */
export interface KeyGrant {
  readonly streamId: string;
  readonly playbackId: string;
  readonly tenantId: string;
  readonly keyId: string;
}

/** A new non-primary key. */
export interface NewStreamKey {
  readonly id: string;
  readonly tenantId: string;
  readonly streamId: string;
  readonly keyValue: string;
  readonly keyName: string;
  readonly createdAt: Date;
}

/** The columns of a KeyGrant (a key joined with its stream). */
const grantColumns = {
  streamId: streamKeysTable.streamId,
  playbackId: streamsTable.playbackId,
  tenantId: streamKeysTable.tenantId,
  keyId: streamKeysTable.id,
};

/** The keys of one tenant's stream. */
function keysOf(tenantId: string, streamId: string): SQL | undefined {
  return and(eq(streamKeysTable.tenantId, tenantId), eq(streamKeysTable.streamId, streamId));
}

/** Stream key persistence. */
export class StreamKeysStore {
  constructor(private readonly db: Db) {}

  /** Inserts a key. */
  async insert(key: NewStreamKey): Promise<StreamKeyRecord> {
    const rows = await this.db
      .insert(streamKeysTable)
      .values({ ...key, isPrimary: false, isActive: true })
      .returning();
    const row = rows[0];
    if (!row) {
      throw new Error('insert returned no row');
    }
    return row;
  }

  /** Active keys of a stream. */
  async countActive(tenantId: string, streamId: string): Promise<number> {
    const rows = await this.db
      .select({ total: count() })
      .from(streamKeysTable)
      .where(and(keysOf(tenantId, streamId), eq(streamKeysTable.isActive, true)));
    return rows[0]?.total ?? 0;
  }

  /** One page of a stream's keys (limit + 1 rows) and their total. */
  async page(
    tenantId: string,
    streamId: string,
    request: PageRequest,
  ): Promise<{ rows: StreamKeyRecord[]; totalCount: number }> {
    const scope = keysOf(tenantId, streamId);
    const [rows, totals] = await Promise.all([
      request.limit === 0
        ? Promise.resolve([])
        : this.db
            .select()
            .from(streamKeysTable)
            .where(and(scope, keysetCondition(streamKeysTable.createdAt, streamKeysTable.id, request)))
            .orderBy(...keysetOrder(streamKeysTable.createdAt, streamKeysTable.id, request))
            .limit(request.limit + 1),
      this.db.select({ total: count() }).from(streamKeysTable).where(scope),
    ]);
    return { rows, totalCount: totals[0]?.total ?? 0 };
  }

  /** The tenant's key of a stream, or undefined. */
  async find(tenantId: string, streamId: string, keyId: string): Promise<StreamKeyRecord | undefined> {
    const rows = await this.db
      .select()
      .from(streamKeysTable)
      .where(and(keysOf(tenantId, streamId), eq(streamKeysTable.id, keyId)))
      .limit(1);
    return rows[0];
  }

  /** Deletes a non-primary key; false when there is no such key. */
  async deleteNonPrimary(tenantId: string, streamId: string, keyId: string): Promise<boolean> {
    const rows = await this.db
      .delete(streamKeysTable)
      .where(and(keysOf(tenantId, streamId), eq(streamKeysTable.id, keyId), eq(streamKeysTable.isPrimary, false)))
      .returning({ id: streamKeysTable.id });
    return rows.length > 0;
  }

  /**
   * Replaces the primary key of a stream: the old one is deactivated (kept, listed inactive) and
   * the new one becomes primary, in one transaction. False when the tenant has no such stream.
   */
  async rotatePrimary(
    tenantId: string,
    streamId: string,
    next: { readonly id: string; readonly value: string },
    now: Date,
  ): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const streams = await tx
        .update(streamsTable)
        .set({ updatedAt: now })
        .where(tenantStream(tenantId, streamId))
        .returning({ id: streamsTable.id });
      if (streams.length === 0) {
        return false;
      }
      await tx
        .update(streamKeysTable)
        .set({ isPrimary: false, isActive: false })
        .where(and(eq(streamKeysTable.streamId, streamId), eq(streamKeysTable.isPrimary, true)));
      await tx.insert(streamKeysTable).values(primaryKeyRow(tenantId, streamId, next, now));
      return true;
    });
  }

  /**
   * Resolves an active key of a stream in `mode` for ingest and stamps its last use; undefined
   * when the key is unknown or inactive or its stream takes the other ingest mode.
   */
  async stampActiveKey(keyValue: string, mode: IngestMode, now: Date): Promise<KeyGrant | undefined> {
    const rows = await this.db
      .update(streamKeysTable)
      .set({ lastUsedAt: now })
      .from(streamsTable)
      .where(
        and(
          eq(streamKeysTable.keyValue, keyValue),
          eq(streamKeysTable.isActive, true),
          eq(streamsTable.id, streamKeysTable.streamId),
          eq(streamsTable.ingestMode, mode),
        ),
      )
      .returning(grantColumns);
    return rows[0];
  }

  /** Resolves an active key without side effects (public ingest endpoint lookup). */
  async findActiveKey(keyValue: string): Promise<(KeyGrant & { record: boolean; name: string }) | undefined> {
    const rows = await this.db
      .select({
        ...grantColumns,
        record: streamsTable.record,
        name: streamsTable.name,
      })
      .from(streamKeysTable)
      .innerJoin(streamsTable, eq(streamsTable.id, streamKeysTable.streamId))
      .where(and(eq(streamKeysTable.keyValue, keyValue), eq(streamKeysTable.isActive, true)))
      .limit(1);
    return rows[0];
  }
}
