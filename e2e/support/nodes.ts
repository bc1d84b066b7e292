/**
 * Several Airwave processes on one PostgreSQL, for multi-node tests: each node a real
 * `airwave start` child on its own loopback address with ephemeral ports, its own data directory
 * and a one-second heartbeat; and GraphQL over HTTP against one node's base URL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '@airwave/server/testing/test-server';
import { airwaveReady, spawnAirwave } from './airwave-cli.js';
import type { Tracked } from './processes.js';

/** One running node. */
export interface TestNode {
  readonly name: string;
  readonly cli: Tracked;
  readonly baseUrl: string;
  readonly httpPort: number;
  readonly rtmpPort: number;
  readonly dataDir: string;
  /** Stops the process (if still running) and removes its data directory. */
  stop(): Promise<void>;
}

/**
 * Starts node `node-<name>` on `host` against `databaseUrl` with `args` after `start` (e.g.
 * `--role media`); `env` adds or overrides variables.
 */
export async function startNode(
  name: string,
  host: string,
  databaseUrl: string,
  args: readonly string[] = [],
  env: NodeJS.ProcessEnv = {},
): Promise<TestNode> {
  const dataDir = mkdtempSync(join(tmpdir(), `airwave-node-${name}-`));
  const cli = spawnAirwave(args, {
    ...process.env,
    DATABASE_URL: databaseUrl,
    AIRWAVE_HOST: host,
    AIRWAVE_HTTP_PORT: '0',
    AIRWAVE_RTMP_PORT: '0',
    AIRWAVE_SRT_PORT: '0',
    AIRWAVE_DATA_DIR: dataDir,
    AIRWAVE_NODE_ID: `node-${name}`,
    AIRWAVE_HEARTBEAT_SECONDS: '1',
    AIRWAVE_LOG_LEVEL: 'warn',
    ...env,
  });
  const stop = async (): Promise<void> => {
    await cli.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const ready = await airwaveReady(cli, 120_000);
    return {
      name,
      cli,
      baseUrl: `http://${host}:${ready.ports.http}`,
      httpPort: ready.ports.http,
      rtmpPort: (ready.ports as { rtmp?: number }).rtmp ?? 0,
      dataDir,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** GraphQL against a node, as TestServer.graphql does. */
export function graphqlOf(baseUrl: string): Pick<TestServer, 'graphql'> {
  return {
    async graphql<T>(query: string, variables?: Record<string, unknown>, token?: string) {
      const response = await fetch(`${baseUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ query, variables }),
      });
      const body = (await response.json()) as {
        data: T | null;
        errors?: { message: string; extensions?: Record<string, unknown> }[];
      };
      return {
        status: response.status,
        data: body.data,
        ...(body.errors ? { errors: body.errors } : {}),
        headers: response.headers,
      };
    },
  };
}
