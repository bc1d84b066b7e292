/**
 * This node's registration and heartbeat, and the recovery that keeps a stream from staying
 * wrongly LIVE: at start, streams this node (or a node with a stale heartbeat) left live are
 * set OFFLINE, and every heartbeat repeats the check for nodes that died meanwhile.
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

/** Node registration, heartbeat and stale-stream recovery. */
export class NodeStatusService {
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: MediaNodesStore,
    private readonly log: Log,
  ) {}

  /**
   * Resets streams left live by this node or by stale nodes, registers, and starts heartbeats.
   * Call before ingest listeners accept publishes. Returns the UUIDs of the streams reset.
   */
  async start(node: NodeIdentity): Promise<string[]> {
    const now = new Date();
    const reset = await this.store.resetOrphanedStreams(node.nodeId, this.staleBefore(now), now);
    if (reset.length > 0) {
      this.log.info({ streams: reset }, 'streams left live by a previous run set OFFLINE');
    }
    await this.store.upsert({
      id: node.nodeId,
      baseUrl: node.baseUrl,
      version: node.version,
      startedAt: node.startedAt,
      heartbeatAt: now,
    });
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

  /** Nodes with a fresh heartbeat (this one included once started). */
  async freshNodes(): Promise<MediaNodeRow[]> {
    return this.store.listFresh(this.staleBefore(new Date()));
  }

  /** Stops heartbeats and waits for one in flight. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.beating;
  }

  private staleBefore(now: Date): Date {
    return new Date(now.getTime() - HEARTBEAT_STALE_MS);
  }
}
