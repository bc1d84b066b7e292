/**
 * Turns what the media hub sees into bus events: each viewer connect and disconnect
 * (`viewer.connected` / `viewer.disconnected`) and, at a steady interval while a stream is live
 * (not while it is reconnecting), `viewer.metrics` with the viewer count, egress rate and bytes in.
 * One timer serves every stream of the hub (one wake-up per interval, not one per stream).
 * These describe no database change, so they are published directly. The tenant of a stream is
 * learnt from the `stream.live` / `stream.reconnecting` events the ingest lifecycle sink publishes
 * (after its commit), or at once for a stream relayed from its origin (whose lifecycle this node
 * does not report); viewer events seen before that are held (bounded) until it is known.
 */
import type { Hub, LiveStream, Logger, ViewerEvent } from '@airwave/media';
import type { EventBus } from './event-bus.js';

/** Default interval of `viewer.metrics` per live stream. */
export const METRICS_INTERVAL_MS = 2000;
/** Viewer events held per stream while its tenant is being looked up. */
const MAX_EARLY_EVENTS = 256;

/** Options of the hub bridge. */
export interface HubEventsOptions {
  readonly hub: Hub;
  readonly bus: EventBus;
  readonly log: Logger;
  /** This node's id, stamped on every event. */
  readonly nodeId: string;
  /** Total payload bytes sent to viewers of a stream so far, when the node counts them. */
  readonly egressBytes?: (stream: LiveStream) => number | undefined;
  readonly metricsIntervalMs?: number;
  /** The tenant of a stream this node knows without a lifecycle event (a relayed stream's). */
  readonly tenantOf?: (streamId: string) => string | undefined;
}

/** Attaches the bridge to every stream the hub opens from now on; returns the detach function. */
export function attachHubEvents(options: HubEventsOptions): () => void {
  const interval = options.metricsIntervalMs ?? METRICS_INTERVAL_MS;
  const learners = new Map<string, (tenantId: string) => void>();
  const tickers = new Set<() => void>();
  let timer: NodeJS.Timeout | undefined;
  const tickAll = () => {
    for (const tick of tickers) {
      tick();
    }
  };
  const untap = options.bus.tap(['stream.live', 'stream.reconnecting'], (event) => {
    if (event.name === 'stream.live' || event.name === 'stream.reconnecting') {
      learners.get(event.data.streamId)?.(event.data.tenantId);
    }
  });
  options.hub.addOutput((stream) => {
    let tenantId = options.tenantOf?.(stream.streamId);
    let early: ViewerEvent[] | undefined = tenantId === undefined ? [] : undefined;
    let lastEgress: { bytes: number; at: number } | undefined;
    const publishViewer = (event: ViewerEvent, tenant: string) => {
      options.bus.publish(event.type === 'connect' ? 'viewer.connected' : 'viewer.disconnected', {
        tenantId: tenant,
        streamId: stream.streamId,
        sessionId: event.sessionId,
        protocol: event.protocol,
        nodeId: options.nodeId,
        ...(event.durationMs === undefined ? {} : { sessionDurationSeconds: event.durationMs / 1000 }),
      });
    };
    const unsubscribe = stream.viewers.subscribe((event) => {
      if (tenantId !== undefined) {
        publishViewer(event, tenantId);
      } else if (early && early.length < MAX_EARLY_EVENTS) {
        early.push(event);
      }
    });
    const learn = (tenant: string) => {
      if (tenantId !== undefined) {
        if (tenantId !== tenant) {
          options.log.error({ streamId: stream.streamId }, 'lifecycle events name two tenants for one stream');
        }
        return;
      }
      tenantId = tenant;
      for (const event of early ?? []) {
        publishViewer(event, tenant);
      }
      early = undefined;
    };
    learners.set(stream.streamId, learn);
    const tick = () => {
      if (tenantId === undefined || stream.isInterrupted || stream.endReason !== undefined || !stream.description) {
        return;
      }
      const now = Date.now();
      const egress = options.egressBytes?.(stream);
      let egressBytesPerSecond: number | null = null;
      if (egress !== undefined) {
        if (lastEgress && now > lastEgress.at) {
          egressBytesPerSecond = Math.max(0, Math.round(((egress - lastEgress.bytes) * 1000) / (now - lastEgress.at)));
        }
        lastEgress = { bytes: egress, at: now };
      }
      options.bus.publish('viewer.metrics', {
        tenantId,
        streamId: stream.streamId,
        nodeId: options.nodeId,
        currentViewers: stream.viewers.count,
        egressBytesPerSecond,
        bytesIn: stream.stats.bytesIn,
      });
    };
    tickers.add(tick);
    if (!timer) {
      timer = setInterval(tickAll, interval);
      timer.unref();
    }
    return {
      close() {
        tickers.delete(tick);
        if (tickers.size === 0) {
          clearInterval(timer);
          timer = undefined;
        }
        unsubscribe();
        if (learners.get(stream.streamId) === learn) {
          learners.delete(stream.streamId);
        }
      },
    };
  });
  return untap;
}
