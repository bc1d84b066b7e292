/**
 * Per-stream lookups gathered into one query: every `load` of a tenant asked before the next turn
 * of the event loop joins one batch, fetched once for all its stream IDs (no query per stream of
 * a connection page).
 */

/** Batches per-stream lookups of records that carry their `streamId`. */
export class StreamBatches<T extends { readonly streamId: string }> {
  private readonly open = new Map<string, { readonly streamIds: Set<string>; readonly rows: Promise<T[]> }>();

  constructor(private readonly fetch: (tenantId: string, streamIds: readonly string[]) => Promise<T[]>) {}

  /** The records of one stream of the tenant. */
  async load(tenantId: string, streamId: string): Promise<T[]> {
    let batch = this.open.get(tenantId);
    if (!batch) {
      const streamIds = new Set<string>();
      const rows = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        this.open.delete(tenantId);
        return this.fetch(tenantId, [...streamIds]);
      });
      batch = { streamIds, rows };
      this.open.set(tenantId, batch);
    }
    batch.streamIds.add(streamId);
    return (await batch.rows).filter((row) => row.streamId === streamId);
  }
}
