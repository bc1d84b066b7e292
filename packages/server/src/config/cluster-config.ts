/**
 * Settings of a node in a multi-node deployment (issue 20): its role, identity, position and
 * capacity, heartbeats, trusted proxies, the `/metrics` token and viewer analytics. Merged into
 * the main configuration schema by config.ts.
 */
import { z } from 'zod';
import { parseCidrList } from '../net/cidr.js';

const NODE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const optionalNumber = (min: number, max: number) => z.coerce.number().min(min).max(max).optional();

/** The zod shape of the cluster settings (environment names). */
export const clusterSettings = {
  AIRWAVE_ROLE: z.enum(['all', 'media']).default('all'),
  AIRWAVE_NODE_ID: z
    .string()
    .regex(NODE_ID, 'letters, digits, . _ - (at most 64, starting with a letter or digit)')
    .optional(),
  AIRWAVE_NODE_REGION: z.string().min(1).max(64).optional(),
  AIRWAVE_NODE_LATITUDE: optionalNumber(-90, 90),
  AIRWAVE_NODE_LONGITUDE: optionalNumber(-180, 180),
  AIRWAVE_NODE_CAPACITY_MBPS: z.coerce.number().positive().max(10_000_000).default(1000),
  AIRWAVE_NODE_MODE: z.enum(['normal', 'draining']).default('normal'),
  AIRWAVE_HEARTBEAT_SECONDS: z.coerce.number().min(0.2).max(60).default(5),
  AIRWAVE_TRUSTED_PROXIES: z
    .string()
    .optional()
    .superRefine((value, ctx) => {
      try {
        parseCidrList(value ?? '');
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
      }
    }),
  AIRWAVE_PLAYBACK_CACHE_URL: z
    .string()
    .regex(
      /^https?:\/\/[^/?#\s]+\/*$/,
      'an http:// or https:// base URL (scheme, host, port), e.g. http://127.0.0.1:8081',
    )
    .optional(),
  AIRWAVE_METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  AIRWAVE_VIEWER_ANALYTICS: z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .default('true')
    .transform((value) => value === 'true' || value === '1' || value === 'yes'),
  AIRWAVE_ANALYTICS_FLUSH_SECONDS: z.coerce.number().min(0.1).max(60).default(2),
};

/** Validated cluster settings. */
export interface ClusterConfig {
  /** `all`: control plane (GraphQL) and media; `media`: ingest and playback only. */
  readonly role: 'all' | 'media';
  /** Stable node id; default: a UUID kept in the data directory. */
  readonly nodeId: string | undefined;
  readonly nodeRegion: string | undefined;
  /** Position used by viewer routing (both set or neither). */
  readonly nodeLocation: { readonly latitude: number; readonly longitude: number } | undefined;
  /** Egress this node can carry, Mb/s (viewer routing's load score). */
  readonly nodeCapacityMbps: number;
  /** `draining`: the node serves who it serves but is never chosen for new viewers. */
  readonly nodeMode: 'normal' | 'draining';
  /** Heartbeat period; a node is unhealthy after three missed heartbeats. */
  readonly heartbeatMs: number;
  /** Peers whose X-Forwarded-For / Forwarded headers are believed (CIDRs). */
  readonly trustedProxies: string;
  /**
   * Base URL of the cache in front of this node's playback (deploy/nginx-playback-cache.conf):
   * each new LL-HLS part is fetched through it once before blocking reloads are answered (ADR 0083).
   */
  readonly playbackCacheUrl: string | undefined;
  /** Bearer token `/metrics` requires; unset: open. */
  readonly metricsToken: string | undefined;
  /** Whether playback sessions are recorded for analytics. */
  readonly viewerAnalytics: boolean;
  /** How often recorded sessions are written (what a crash can lose). */
  readonly analyticsFlushMs: number;
}

type Parsed = z.infer<z.ZodObject<typeof clusterSettings>>;

/** Turns parsed settings into the cluster configuration; throws a message when they disagree. */
export function clusterConfigOf(c: Parsed): ClusterConfig {
  const hasLatitude = c.AIRWAVE_NODE_LATITUDE !== undefined;
  if (hasLatitude !== (c.AIRWAVE_NODE_LONGITUDE !== undefined)) {
    throw new Error('AIRWAVE_NODE_LATITUDE and AIRWAVE_NODE_LONGITUDE must be set together');
  }
  return {
    role: c.AIRWAVE_ROLE,
    nodeId: c.AIRWAVE_NODE_ID,
    nodeRegion: c.AIRWAVE_NODE_REGION,
    nodeLocation: hasLatitude
      ? { latitude: c.AIRWAVE_NODE_LATITUDE as number, longitude: c.AIRWAVE_NODE_LONGITUDE as number }
      : undefined,
    nodeCapacityMbps: c.AIRWAVE_NODE_CAPACITY_MBPS,
    nodeMode: c.AIRWAVE_NODE_MODE,
    heartbeatMs: Math.round(c.AIRWAVE_HEARTBEAT_SECONDS * 1000),
    trustedProxies: c.AIRWAVE_TRUSTED_PROXIES ?? '',
    playbackCacheUrl: c.AIRWAVE_PLAYBACK_CACHE_URL?.replace(/\/+$/, ''),
    metricsToken: c.AIRWAVE_METRICS_TOKEN,
    viewerAnalytics: c.AIRWAVE_VIEWER_ANALYTICS,
    analyticsFlushMs: Math.round(c.AIRWAVE_ANALYTICS_FLUSH_SECONDS * 1000),
  };
}
