/**
 * Two HTTP targets loaded by autocannon in A-B-B-A order after a warm-up of each, so drift in
 * the machine's load weighs on both alike; each result is the mean of its two runs.
 */
import type autocannon from 'autocannon';
import { load } from './load.js';

/** One target's mean over its two runs. */
export interface Measured {
  readonly rps: number;
  readonly p99: number;
  readonly non2xx: number;
  readonly errors: number;
}

/** Durations of the warm-up and of each measured run, seconds. */
export interface AbPlan {
  readonly warmupS: number;
  readonly durationS: number;
}

/** Measures `a` and `b` (options built fresh for each run, e.g. to pick a current URL). */
export async function measureAlternating(
  a: () => Promise<autocannon.Options> | autocannon.Options,
  b: () => Promise<autocannon.Options> | autocannon.Options,
  plan: AbPlan,
): Promise<[Measured, Measured]> {
  await load({ ...(await a()), duration: plan.warmupS });
  await load({ ...(await b()), duration: plan.warmupS });
  const runs: autocannon.Result[] = [];
  for (const target of [a, b, b, a]) {
    runs.push(await load({ ...(await target()), duration: plan.durationS }));
  }
  const mean = (first: autocannon.Result | undefined, second: autocannon.Result | undefined): Measured => ({
    rps: ((first?.requests.average ?? 0) + (second?.requests.average ?? 0)) / 2,
    p99: ((first?.latency.p99 ?? 0) + (second?.latency.p99 ?? 0)) / 2,
    non2xx: (first?.non2xx ?? 0) + (second?.non2xx ?? 0),
    errors: (first?.errors ?? 0) + (second?.errors ?? 0),
  });
  return [mean(runs[0], runs[3]), mean(runs[1], runs[2])];
}
