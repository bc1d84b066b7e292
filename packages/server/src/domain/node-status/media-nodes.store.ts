/**
 * SQL of media nodes: registration with the node's profile, heartbeats with its load, a clean
 * stop, listing, and the reset of streams left live by this node (a restart) or by a node whose
 * heartbeat went stale (a crash elsewhere).
 */
import { and, eq, gte, isNull, lt, ne, notInArray, or, type SQL, sql } from 'drizzle-orm';
import { type Db, isEmbedded } from '../../db/database.js';
import { streamsTable } from '../streams/stream-tables.js';
import { mediaNodesTable, type RegisteredService } from './media-nodes-table.js';

/** What a node says about itself when it registers. */
export interface NodeProfile {
  /** `all` (control plane and media) or `media`. */
  readonly role: 'all' | 'media';
  readonly region: string | null;
  readonly latitude: number | null;
  readonly longitude: number | null;
  /** Egress the node can carry, Mb/s. */
  readonly capacityMbps: number;
  /** NORMAL, or DRAINING (never chosen for new viewers). */
  readonly mode: 'NORMAL' | 'DRAINING';
  readonly services: readonly RegisteredService[];
  /** Playback outputs it serves: hls, llhls, dash, mp4 (webrtc when WHEP is served). */
  readonly outputs: readonly string[];
}

/** What a heartbeat reports. */
export interface NodeLoad {
  /** CPU used by the node process, % of the whole machine. */
  readonly cpuPercent: number;
  readonly viewers: number;
  readonly egressMbps: number;
  /** Live streams held (ingested or relayed). */
  readonly streams: number;
  /** Viewers per stream UUID (streams with viewers only). */
  readonly streamViewers: Readonly<Record<string, number>>;
}

/** The profile of a node that registered before it had one (or an old row). */
export const DEFAULT_PROFILE: NodeProfile = {
  role: 'all',
  region: null,
  latitude: null,
  longitude: null,
  capacityMbps: 1000,
  mode: 'NORMAL',
  services: [],
  outputs: [],
};

/** Load of a node that has not reported any. */
export const NO_LOAD: NodeLoad = { cpuPercent: 0, viewers: 0, egressMbps: 0, streams: 0, streamViewers: {} };

/** A registered node. */
export interface MediaNodeRow {
  readonly id: string;
  readonly baseUrl: string;
  readonly version: string;
  readonly startedAt: Date;
  readonly heartbeatAt: Date;
  /** The node's heartbeat period, ms (stale after STALE_HEARTBEATS of them); default 5000 when registering. */
  readonly heartbeatMs?: number;
}

/** A registered node with its profile, load and whether it stopped cleanly. */
export interface MediaNodeState extends MediaNodeRow, NodeProfile, NodeLoad {
  readonly heartbeatMs: number;
  readonly stoppedAt: Date | null;
}

/** A node is stale once this many of its own heartbeat periods passed without one. */
export const STALE_HEARTBEATS = 3;

/** Whether `node` missed STALE_HEARTBEATS of its own heartbeats at `now` (ms since the epoch). */
export function isStale(node: { readonly heartbeatAt: Date; readonly heartbeatMs: number }, now: number): boolean {
  return now - node.heartbeatAt.getTime() > STALE_HEARTBEATS * node.heartbeatMs;
}

/** SQL: the node's heartbeat is within STALE_HEARTBEATS of its own periods before `at` (isStale's negation). */
function freshAt(at: Date): SQL {
  return sql`${mediaNodesTable.heartbeatAt} >= ${at.toISOString()}::timestamptz - ${mediaNodesTable.heartbeatMs} * ${STALE_HEARTBEATS} * interval '1 millisecond'`;
}

/** Media node persistence. */
export class MediaNodesStore {
  /** Whether other nodes can use this database (PostgreSQL); embedded PGlite has one process. */
  readonly shared: boolean;

  constructor(private readonly db: Db) {
    this.shared = !isEmbedded(db);
  }

  /** The database server's clock now, ms since the epoch (every node's common reference for heartbeats). */
  async databaseNow(): Promise<number> {
    const result = (await this.db.execute(
      sql`SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS ms`,
    )) as unknown as { rows: { ms: number | string }[] };
    return Number(result.rows[0]?.ms);
  }

  /** Registers (or re-registers) a node with a fresh heartbeat. */
  async upsert(node: MediaNodeRow, profile: NodeProfile = DEFAULT_PROFILE, load: NodeLoad = NO_LOAD): Promise<void> {
    const { heartbeatMs, ...row } = node;
    const values = {
      ...row,
      ...(heartbeatMs === undefined ? {} : { heartbeatMs }),
      ...profile,
      ...load,
      services: [...profile.services],
      outputs: [...profile.outputs],
      streamViewers: { ...load.streamViewers },
      stoppedAt: null,
    };
    const { id: _id, ...set } = values;
    await this.db.insert(mediaNodesTable).values(values).onConflictDoUpdate({ target: mediaNodesTable.id, set });
  }

  /** Records a heartbeat (with the node's load and profile when given); clears a clean stop. */
  async heartbeat(id: string, at: Date, load?: NodeLoad, profile?: NodeProfile): Promise<void> {
    await this.db
      .update(mediaNodesTable)
      .set({
        heartbeatAt: at,
        stoppedAt: null,
        ...(load ? { ...load, streamViewers: { ...load.streamViewers } } : {}),
        ...(profile ? { ...profile, services: [...profile.services], outputs: [...profile.outputs] } : {}),
      })
      .where(eq(mediaNodesTable.id, id));
  }

  /** Records that a node stopped cleanly (it is unhealthy at once, not after its heartbeat goes stale). */
  async markStopped(id: string, at: Date): Promise<void> {
    await this.db
      .update(mediaNodesTable)
      .set({ stoppedAt: at, viewers: 0, streams: 0, egressMbps: 0, streamViewers: {} })
      .where(eq(mediaNodesTable.id, id));
  }

  /** Nodes not stale at `at` (each judged by its own heartbeat period). */
  async listFresh(at: Date): Promise<MediaNodeRow[]> {
    return this.db.select().from(mediaNodesTable).where(freshAt(at));
  }

  /** Every node with a heartbeat at or after `since` (fresh or not), with profile and load. */
  async listAll(since: Date): Promise<MediaNodeState[]> {
    const rows = await this.db.select().from(mediaNodesTable).where(gte(mediaNodesTable.heartbeatAt, since));
    return rows.map((row) => ({
      ...row,
      role: row.role === 'media' ? 'media' : 'all',
      mode: row.mode === 'DRAINING' ? 'DRAINING' : 'NORMAL',
    }));
  }

  /** Deletes nodes not heard of since `before`. */
  async prune(before: Date): Promise<void> {
    await this.db.delete(mediaNodesTable).where(lt(mediaNodesTable.heartbeatAt, before));
  }

  /**
   * Sets OFFLINE every stream not OFFLINE whose reporting node is `ownNodeId` (when given), is
   * unknown, stopped, or stale at `at` (by its own heartbeat period). Returns the stream UUIDs reset.
   */
  async resetOrphanedStreams(ownNodeId: string | undefined, at: Date): Promise<string[]> {
    const alive = and(freshAt(at), isNull(mediaNodesTable.stoppedAt));
    const fresh = this.db
      .select({ id: mediaNodesTable.id })
      .from(mediaNodesTable)
      .where(ownNodeId === undefined ? alive : and(alive, ne(mediaNodesTable.id, ownNodeId)));
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
