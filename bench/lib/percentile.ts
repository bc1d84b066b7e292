/** Percentiles of latency samples (nearest-rank method). */

/** The p-th percentile (0–100) of `values` by nearest rank; NaN when there are none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) {
    return Number.NaN;
  }
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] as number;
}

/** Formats a millisecond value for a table (one decimal, "—" when there is none). */
export function ms(value: number): string {
  return Number.isFinite(value) ? value.toFixed(1) : '—';
}
