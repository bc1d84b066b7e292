/**
 * This node's registration and heartbeat, the list of every node with its health, and the
 * recovery that keeps a stream from staying wrongly LIVE: at start, streams this node (or a node
 * with a stale heartbeat) left live are set OFFLINE, and every heartbeat repeats the check for
 * nodes that died meanwhile. A node registers its profile (role, region, position, capacity,
 * mode, services, outputs) and every heartbeat carries its load (CPU, viewers, egress, streams).
 * A node is unhealthy once it stopped cleanly or missed three heartbeats.
 * Heartbeats only serve nodes sharing the database: on embedded PGlite (one process per data
 * directory) there are none, so no periodic heartbeat runs and this node's row is overlaid with
 * its current load and counted fresh while it runs.
 */
import {
  DEFAULT_PROFILE,
  isStale,
  type MediaNodeRow,
  type MediaNodeState,
  type MediaNodesStore,
  NO_LOAD,
  type NodeLoad,
  type NodeProfile,
} from './media-nodes.store.js';

/** Default period of heartbeats. */
export const HEARTBEAT_INTERVAL_MS = 5_000;
/** A node whose heartbeat is older than this (three default periods) is considered gone. */
export const HEARTBEAT_STALE_MS = 3 * HEARTBEAT_INTERVAL_MS;
/** Nodes not heard of for this long drop out of the lists (and their rows are deleted). */
export const NODE_FORGET_MS = 7 * 86_400_000;

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
  /** Write a heartbeat every period (default: when other nodes can share the database). */
  readonly heartbeats?: boolean;
  /** Heartbeat period (default HEARTBEAT_INTERVAL_MS); stale after three. */
  readonly intervalMs?: number;
  /** This node's current load, sampled at each heartbeat. */
  readonly load?: () => NodeLoad;
  /** This node's profile (services are known once its listeners are bound), written with each heartbeat. */
  readonly profile?: () => NodeProfile;
}

/** Health of a node as the public queries report it. */
export type NodeHealth = 'HEALTHY' | 'DEGRADED' | 'UNHEALTHY';

/** A node with its health. */
export interface NodeView extends MediaNodeState {
  readonly health: NodeHealth;
  /** True for the node answering. */
  readonly self: boolean;
}

/**
 * Health of a node: unhealthy when stopped or stale (three of its own heartbeat periods missed),
 * degraded when draining or at its egress capacity.
 */
export function nodeHealth(node: MediaNodeState, now: number): NodeHealth {
  if (node.stoppedAt !== null || isStale(node, now)) {
    return 'UNHEALTHY';
  }
  return node.mode === 'DRAINING' || node.egressMbps >= node.capacityMbps ? 'DEGRADED' : 'HEALTHY';
}

/** Node registration, heartbeat and stale-stream recovery. */
export class NodeStatusService {
  /** Whether periodic heartbeats run once started. */
  readonly heartbeats: boolean;
  private readonly intervalMs: number;
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> = Promise.resolve();
  private running: MediaNodeRow | undefined;
  /** The database clock minus this machine's, measured at start and with every heartbeat. */
  private offsetMs = 0;

  constructor(
    private readonly store: MediaNodesStore,
    private readonly log: Log,
    private readonly options: NodeStatusOptions = {},
  ) {
    this.heartbeats = options.heartbeats ?? store.shared;
    this.intervalMs = options.intervalMs ?? HEARTBEAT_INTERVAL_MS;
  }

  /**
   * Resets streams left live by this node or by stale nodes, registers, and starts heartbeats
   * (when enabled). Call before ingest listeners accept publishes. Returns the UUIDs of the streams reset.
   */
  async start(node: NodeIdentity): Promise<string[]> {
    await this.measureOffset();
    const now = new Date(this.now());
    const reset = await this.store.resetOrphanedStreams(node.nodeId, now);
    if (reset.length > 0) {
      this.log.info({ streams: reset }, 'streams left live by a previous run set OFFLINE');
    }
    const row: MediaNodeRow = {
      id: node.nodeId,
      baseUrl: node.baseUrl,
      version: node.version,
      startedAt: node.startedAt,
      heartbeatAt: now,
      heartbeatMs: this.intervalMs,
    };
    await this.store.upsert(row, this.options.profile?.() ?? DEFAULT_PROFILE, this.options.load?.() ?? NO_LOAD);
    this.running = row;
    if (!this.heartbeats) {
      return reset;
    }
    this.timer = setInterval(() => {
      this.beating = this.beat(node.nodeId).catch((error: unknown) =>
        this.log.error({ err: error }, 'heartbeat failed'),
      );
    }, this.intervalMs);
    this.timer.unref();
    return reset;
  }

  /** Writes a heartbeat with this node's load and resets streams of nodes that went stale. */
  async beat(nodeId: string): Promise<void> {
    await this.measureOffset();
    const now = new Date(this.now());
    await this.store.heartbeat(nodeId, now, this.options.load?.(), this.options.profile?.());
    const reset = await this.store.resetOrphanedStreams(undefined, now);
    if (reset.length > 0) {
      this.log.info({ streams: reset }, 'streams of a stale node set OFFLINE');
    }
  }

  /** Nodes with a fresh heartbeat (this one included while started, heartbeats or not). */
  async freshNodes(): Promise<MediaNodeRow[]> {
    const now = new Date(this.now());
    const rows = await this.store.listFresh(now);
    const self = this.running;
    if (!self || this.heartbeats) {
      return rows;
    }
    return [...rows.filter((row) => row.id !== self.id), { ...self, heartbeatAt: now }];
  }

  /** Every node heard of in the last week with its health, this node's load as of now. */
  async nodes(): Promise<NodeView[]> {
    const now = this.now();
    const rows = await this.store.listAll(new Date(now - NODE_FORGET_MS));
    const running = this.running;
    const views: NodeView[] = rows.map((row) => {
      if (running?.id !== row.id) {
        return { ...row, health: nodeHealth(row, now), self: false };
      }
      const current = {
        ...row,
        ...(this.options.profile?.() ?? {}),
        ...(this.options.load?.() ?? {}),
        heartbeatAt: this.heartbeats ? row.heartbeatAt : new Date(now),
      };
      return { ...current, health: nodeHealth(current, now), self: true };
    });
    return views.sort((a, b) => a.id.localeCompare(b.id));
  }

  /**
   * The deployment's time (ms since the epoch): this machine's clock corrected to the database's,
   * so heartbeats written and judged by nodes whose clocks disagree compare on one clock.
   */
  now(): number {
    return Date.now() + this.offsetMs;
  }

  /** Measures the database clock against this machine's (half the round trip taken as the query's moment). */
  private async measureOffset(): Promise<void> {
    const sent = Date.now();
    const database = await this.store.databaseNow();
    const received = Date.now();
    if (Number.isFinite(database)) {
      this.offsetMs = database - (sent + received) / 2;
    }
  }

  /** Stops heartbeats, waits for one in flight, and records the clean stop. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    const running = this.running;
    this.running = undefined;
    await this.beating;
    if (running) {
      await this.store.markStopped(running.id, new Date(this.now()));
    }
  }
}
