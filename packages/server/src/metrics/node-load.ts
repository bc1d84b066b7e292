/**
 * This node's load as heartbeats report it: process CPU in % of the machine and egress in Mb/s
 * (both rates over the time since the previous sample, recomputed at most once a second), viewers
 * and live streams now, and the viewers of each stream.
 */
import { availableParallelism } from 'node:os';
import type { Hub } from '@airwave/media';
import type { NodeLoad } from '../domain/node-status/media-nodes.store.js';
import type { MediaTotals } from './media-totals.js';

/** Shortest span rates are measured over. */
const MIN_SPAN_MS = 1000;

/** Samples the load of a hub's node. */
export class NodeLoadSampler {
  private last = { at: performance.now(), cpu: process.cpuUsage(), egress: 0 };
  private rates = { cpuPercent: 0, egressMbps: 0 };

  constructor(
    private readonly hub: Hub,
    private readonly totals: MediaTotals,
    private readonly cores = availableParallelism(),
  ) {
    this.last.egress = totals.current().bytesOut;
  }

  /** The load now. */
  sample(): NodeLoad {
    const now = performance.now();
    const span = now - this.last.at;
    if (span >= MIN_SPAN_MS) {
      const cpu = process.cpuUsage(this.last.cpu);
      const egress = this.totals.current().bytesOut;
      this.rates = {
        cpuPercent: round((100 * (cpu.user + cpu.system)) / 1000 / span / this.cores),
        egressMbps: round(((egress - this.last.egress) * 8) / 1000 / span),
      };
      this.last = { at: now, cpu: process.cpuUsage(), egress };
    }
    let viewers = 0;
    const streamViewers: Record<string, number> = {};
    const streams = this.hub.streams();
    for (const stream of streams) {
      const count = stream.viewers.count;
      viewers += count;
      if (count > 0) {
        streamViewers[stream.streamId] = count;
      }
    }
    return { ...this.rates, viewers, streams: streams.length, streamViewers };
  }
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
