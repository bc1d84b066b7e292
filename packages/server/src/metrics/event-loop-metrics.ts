/**
 * Event-loop metrics measured when scraped, with no sampling timer (ADR 0084):
 * `nodejs_eventloop_lag_seconds` (how long a setImmediate queued by the scrape waits) and
 * `nodejs_eventloop_utilization` (the loop's busy share since the previous scrape).
 */
import { performance } from 'node:perf_hooks';
import { Gauge, type Registry } from 'prom-client';

/** Registers the event-loop lag and utilization gauges on `registers`. */
export function eventLoopGauges(registers: Registry[]): void {
  new Gauge({
    name: 'nodejs_eventloop_lag_seconds',
    help: 'Lag of event loop in seconds, measured when scraped (delay of a setImmediate queued by the scrape).',
    registers,
    async collect() {
      const start = process.hrtime.bigint();
      await new Promise((resolve) => setImmediate(resolve));
      this.set(Number(process.hrtime.bigint() - start) / 1e9);
    },
  });
  let last = performance.eventLoopUtilization();
  new Gauge({
    name: 'nodejs_eventloop_utilization',
    help: 'Share of time the event loop was busy (0 to 1) since the previous scrape, or since start.',
    registers,
    collect() {
      const now = performance.eventLoopUtilization();
      this.set(performance.eventLoopUtilization(now, last).utilization);
      last = now;
    },
  });
}
