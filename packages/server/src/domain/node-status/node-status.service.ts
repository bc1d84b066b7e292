/**
 * This node's registration and heartbeat, and the recovery that keeps a stream from staying
 * wrongly LIVE: at start, streams this node (or a node with a stale heartbeat) left live are
 * set OFFLINE, and every heartbeat repeats the check for nodes that died meanwhile.
 * Heartbeats only serve nodes sharing the database: on embedded PGlite (one process per data
 * directory) there are none, so no periodic heartbeat runs and this node counts as fresh while
 * it runs (its stored heartbeat stays at its start).
 */
import type { MediaNodeRow, MediaNodesStore } from './media-nodes.store.js';

/** How often a node writes its heartbeat. */
export const HEARTBEAT_INTERVAL_MS = 10_000;
/** A node whose heartbeat is older than this is considered gone. */
export const HEARTBEAT_STALE_MS = 30_000;

/** Minimal logger. */
interface Log {
  info(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** Identity of this node for registration. */
export interface NodeIdentity {
  readonly nodeId: string;
  readonly baseUrl: string;
  readonly version: string;
  readonly startedAt: Date;
}

/** Options of the node status service. */
export interface NodeStatusOptions {
  /** Write a heartbeat every HEARTBEAT_INTERVAL_MS (default: when other nodes can share the database). */
  readonly heartbeats?: boolean;
}

/** Node registration, heartbeat and stale-stream recovery. */
export class NodeStatusService {
  /** Whether periodic heartbeats run once started. */
  readonly heartbeats: boolean;
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> = Promise.resolve();
  private running: MediaNodeRow | undefined;

  constructor(
    private readonly store: MediaNodesStore,
    private readonly log: Log,
    options: NodeStatusOptions = {},
  ) {
    this.heartbeats = options.heartbeats ?? store.shared;
  }

  /**
   * Resets streams left live by this node or by stale nodes, registers, and starts heartbeats
   * (when enabled). Call before ingest listeners accept publishes. Returns the UUIDs of the streams reset.
   */
  async start(node: NodeIdentity): Promise<string[]> {
    const now = new Date();
    const reset = await this.store.resetOrphanedStreams(node.nodeId, this.staleBefore(now), now);
    if (reset.length > 0) {
      this.log.info({ streams: reset }, 'streams left live by a previous run set OFFLINE');
    }
    const row: MediaNodeRow = {
      id: node.nodeId,
      baseUrl: node.baseUrl,
      version: node.version,
      startedAt: node.startedAt,
      heartbeatAt: now,
    };
    await this.store.upsert(row);
    this.running = row;
    if (!this.heartbeats) {
      return reset;
    }
    this.timer = setInterval(() => {
      this.beating = this.beat(node.nodeId).catch((error: unknown) =>
        this.log.error({ err: error }, 'heartbeat failed'),
      );
    }, HEARTBEAT_INTERVAL_MS);
    this.timer.unref();
    return reset;
  }

  /** Writes a heartbeat and resets streams of nodes that went stale. */
  async beat(nodeId: string): Promise<void> {
    const now = new Date();
    await this.store.heartbeat(nodeId, now);
    const reset = await this.store.resetOrphanedStreams(undefined, this.staleBefore(now), now);
    if (reset.length > 0) {
      this.log.info({ streams: reset }, 'streams of a stale node set OFFLINE');
    }
  }

  /** Nodes with a fresh heartbeat (this one included while started, heartbeats or not). */
  async freshNodes(): Promise<MediaNodeRow[]> {
    const now = new Date();
    const rows = await this.store.listFresh(this.staleBefore(now));
    const self = this.running;
    if (!self || this.heartbeats) {
      return rows;
    }
    return [...rows.filter((row) => row.id !== self.id), { ...self, heartbeatAt: now }];
  }

  /** Stops heartbeats and waits for one in flight. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    this.running = undefined;
    await this.beating;
  }

  private staleBefore(now: Date): Date {
    return new Date(now.getTime() - HEARTBEAT_STALE_MS);
  }
}
