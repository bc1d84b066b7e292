/**
 * Where the service's memory goes, by purpose: V8's heap, ArrayBuffers and other external memory
 * (process.memoryUsage()), the embedded database inside the process, and the media each output
 * holds — the hub's priming history and GOP cache, the TS-HLS window, the CMAF window (LL-HLS and
 * DASH). Media bytes are counted by their own store; the hub's units are shared by history and GOP
 * cache, so those two may overlap.
 */
import type { Hub } from '@airwave/media';

/** Every purpose reported, in report order. */
export const MEMORY_PURPOSES = [
  'v8_heap_used',
  'v8_heap_total',
  'array_buffers',
  'external',
  'database_in_process',
  'media_history',
  'media_gop_cache',
  'media_ts_window',
  'media_cmaf_window',
] as const;

/** One purpose. */
export type MemoryPurpose = (typeof MEMORY_PURPOSES)[number];

/** What the breakdown reads. */
export interface MemorySources {
  readonly hub: Hub;
  /** Bytes the TS-HLS segmenters hold. */
  readonly tsWindow?: () => number;
  /** Bytes the CMAF packagers hold. */
  readonly cmafWindow?: () => number;
  /** Bytes the database holds inside this process. */
  readonly database?: () => number;
}

/** Reads the breakdown now, bytes per purpose. */
export function memoryBreakdown(sources: MemorySources): Record<MemoryPurpose, number> {
  const usage = process.memoryUsage();
  let history = 0;
  let gopCache = 0;
  for (const stream of sources.hub.streams()) {
    history += stream.historySize.bytes;
    gopCache += stream.gopCacheBytes;
  }
  return {
    v8_heap_used: usage.heapUsed,
    v8_heap_total: usage.heapTotal,
    array_buffers: usage.arrayBuffers,
    external: usage.external,
    database_in_process: sources.database?.() ?? 0,
    media_history: history,
    media_gop_cache: gopCache,
    media_ts_window: sources.tsWindow?.() ?? 0,
    media_cmaf_window: sources.cmafWindow?.() ?? 0,
  };
}
