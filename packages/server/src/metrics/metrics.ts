/**
 * The node's Prometheus metrics (prom-client, text exposition format 0.0.4): live streams,
 * viewers by protocol, ingest and egress bytes, dropped units, packager and recorder errors,
 * GraphQL request durations, the database pool, and Node's defaults (event-loop lag among them).
 * Gauges and totals are read when scraped; errors are counted as they happen through the hooks.
 */
import type { Hub, PlaybackProtocol } from '@airwave/media';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { eventLoopGauges } from './event-loop-metrics.js';
import type { MediaTotals } from './media-totals.js';
import { MEMORY_PURPOSES, type MemorySources, memoryBreakdown } from './memory-breakdown.js';

/** A connection pool whose state is reported (node-postgres' Pool). */
export interface PoolState {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
}

/** What the metrics read when scraped. */
export interface MetricsSources {
  readonly hub: Hub;
  readonly totals: MediaTotals;
  /** Whether a live stream is relayed from another node (else ingested here). */
  readonly isRelayed?: (streamId: string) => boolean;
  /** Viewer sessions the analytics recorder holds open. */
  readonly openSessions?: () => number;
  readonly pool?: PoolState;
  /** Relays: streams this node pulls from their origin, and pulls it serves to edges. */
  readonly relays?: () => { readonly pulling: number; readonly serving: number };
  /** Where memory goes by purpose (`airwave_memory_bytes`); the hub is taken from `hub`. */
  readonly memory?: Omit<MemorySources, 'hub'>;
}

/**
 * Resolution handed to prom-client's event-loop delay histogram, ms: never reached, so its libuv
 * timer never wakes the process; the histogram's gauges are removed (see the constructor).
 */
const EVENT_LOOP_HISTOGRAM_OFF_MS = 2 ** 31 - 1;

/** prom-client's event-loop gauges, replaced by ./event-loop-metrics.ts (its histogram's never sample). */
const PROM_CLIENT_EVENT_LOOP_METRICS = ['', '_min', '_max', '_mean', '_stddev', '_p50', '_p90', '_p99'].map(
  (stat) => `nodejs_eventloop_lag${stat}_seconds`,
);

/** The node's metrics and the hooks that count events. */
export class NodeMetrics {
  /** The registry `/metrics` exposes. */
  readonly registry = new Registry();
  private readonly packagerErrors: Counter<'packager'>;
  private readonly recorderErrors: Counter<'reason'>;
  private readonly graphqlDuration: Histogram<'outcome'>;

