/**
 * SQL of media nodes: registration, heartbeats, and the reset of streams left live by this node
 * (a restart) or by a node whose heartbeat went stale (a crash elsewhere).
 */
import { and, eq, gte, isNull, ne, notInArray, or } from 'drizzle-orm';
import { type Db, isEmbedded } from '../../db/database.js';
import { streamsTable } from '../streams/stream-tables.js';
import { mediaNodesTable } from './media-nodes-table.js';

/** A registered node. */
export interface MediaNodeRow {
  readonly id: string;
  readonly baseUrl: string;
  readonly version: string;
  readonly startedAt: Date;
  readonly heartbeatAt: Date;
}

/** Media node persistence. */
export class MediaNodesStore {
  /** Whether other nodes can use this database (PostgreSQL); embedded PGlite has one process. */
  readonly shared: boolean;

  constructor(private readonly db: Db) {
    this.shared = !isEmbedded(db);
  }

  /** Registers (or re-registers) a node with a fresh heartbeat. */
  async upsert(node: MediaNodeRow): Promise<void> {
    await this.db
      .insert(mediaNodesTable)
      .values(node)
      .onConflictDoUpdate({
        target: mediaNodesTable.id,
        set: { baseUrl: node.baseUrl, version: node.version, startedAt: node.startedAt, heartbeatAt: node.heartbeatAt },
      });
  }

  /** Records a heartbeat. */
  async heartbeat(id: string, at: Date): Promise<void> {
    await this.db.update(mediaNodesTable).set({ heartbeatAt: at }).where(eq(mediaNodesTable.id, id));
  }

  /** Nodes whose heartbeat is at or after `since`. */
  async listFresh(since: Date): Promise<MediaNodeRow[]> {
    return this.db.select().from(mediaNodesTable).where(gte(mediaNodesTable.heartbeatAt, since));
  }

  /**
   * Sets OFFLINE every stream not OFFLINE whose reporting node is `ownNodeId` (when given), is
   * unknown, or has a heartbeat older than `staleBefore`. Returns the stream UUIDs reset.
   */
  async resetOrphanedStreams(ownNodeId: string | undefined, staleBefore: Date, at: Date): Promise<string[]> {
    const fresh = this.db
      .select({ id: mediaNodesTable.id })
      .from(mediaNodesTable)
      .where(
        ownNodeId === undefined
          ? gte(mediaNodesTable.heartbeatAt, staleBefore)
          : and(gte(mediaNodesTable.heartbeatAt, staleBefore), ne(mediaNodesTable.id, ownNodeId)),
      );
    const rows = await this.db
      .update(streamsTable)
      .set({ status: 'OFFLINE', currentViewers: 0, statusUpdatedAt: at })
      .where(
        and(
          ne(streamsTable.status, 'OFFLINE'),
          or(isNull(streamsTable.statusNodeId), notInArray(streamsTable.statusNodeId, fresh)),
        ),
      )
      .returning({ id: streamsTable.id });
    return rows.map((row) => row.id);
  }
}
