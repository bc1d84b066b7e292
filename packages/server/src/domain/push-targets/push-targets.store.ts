/**
 * SQL of push targets: tenant-scoped create, read, update and delete for the API; the sealed URIs
 * of a stream's enabled targets and the state reports for the node that pushes them.
 */
import { and, asc, count, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import type { PushCountersReport, PushStateReport, PushStatus, PushTargetRecord } from './push-target.js';
import { pushTargetsTable } from './push-target-tables.js';

/** A new target row. */
export interface NewPushTarget {
  readonly id: string;
  readonly tenantId: string;
  readonly streamId: string;
  readonly platform: string;
  readonly name: string;
  readonly targetUriSealed: string;
  readonly targetUriMasked: string;
  readonly createdAt: Date;
}

/** The fields an update may change. */
export interface PushTargetChanges {
  readonly name?: string;
  readonly targetUriSealed?: string;
  readonly targetUriMasked?: string;
  readonly isEnabled?: boolean;
  readonly updatedAt: Date;
}

/** A sealed target as the pushing node reads it. */
export interface SealedPushTarget {
  readonly id: string;
  readonly streamId: string;
  readonly targetUriSealed: string;
}

type Row = typeof pushTargetsTable.$inferSelect;

function toRecord(row: Row): PushTargetRecord {
  return {
    id: row.id,
    tenantId: row.tenantId,
    streamId: row.streamId,
    platform: row.platform,
    name: row.name,
    targetUri: row.targetUriMasked,
    isEnabled: row.isEnabled,
    status: row.status as PushStatus,
    lastError: row.lastError,
    lastPushedAt: row.lastPushedAt,
    bytesSent: row.bytesSent,
    bitrateBps: row.bitrateBps,
    droppedUnits: row.droppedUnits,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** Push-target persistence. */
export class PushTargetsStore {
  constructor(private readonly db: Db) {}

  /** Inserts a target (idle, enabled). */
  async insert(target: NewPushTarget): Promise<PushTargetRecord> {
    const rows = await this.db
      .insert(pushTargetsTable)
      .values({
        ...target,
        isEnabled: true,
        status: 'idle',
        bytesSent: 0,
        bitrateBps: 0,
        droppedUnits: 0,
        updatedAt: target.createdAt,
      })
      .returning();
    const row = rows[0];
    if (!row) {
      throw new Error('insert returned no row');
    }
    return toRecord(row);
  }

  /** Targets of the tenant's streams, oldest first. */
  async listForStreams(tenantId: string, streamIds: readonly string[]): Promise<PushTargetRecord[]> {
    const rows = await this.db
      .select()
      .from(pushTargetsTable)
      .where(and(eq(pushTargetsTable.tenantId, tenantId), inArray(pushTargetsTable.streamId, [...streamIds])))
      .orderBy(asc(pushTargetsTable.createdAt), asc(pushTargetsTable.id));
    return rows.map(toRecord);
  }

  /** Targets of a stream. */
  async countForStream(tenantId: string, streamId: string): Promise<number> {
    const rows = await this.db
      .select({ total: count() })
      .from(pushTargetsTable)
      .where(and(eq(pushTargetsTable.tenantId, tenantId), eq(pushTargetsTable.streamId, streamId)));
    return rows[0]?.total ?? 0;
  }

  /** The tenant's target, or undefined. */
  async find(tenantId: string, id: string): Promise<PushTargetRecord | undefined> {
    const rows = await this.db
      .select()
      .from(pushTargetsTable)
      .where(and(eq(pushTargetsTable.tenantId, tenantId), eq(pushTargetsTable.id, id)))
      .limit(1);
    return rows[0] ? toRecord(rows[0]) : undefined;
  }

  /** Applies changes to the tenant's target; undefined when there is none. */
  async update(tenantId: string, id: string, changes: PushTargetChanges): Promise<PushTargetRecord | undefined> {
    const rows = await this.db
      .update(pushTargetsTable)
      .set(changes)
      .where(and(eq(pushTargetsTable.tenantId, tenantId), eq(pushTargetsTable.id, id)))
      .returning();
    return rows[0] ? toRecord(rows[0]) : undefined;
  }

  /** Deletes the tenant's target; answers its stream, or undefined when there was none. */
  async delete(tenantId: string, id: string): Promise<string | undefined> {
    const rows = await this.db
      .delete(pushTargetsTable)
      .where(and(eq(pushTargetsTable.tenantId, tenantId), eq(pushTargetsTable.id, id)))
      .returning({ streamId: pushTargetsTable.streamId });
    return rows[0]?.streamId;
  }

  /** The enabled targets of a stream, sealed (any tenant: the media plane asks by stream UUID). */
  async enabledForStream(streamId: string): Promise<SealedPushTarget[]> {
    return this.db
      .select({
        id: pushTargetsTable.id,
        streamId: pushTargetsTable.streamId,
        targetUriSealed: pushTargetsTable.targetUriSealed,
      })
      .from(pushTargetsTable)
      .where(and(eq(pushTargetsTable.streamId, streamId), eq(pushTargetsTable.isEnabled, true)))
      .orderBy(asc(pushTargetsTable.createdAt), asc(pushTargetsTable.id));
  }

  /** Records the state of a target this node pushes (nothing when the target is gone). */
  async report(id: string, nodeId: string, state: PushStateReport, at: Date): Promise<void> {
    await this.db
      .update(pushTargetsTable)
      .set({ ...state, nodeId, updatedAt: at })
      .where(eq(pushTargetsTable.id, id));
  }

  /** Records the counters of many targets this node pushes in one statement (gone targets are skipped). */
  async reportCounters(nodeId: string, reports: readonly PushCountersReport[], at: Date): Promise<void> {
    if (reports.length === 0) {
      return;
    }
    const rows = sql.join(
      reports.map(
        (r) =>
          sql`(${r.id}::uuid, ${r.bytesSent}::bigint, ${r.bitrateBps}::integer, ${r.droppedUnits}::bigint, ${r.lastPushedAt?.toISOString() ?? null}::timestamptz)`,
      ),
      sql`, `,
    );
    await this.db.execute(sql`
      UPDATE push_targets AS t
      SET bytes_sent = v.bytes_sent, bitrate_bps = v.bitrate_bps, dropped_units = v.dropped_units,
          last_pushed_at = v.last_pushed_at, node_id = ${nodeId}, updated_at = ${at.toISOString()}::timestamptz
      FROM (VALUES ${rows}) AS v(id, bytes_sent, bitrate_bps, dropped_units, last_pushed_at)
      WHERE t.id = v.id`);
  }

  /** Sets every target this node left non-idle (a previous run) back to idle. */
  async resetNode(nodeId: string, at: Date): Promise<void> {
    await this.db
      .update(pushTargetsTable)
      .set({ status: 'idle', bitrateBps: 0, updatedAt: at })
      .where(and(eq(pushTargetsTable.nodeId, nodeId), ne(pushTargetsTable.status, 'idle')));
  }
}
