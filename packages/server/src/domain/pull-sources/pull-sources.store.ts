/**
 * SQL of pulling: which node holds each pull (a lease another node may take once it lapses), the
 * pull's reported state, and the recent attempt events of each stream (older ones pruned).
 * Leases and state are addressed by stream UUID (the media plane is trusted); events are read
 * per tenant.
 */
import { and, desc, eq, inArray, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { streamsTable } from '../streams/stream-tables.js';
import type { PullCandidate, PullPhase, PullSourceEventRecord } from './pull-source.js';
import { pullSourceEventsTable, pullSourceStateTable } from './pull-source-tables.js';

/** Events kept per stream. */
export const PULL_EVENTS_KEPT = 100;

/** A new attempt event. */
export interface NewPullEvent {
  readonly streamId: string;
  readonly tenantId: string;
  readonly nodeId: string;
  readonly eventKind: string;
  readonly attempt: number;
  readonly message: string;
  readonly address: string | null;
  readonly at: Date;
}

/** A state report of the node holding a pull. */
export interface PullStateReport {
  readonly phase: PullPhase;
  readonly attempt: number;
  readonly failures: number;
  readonly nextAttemptAt: Date | null;
  readonly lastError: string | null;
  readonly at: Date;
}

const candidateColumns = {
  streamId: streamsTable.id,
  tenantId: streamsTable.tenantId,
  playbackId: streamsTable.playbackId,
  sourceUri: streamsTable.pullSourceUri,
  sourceClass: streamsTable.pullSourceClass,
  enabled: streamsTable.pullSourceEnabled,
  onDemand: streamsTable.pullSourceOnDemand,
};

function toCandidate(row: {
  streamId: string;
  tenantId: string;
  playbackId: string;
  sourceUri: string | null;
  sourceClass: string | null;
  enabled: boolean;
  onDemand: boolean;
}): PullCandidate | undefined {
  if (!row.sourceUri) {
    return undefined;
  }
  return { ...row, sourceUri: row.sourceUri, sourceClass: row.sourceClass === 'private' ? 'private' : 'public' };
}

/** Pull leases, state and events. */
export class PullSourcesStore {
  constructor(private readonly db: Db) {}

  /** Every enabled PULL stream (always-on and on-demand). */
  async candidates(): Promise<PullCandidate[]> {
    const rows = await this.db
      .select(candidateColumns)
      .from(streamsTable)
      .where(and(eq(streamsTable.ingestMode, 'PULL'), eq(streamsTable.pullSourceEnabled, true)));
    return rows.map(toCandidate).filter((candidate): candidate is PullCandidate => candidate !== undefined);
  }

  /** The PULL stream of a playback ID (any tenant: the viewer asked by playback ID). */
  async candidateByPlaybackId(playbackId: string): Promise<PullCandidate | undefined> {
    const rows = await this.db
      .select(candidateColumns)
      .from(streamsTable)
      .where(and(eq(streamsTable.playbackId, playbackId), eq(streamsTable.ingestMode, 'PULL')))
      .limit(1);
    return rows[0] ? toCandidate(rows[0]) : undefined;
  }

  /** Takes (or keeps) the pull of a stream for `nodeId` unless another node's lease is still valid. */
  async claim(streamId: string, nodeId: string, leaseUntil: Date, now: Date): Promise<boolean> {
    const rows = await this.db
      .insert(pullSourceStateTable)
      .values({
        streamId,
        nodeId,
        leaseUntil,
        phase: 'CONNECTING',
        attempt: 0,
        failures: 0,
        nextAttemptAt: null,
        lastError: null,
        updatedAt: now,
      })
      .onConflictDoUpdate({
        target: pullSourceStateTable.streamId,
        set: { nodeId, leaseUntil, updatedAt: now },
        setWhere: or(eq(pullSourceStateTable.nodeId, nodeId), lt(pullSourceStateTable.leaseUntil, now)),
      })
      .returning({ streamId: pullSourceStateTable.streamId });
    return rows.length > 0;
  }

  /** Extends this node's leases; answers the streams it still holds. */
  async renew(nodeId: string, streamIds: readonly string[], leaseUntil: Date): Promise<Set<string>> {
    if (streamIds.length === 0) {
      return new Set();
    }
    const rows = await this.db
      .update(pullSourceStateTable)
      .set({ leaseUntil })
      .where(and(eq(pullSourceStateTable.nodeId, nodeId), inArray(pullSourceStateTable.streamId, [...streamIds])))
      .returning({ streamId: pullSourceStateTable.streamId });
    return new Set(rows.map((row) => row.streamId));
  }

  /** Records the state of a pull this node holds. */
  async report(streamId: string, nodeId: string, state: PullStateReport): Promise<void> {
    await this.db
      .update(pullSourceStateTable)
      .set({
        phase: state.phase,
        attempt: state.attempt,
        failures: state.failures,
        nextAttemptAt: state.nextAttemptAt,
        lastError: state.lastError,
        updatedAt: state.at,
      })
      .where(and(eq(pullSourceStateTable.streamId, streamId), eq(pullSourceStateTable.nodeId, nodeId)));
  }

  /** Gives a pull up: STOPPED, lease lapsed (any node may take it). */
  async release(streamId: string, nodeId: string, at: Date): Promise<void> {
    await this.db
      .update(pullSourceStateTable)
      .set({ phase: 'STOPPED', leaseUntil: at, nextAttemptAt: null, updatedAt: at })
      .where(and(eq(pullSourceStateTable.streamId, streamId), eq(pullSourceStateTable.nodeId, nodeId)));
  }

  /** Appends an event and prunes the stream's oldest beyond the kept number; false when the stream is gone. */
  async recordEvent(event: NewPullEvent): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const exists = await tx
        .select({ id: streamsTable.id })
        .from(streamsTable)
        .where(and(eq(streamsTable.id, event.streamId), eq(streamsTable.tenantId, event.tenantId)))
        .for('update');
      if (exists.length === 0) {
        return false;
      }
      await tx.insert(pullSourceEventsTable).values({
        streamId: event.streamId,
        tenantId: event.tenantId,
        nodeId: event.nodeId,
        eventKind: event.eventKind,
        attempt: event.attempt,
        message: event.message,
        address: event.address,
        createdAt: event.at,
      });
      await tx.execute(sql`
        DELETE FROM pull_source_events
        WHERE stream_id = ${event.streamId}
          AND id <= (SELECT id FROM pull_source_events WHERE stream_id = ${event.streamId}
                     ORDER BY id DESC OFFSET ${PULL_EVENTS_KEPT} LIMIT 1)`);
      return true;
    });
  }

  /** The tenant's stream's newest events, newest first. */
  async recentEvents(tenantId: string, streamId: string, limit: number): Promise<PullSourceEventRecord[]> {
    const rows = await this.db
      .select()
      .from(pullSourceEventsTable)
      .where(and(eq(pullSourceEventsTable.tenantId, tenantId), eq(pullSourceEventsTable.streamId, streamId)))
      .orderBy(desc(pullSourceEventsTable.id))
      .limit(limit);
    return rows.map((row) => ({
      id: row.id,
      eventKind: row.eventKind,
      attempt: row.attempt,
      message: row.message,
      address: row.address,
      nodeId: row.nodeId,
      createdAt: row.createdAt,
    }));
  }
}
