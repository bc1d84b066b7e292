/**
 * Drizzle table definition of `media_nodes` (migrations 0003, 0030 and 0043), used only by the node store.
 */
import { doublePrecision, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

const time = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** One listening service of a node as registered. */
export interface RegisteredService {
  readonly serviceId: string;
  readonly protocol: string;
  readonly host: string;
  readonly port: number;
  readonly healthEndpoint: string | null;
}

/** `media_nodes`: every node of the deployment, its profile and its last heartbeat with its load. */
export const mediaNodesTable = pgTable('media_nodes', {
  id: text('id').primaryKey(),
  baseUrl: text('base_url').notNull(),
  version: text('version').notNull(),
  startedAt: time('started_at').notNull(),
  heartbeatAt: time('heartbeat_at').notNull(),
  /** The node's heartbeat period: it is stale after three of them. */
  heartbeatMs: integer('heartbeat_ms').notNull().default(5000),
  role: text('role').notNull(),
  region: text('region'),
  latitude: doublePrecision('latitude'),
  longitude: doublePrecision('longitude'),
  capacityMbps: doublePrecision('capacity_mbps').notNull(),
  mode: text('mode').notNull(),
  stoppedAt: time('stopped_at'),
  cpuPercent: doublePrecision('cpu_percent').notNull(),
  viewers: integer('viewers').notNull(),
  egressMbps: doublePrecision('egress_mbps').notNull(),
  streams: integer('streams').notNull(),
  services: jsonb('services').$type<RegisteredService[]>().notNull(),
  outputs: jsonb('outputs').$type<string[]>().notNull(),
  streamViewers: jsonb('stream_viewers').$type<Record<string, number>>().notNull(),
});
