/**
 * Test support: starts the real service in-process on ephemeral ports with a temporary data
 * directory (and a scratch PostgreSQL database for the postgres backend), and offers a small
 * GraphQL client.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../config/config.js';
import { type RunningAirwave, startAirwave } from '../main/start.js';
import { createScratchDatabase, type ScratchDatabase, type TestBackend } from './databases.js';
import { seedPglite } from './pglite-template.js';

/** A GraphQL response as tests see it. */
export interface GraphQLResponse<T = Record<string, unknown>> {
  readonly status: number;
  readonly data: T | null;
  readonly errors?: { message: string; path?: (string | number)[]; extensions?: Record<string, unknown> }[];
  readonly headers: Headers;
}

/** A started test server. */
export interface TestServer {
  readonly running: RunningAirwave;
  readonly baseUrl: string;
  readonly dataDir: string;
  /** POSTs a GraphQL document; `token` becomes `Authorization: Bearer`. */
  graphql<T = Record<string, unknown>>(
    query: string,
    variables?: Record<string, unknown>,
    token?: string,
  ): Promise<GraphQLResponse<T>>;
  close(): Promise<void>;
}

/** AIRWAVE_* settings of a server on 127.0.0.1 with every listener on an ephemeral port and its data in `dataDir`. */
export function localServerEnv(dataDir: string): Record<string, string> {
  return {
    AIRWAVE_HOST: '127.0.0.1',
    AIRWAVE_HTTP_PORT: '0',
    AIRWAVE_RTMP_PORT: '0',
    AIRWAVE_RTMPS_PORT: '0',
    AIRWAVE_SRT_PORT: '0',
    AIRWAVE_DATA_DIR: dataDir,
  };
}

/** Starts a server on `backend`; `env` adds or overrides AIRWAVE_* settings. */
export async function startTestServer(
  backend: TestBackend = { name: 'pglite' },
  env: Record<string, string> = {},
  options: { dataDir?: string; keepDataDir?: boolean } = {},
): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'airwave-test-'));
  const scratch: ScratchDatabase | undefined =
    backend.name === 'postgres' && !env.DATABASE_URL ? await createScratchDatabase() : undefined;
  if (!options.dataDir && !scratch && !env.DATABASE_URL && (env.AIRWAVE_EMBEDDED_DATABASE ?? 'pglite') === 'pglite') {
    await seedPglite(dataDir);
  }
  const config = loadConfig({
    ...localServerEnv(dataDir),
    AIRWAVE_LOG_LEVEL: process.env.AIRWAVE_TEST_LOG_LEVEL ?? 'silent',
    AIRWAVE_ALLOW_PRIVATE_WEBHOOKS: 'true',
    // In-process test servers keep PGlite (fast to start, nothing to stop); the CLI e2e tests run the default.
    AIRWAVE_EMBEDDED_DATABASE: 'pglite',
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    ...env,
  });
  let running: RunningAirwave;
  try {
    running = await startAirwave(config);
  } catch (error) {
    await scratch?.drop();
    throw error;
  }
  const baseUrl = `http://127.0.0.1:${running.ports.http}`;
  return {
    running,
    baseUrl,
    dataDir,
    async graphql<T>(query: string, variables?: Record<string, unknown>, token?: string) {
      const response = await fetch(`${baseUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ query, variables }),
      });
      const body = (await response.json()) as { data: T | null; errors?: GraphQLResponse['errors'] };
      return {
        status: response.status,
        data: body.data,
        ...(body.errors ? { errors: body.errors } : {}),
        headers: response.headers,
      };
    },
    async close() {
      await running.close();
      await scratch?.drop();
      if (!options.keepDataDir && !options.dataDir) {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}
