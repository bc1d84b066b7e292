/**
 * SQL of streams: every query is scoped by tenant; a stream row is read together with the value
 * of its primary key.
 */
import { and, count, eq, ilike, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import type { PageRequest } from '../pagination.js';
import type { PullPhase, PullStatusRecord } from '../pull-sources/pull-source.js';
import { pullSourceStateTable } from '../pull-sources/pull-source-tables.js';
import { keysetCondition, keysetOrder } from './keyset.js';
import { redactPullUri } from './pull-source.js';
import type { IngestMode, StreamRecord, StreamStatus } from './stream.js';
import { primaryKeyRow, tenantStream } from './stream-rows.js';
import { streamKeysTable, streamsTable } from './stream-tables.js';

/** A new stream row and its first (primary) key. */
export interface NewStream {
  readonly id: string;
  readonly tenantId: string;
  readonly name: string;
  readonly description: string | null;
  readonly playbackId: string;
  readonly record: boolean;
  readonly ingestMode: IngestMode;
  readonly pullSourceUri: string | null;
  readonly pullSourceEnabled: boolean;
  readonly pullSourceClass: 'public' | 'private' | null;
  readonly pullSourceOnDemand: boolean;
  readonly sourceLocation: string | null;
  readonly createdAt: Date;
  readonly primaryKey: { readonly id: string; readonly value: string };
}

/** Columns updateStream may change. */
export interface StreamPatch {
  readonly name?: string;
  readonly description?: string | null;
  readonly record?: boolean;
  readonly pullSourceUri?: string;
  readonly pullSourceEnabled?: boolean;
  readonly pullSourceClass?: 'public' | 'private';
  readonly pullSourceOnDemand?: boolean;
  readonly sourceLocation?: string | null;
}

const primaryKeyValue = sql<string>`(SELECT k.key_value FROM stream_keys k WHERE k.stream_id = streams.id AND k.is_primary)`;

const selection = {
  row: streamsTable,
  streamKey: primaryKeyValue,
  pull: pullSourceStateTable,
};

type Row = {
  row: typeof streamsTable.$inferSelect;
  streamKey: string | null;
  pull: typeof pullSourceStateTable.$inferSelect | null;
};

const withPullState = eq(pullSourceStateTable.streamId, streamsTable.id);

function toRecord({ row, streamKey, pull }: Row): StreamRecord {
  const status = row.status as StreamStatus;
  return {
    id: row.id,
    tenantId: row.tenantId,
    name: row.name,
    description: row.description,
    streamKey: streamKey ?? '',
    playbackId: row.playbackId,
    record: row.record,
    ingestMode: row.ingestMode as IngestMode,
    pullSource: row.pullSourceUri
      ? {
          sourceUri: row.pullSourceUri,
          sourceUriRedacted: redactPullUri(row.pullSourceUri),
          enabled: row.pullSourceEnabled,
          class: row.pullSourceClass === 'private' ? 'private' : 'public',
          onDemand: row.pullSourceOnDemand,
        }
      : null,
    sourceLocation: row.sourceLocation,
    metrics: {
      status,
      isLive: status === 'LIVE' || status === 'RECORDING',
      currentViewers: row.currentViewers,
      startedAt: row.startedAt,
      updatedAt: row.statusUpdatedAt,
      nodeId: row.statusNodeId,
      pull: pull ? pullStatusOf(pull) : null,
    },
    tracks: row.tracks,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

function pullStatusOf(pull: typeof pullSourceStateTable.$inferSelect): PullStatusRecord {
  return {
    phase: pull.phase as PullPhase,
    nodeId: pull.nodeId,
    attempt: pull.attempt,
    failures: pull.failures,
    nextAttemptAt: pull.nextAttemptAt,
    lastError: pull.lastError,
    updatedAt: pull.updatedAt,
  };
}

/** Stream persistence. */
export class StreamsStore {
  constructor(private readonly db: Db) {}

  /** Inserts a stream and its primary key in one transaction. */
  async insert(stream: NewStream): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.insert(streamsTable).values({
        id: stream.id,
        tenantId: stream.tenantId,
        name: stream.name,
        description: stream.description,
        playbackId: stream.playbackId,
        record: stream.record,
        ingestMode: stream.ingestMode,
        pullSourceUri: stream.pullSourceUri,
        pullSourceEnabled: stream.pullSourceEnabled,
        pullSourceClass: stream.pullSourceClass,
        pullSourceOnDemand: stream.pullSourceOnDemand,
        sourceLocation: stream.sourceLocation,
        status: 'OFFLINE',
        currentViewers: 0,
        tracks: [],
        createdAt: stream.createdAt,
        updatedAt: stream.createdAt,
      });
      await tx
        .insert(streamKeysTable)
        .values(primaryKeyRow(stream.tenantId, stream.id, stream.primaryKey, stream.createdAt));
    });
  }

  /** The tenant's stream, or undefined. */
  async find(tenantId: string, id: string): Promise<StreamRecord | undefined> {
    const rows = await this.db
      .select(selection)
      .from(streamsTable)
      .leftJoin(pullSourceStateTable, withPullState)
      .where(tenantStream(tenantId, id))
      .limit(1);
    const row = rows[0];
    return row ? toRecord(row) : undefined;
  }

  /** One page of the tenant's streams (limit + 1 rows) and the total count matching `search`. */
  async page(
    tenantId: string,
    request: PageRequest,
    search: string | undefined,
  ): Promise<{ rows: StreamRecord[]; totalCount: number }> {
    const filters: SQL[] = [eq(streamsTable.tenantId, tenantId)];
    if (search) {
      filters.push(ilike(streamsTable.name, `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`));
    }
    const keyset = keysetCondition(streamsTable.createdAt, streamsTable.id, request);
    const [rows, totals] = await Promise.all([
      request.limit === 0
        ? Promise.resolve([] as Row[])
        : this.db
            .select(selection)
            .from(streamsTable)
            .leftJoin(pullSourceStateTable, withPullState)
            .where(and(...filters, keyset))
            .orderBy(...keysetOrder(streamsTable.createdAt, streamsTable.id, request))
            .limit(request.limit + 1),
      this.db
        .select({ total: count() })
        .from(streamsTable)
        .where(and(...filters)),
    ]);
    return { rows: rows.map((row) => toRecord(row)), totalCount: totals[0]?.total ?? 0 };
  }

  /** Number of streams a tenant has. */
  async countForTenant(tenantId: string): Promise<number> {
    const rows = await this.db.select({ total: count() }).from(streamsTable).where(eq(streamsTable.tenantId, tenantId));
    return rows[0]?.total ?? 0;
  }

  /** Applies a patch; false when the tenant has no such stream. */
  async update(tenantId: string, id: string, patch: StreamPatch, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(streamsTable)
      .set({ ...patch, updatedAt: now })
      .where(tenantStream(tenantId, id))
      .returning({ id: streamsTable.id });
    return rows.length > 0;
  }

  /** Deletes a stream and (by cascade) its keys; false when the tenant has no such stream. */
  async delete(tenantId: string, id: string): Promise<boolean> {
    const rows = await this.db
      .delete(streamsTable)
      .where(tenantStream(tenantId, id))
      .returning({ id: streamsTable.id });
    return rows.length > 0;
  }
}