  constructor(sources: MetricsSources) {
    const registers = [this.registry];
    // The event-loop delay histogram samples with a libuv timer: even at 100 ms it was ten of the idle
    // service's ~13 wake-ups a second (ADR 0084). Lag is measured when scraped instead
    // (`nodejs_eventloop_lag_seconds`, a setImmediate), with the loop's utilization since the last scrape.
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: EVENT_LOOP_HISTOGRAM_OFF_MS });
    for (const name of PROM_CLIENT_EVENT_LOOP_METRICS) {
      this.registry.removeSingleMetric(name);
    }
    eventLoopGauges(registers);
    new Gauge({
      name: 'airwave_streams_live',
      help: 'Live streams held by this node, by source (ingest: published here; relay: pulled from the ingesting node).',
      labelNames: ['source'],
      registers,
      collect() {
        let relayed = 0;
        const streams = sources.hub.streams();
        for (const stream of streams) {
          if (sources.isRelayed?.(stream.streamId)) {
            relayed++;
          }
        }
        this.set({ source: 'ingest' }, streams.length - relayed);
        this.set({ source: 'relay' }, relayed);
      },
    });
    new Gauge({
      name: 'airwave_viewers',
      help: 'Active playback sessions on this node, by protocol.',
      labelNames: ['protocol'],
      registers,
      collect() {
        const counts = new Map<PlaybackProtocol, number>();
        for (const stream of sources.hub.streams()) {
          stream.viewers.countByProtocol(counts);
        }
        this.reset();
        for (const protocol of ['hls', 'llhls', 'dash', 'mp4', 'webrtc'] as const) {
          this.set({ protocol }, counts.get(protocol) ?? 0);
        }
      },
    });
    const total = (name: string, help: string, read: () => number, labelNames: string[] = []) =>
      new Counter({
        name,
        help,
        labelNames,
        registers,
        collect() {
          this.reset();
          this.inc(read());
        },
      });
    total(
      'airwave_ingest_bytes_total',
      'Media payload bytes received from publishers (and relays).',
      () => sources.totals.current().bytesIn,
    );
    total(
      'airwave_egress_bytes_total',
      'Bytes of playback answers sent to viewers (every protocol).',
      () => sources.totals.current().bytesOut,
    );
    new Counter({
      name: 'airwave_dropped_frames_total',
      help: 'Media units dropped: timestamp (out of order or invalid at ingest), slow_reader (a viewer too slow, skipped to the next keyframe).',
      labelNames: ['reason'],
      registers,
      collect() {
        const current = sources.totals.current();
        this.reset();
        this.inc({ reason: 'timestamp' }, current.droppedTimestamps);
        this.inc({ reason: 'slow_reader' }, current.droppedForReaders);
      },
    });
    this.packagerErrors = new Counter({
      name: 'airwave_packager_errors_total',
      help: 'Units or parts a packager could not package (dropped and logged).',
      labelNames: ['packager'],
      registers,
    });
    this.packagerErrors.inc({ packager: 'cmaf' }, 0);
    this.recorderErrors = new Counter({
      name: 'airwave_recorder_errors_total',
      help: 'Recording failures (a segment or chapter not written), by reason.',
      labelNames: ['reason'],
      registers,
    });
    this.graphqlDuration = new Histogram({
      name: 'airwave_graphql_request_duration_seconds',
      help: 'GraphQL requests over HTTP, from arrival to response, by outcome (ok: 2xx; error: anything else).',
      labelNames: ['outcome'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    });
    if (sources.openSessions) {
      const open = sources.openSessions;
      new Gauge({
        name: 'airwave_viewer_sessions_open',
        help: 'Playback sessions the analytics recorder holds open.',
        registers,
        collect() {
          this.set(open());
        },
      });
    }
    if (sources.relays) {
      const relays = sources.relays;
      new Gauge({
        name: 'airwave_relays',
        help: 'Origin → edge relays: in (streams this node pulls from their origin), out (pulls this node serves to edges).',
        labelNames: ['direction'],
        registers,
        collect() {
          const now = relays();
          this.set({ direction: 'in' }, now.pulling);
          this.set({ direction: 'out' }, now.serving);
        },
      });
    }
    const memory = { ...sources.memory, hub: sources.hub };
    new Gauge({
      name: 'airwave_memory_bytes',
      help: 'Memory by purpose: V8 heap used/total, ArrayBuffers, other external memory, the database inside the process, and media held by the hub (history, GOP cache) and the packagers (TS window, CMAF window).',
      labelNames: ['purpose'],
      registers,
      collect() {
        const now = memoryBreakdown(memory);
        for (const purpose of MEMORY_PURPOSES) {
          this.set({ purpose }, now[purpose]);
        }
      },
    });
    if (sources.pool) {
      const pool = sources.pool;
      new Gauge({
        name: 'airwave_db_pool_connections',
        help: 'PostgreSQL pool connections: total, idle, and waiting (requests queued for a connection).',
        labelNames: ['state'],
        registers,
        collect() {
          this.set({ state: 'total' }, pool.totalCount);
          this.set({ state: 'idle' }, pool.idleCount);
          this.set({ state: 'waiting' }, pool.waitingCount);
        },
      });
    }
  }

  /** Hook: a packager dropped a unit or part (CmafPackagerOptions.onFailure). */
  packagerFailed(packager = 'cmaf'): void {
    this.packagerErrors.inc({ packager });
  }

  /** Hook for the recorder: a segment, chapter or upload failed (`reason` a short constant, e.g. `segment_write`). */
  recorderFailed(reason: string): void {
    this.recorderErrors.inc({ reason });
  }

  /** Records one GraphQL request's duration. */
  graphqlRequest(seconds: number, ok: boolean): void {
    this.graphqlDuration.observe({ outcome: ok ? 'ok' : 'error' }, seconds);
  }

  /** The exposition text and its content type. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
