/**
 * Test support: reads a `/metrics` answer with parse-prometheus-text-format (a port of the
 * reference Python client's parser), so tests check what Prometheus itself would read.
 */
import { createRequire } from 'node:module';

/** One metric family as the parser returns it (prom2json's shape). */
export interface MetricFamily {
  readonly name: string;
  readonly help: string;
  readonly type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
  readonly metrics: readonly {
    readonly labels?: Readonly<Record<string, string>>;
    readonly value?: string;
    readonly count?: string;
    readonly sum?: string;
    readonly buckets?: Readonly<Record<string, string>>;
  }[];
}

const require = createRequire(import.meta.url);
const parse = require('parse-prometheus-text-format') as (text: string) => MetricFamily[];

/** Parses exposition text into families by name; throws what the parser throws on bad text. */
export function parseMetrics(text: string): Map<string, MetricFamily> {
  return new Map(parse(text).map((family) => [family.name, family]));
}

/**
 * The value of the sample of `name` whose labels include `labels`; undefined when absent. For a
 * histogram, the observations of every series (its `+Inf` buckets): this parser keeps no labels
 * of histogram series.
 */
export function sampleValue(
  families: ReadonlyMap<string, MetricFamily>,
  name: string,
  labels: Readonly<Record<string, string>> = {},
): number | undefined {
  const family = families.get(name);
  if (family?.type === 'HISTOGRAM') {
    return family.metrics.reduce((total, metric) => total + Number(metric.buckets?.['+Inf'] ?? 0), 0);
  }
  const sample = family?.metrics.find((metric) =>
    Object.entries(labels).every(([key, value]) => metric.labels?.[key] === value),
  );
  return sample?.value === undefined ? undefined : Number(sample.value);
}
