/**
 * The composition root: opens the database, builds the domain services, the media hub and its
 * listeners, the HTTP application, and starts everything. The only place that wires.
 */
import { randomUUID } from 'node:crypto';
import { Hub } from '@airwave/media';
import pino from 'pino';
import type { Principal } from '../auth/principal.js';
import type { Config } from '../config/config.js';
import { type Database, openDatabase } from '../db/database.js';
import type { NodeInfo } from '../domain/node-info.js';
import type { Services } from '../graphql/services.js';
import { buildApp } from '../http/app.js';

/** A running Airwave process. */
export interface RunningAirwave {
  readonly config: Config;
  readonly database: Database;
  readonly hub: Hub;
  readonly node: NodeInfo;
  /** Bound ports (differ from config when it asked for port 0). */
  readonly ports: { readonly http: number; readonly rtmp: number; readonly rtmps: number | undefined };
  /** Human-facing URLs printed at start. */
  readonly urls: Readonly<Record<string, string>>;
  close(): Promise<void>;
}

/** Version reported by public queries. */
export const VERSION = '0.1.0';

/** Starts every part of the service; rejects with a clear error when something cannot start. */
export async function startAirwave(config: Config): Promise<RunningAirwave> {
  const log = pino({ level: config.logLevel, base: { service: 'airwave' } });
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const closers: (() => Promise<void> | void)[] = [() => database.close()];
  try {
    const hub = new Hub({ log, reconnectWindowMs: config.reconnectWindowMs });
    closers.unshift(() => hub.close());
    const displayHost = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
    const node: NodeInfo = {
      nodeId: randomUUID(),
      version: VERSION,
      startedAt: new Date(),
      baseUrl: config.publicUrl ?? `http://${displayHost}:${config.httpPort}`,
      ingestHost: config.publicUrl ? new URL(config.publicUrl).hostname : displayHost,
      rtmpPort: config.rtmpPort,
      rtmpsPort: config.tlsCert ? config.rtmpsPort : undefined,
      srtPort: config.srtPort,
      httpPort: config.httpPort,
    };
    const services: Services = { node };
    const app = await buildApp({
      services,
      authenticate: async (): Promise<Principal | null> => null,
      logLevel: config.logLevel,
    });
    closers.unshift(() => app.close());
    await app.listen({ port: config.httpPort, host: config.host });
    const address = app.server.address();
    const httpPort = typeof address === 'object' && address ? address.port : config.httpPort;
    const base = config.publicUrl ?? `http://${displayHost}:${httpPort}`;
    const urls = {
      graphql: `${base}/graphql`,
      playground: `${base}/graphql/playground`,
      subscriptions: `${base.replace(/^http/, 'ws')}/graphql/ws`,
      rtmp: `rtmp://${node.ingestHost}:${config.rtmpPort}/live/<streamKey>`,
    };
    return {
      config,
      database,
      hub,
      node: { ...node, httpPort, baseUrl: base },
      ports: { http: httpPort, rtmp: config.rtmpPort, rtmps: undefined },
      urls,
      close: async () => {
        for (const close of closers) {
          try {
            await close();
          } catch (error) {
            log.error({ err: error }, 'error while shutting down');
          }
        }
      },
    };
  } catch (error) {
    for (const close of closers) {
      await Promise.resolve(close()).catch(() => undefined);
    }
    throw error;
  }
}
