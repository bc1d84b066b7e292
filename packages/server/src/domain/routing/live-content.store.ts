/**
 * SQL of live content by playback id: the stream (what viewer routing reports about it) and the
 * node that ingests it (where an edge relays it from), with that node's heartbeat.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { mediaNodesTable } from '../node-status/media-nodes-table.js';
import type { StreamStatus, TrackInfo } from '../streams/stream.js';
import { streamsTable } from '../streams/stream-tables.js';

/** A live stream as routing sees it. */
export interface LiveContentRow {
  readonly streamId: string;
  readonly tenantId: string;
  readonly playbackId: string;
  readonly name: string;
  readonly description: string | null;
  readonly status: StreamStatus;
  readonly tracks: readonly TrackInfo[];
  /** Viewers on the ingesting node as it last reported them. */
  readonly currentViewers: number;
  /** The node reporting the stream (its origin while live). */
  readonly origin: {
    readonly nodeId: string;
    readonly baseUrl: string;
    readonly heartbeatAt: Date;
    /** Its heartbeat period (stale after three). */
    readonly heartbeatMs: number;
    readonly stoppedAt: Date | null;
  } | null;
}

/** Live content persistence (read only). */
export class LiveContentStore {
  constructor(private readonly db: Db) {}

  /** The stream with this playback id and its origin node; undefined when there is none. */
  async byPlaybackId(playbackId: string): Promise<LiveContentRow | undefined> {
    const rows = await this.db
      .select({
        streamId: streamsTable.id,
        tenantId: streamsTable.tenantId,
        playbackId: streamsTable.playbackId,
        name: streamsTable.name,
        description: streamsTable.description,
        status: streamsTable.status,
        tracks: streamsTable.tracks,
        currentViewers: streamsTable.currentViewers,
        nodeId: mediaNodesTable.id,
        baseUrl: mediaNodesTable.baseUrl,
        heartbeatAt: mediaNodesTable.heartbeatAt,
        heartbeatMs: mediaNodesTable.heartbeatMs,
        stoppedAt: mediaNodesTable.stoppedAt,
      })
      .from(streamsTable)
      .leftJoin(mediaNodesTable, eq(mediaNodesTable.id, streamsTable.statusNodeId))
      .where(eq(streamsTable.playbackId, playbackId))
      .limit(1);
    const row = rows[0];
    if (!row) {
      return undefined;
    }
    const { nodeId, baseUrl, heartbeatAt, heartbeatMs, stoppedAt, ...stream } = row;
    return {
      ...stream,
      status: stream.status as StreamStatus,
      origin:
        nodeId && baseUrl && heartbeatAt && heartbeatMs !== null
          ? { nodeId, baseUrl, heartbeatAt, heartbeatMs, stoppedAt }
          : null,
    };
  }
}
