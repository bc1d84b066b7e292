/**
 * SQL of live status: what the media plane reports about a stream (status, node, start time,
 * tracks, viewers). Rows are addressed by stream UUID only: the media plane is trusted.
 */
import { and, eq, isNull, or } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import type { StreamStatus, TrackInfo } from './stream.js';
import { streamsTable } from './stream-tables.js';

/** A status report of one stream. */
export interface StatusReport {
  readonly status: Exclude<StreamStatus, 'OFFLINE'>;
  readonly nodeId: string;
  readonly startedAt: Date;
  readonly tracks: readonly TrackInfo[];
  readonly at: Date;
}

/** Live status persistence. */
export class StreamStatusStore {
  constructor(private readonly db: Db) {}

  /** Marks a stream live (or reconnecting) on a node with its tracks; answers its tenant (undefined: no such stream). */
  async report(streamId: string, report: StatusReport): Promise<string | undefined> {
    const rows = await this.db
      .update(streamsTable)
      .set({
        status: report.status,
        statusNodeId: report.nodeId,
        startedAt: report.startedAt,
        statusUpdatedAt: report.at,
        tracks: [...report.tracks],
      })
      .where(eq(streamsTable.id, streamId))
      .returning({ tenantId: streamsTable.tenantId });
    return rows[0]?.tenantId;
  }

  /** Marks a stream offline unless another node has taken it over since; answers its tenant when it changed. */
  async offline(streamId: string, nodeId: string, at: Date): Promise<string | undefined> {
    const rows = await this.db
      .update(streamsTable)
      .set({ status: 'OFFLINE', currentViewers: 0, statusUpdatedAt: at })
      .where(
        and(
          eq(streamsTable.id, streamId),
          or(eq(streamsTable.statusNodeId, nodeId), isNull(streamsTable.statusNodeId)),
        ),
      )
      .returning({ tenantId: streamsTable.tenantId });
    return rows[0]?.tenantId;
  }

  /** Replaces the tracks of a stream this node reports on (the publisher changed its description). */
  async tracks(streamId: string, nodeId: string, tracks: readonly TrackInfo[], at: Date): Promise<void> {
    await this.db
      .update(streamsTable)
      .set({ tracks: [...tracks], statusUpdatedAt: at })
      .where(and(eq(streamsTable.id, streamId), eq(streamsTable.statusNodeId, nodeId)));
  }

  /** Stores the current viewer count reported by a node. */
  async viewers(streamId: string, nodeId: string, currentViewers: number, at: Date): Promise<void> {
    await this.db
      .update(streamsTable)
      .set({ currentViewers, statusUpdatedAt: at })
      .where(and(eq(streamsTable.id, streamId), eq(streamsTable.statusNodeId, nodeId)));
  }
}
