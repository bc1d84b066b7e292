/**
 * Test support for the stream stores and ingest adapters: a migrated database on one backend
 * (PGlite in a temporary directory, or a scratch PostgreSQL database) and tenants created
 * directly in SQL.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from '../../db/database.js';
import { createScratchDatabase, type TestBackend } from '../../testing/databases.js';
import { openFreshDatabase } from '../../testing/pglite-template.js';
import { StreamKeysService } from './stream-keys.service.js';
import { StreamKeysStore } from './stream-keys.store.js';
import { StreamsService, type StreamsServiceDeps } from './streams.service.js';
import { StreamsStore } from './streams.store.js';

/** A migrated database for one test file, with the stream services over it. */
export interface StreamTestDatabase {
  readonly database: Database;
  readonly streams: StreamsService;
  readonly keys: StreamKeysService;
  /** Inserts a tenant and returns its id. */
  tenant(name?: string): Promise<string>;
  close(): Promise<void>;
}

/** Opens a fresh database on `backend` and builds the stream services over it. */
export async function openStreamTestDatabase(
  backend: TestBackend,
  options: Partial<Pick<StreamsServiceDeps, 'allowPrivatePullSources' | 'onDeleted' | 'resolveHost'>> = {},
): Promise<StreamTestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'airwave-streams-'));
  const scratch = backend.name === 'postgres' ? await createScratchDatabase() : undefined;
  const database = await openFreshDatabase(dataDir, scratch?.url);
  const streamsStore = new StreamsStore(database.db);
  const keysStore = new StreamKeysStore(database.db);
  return {
    database,
    streams: new StreamsService({
      streams: streamsStore,
      keys: keysStore,
      allowPrivatePullSources: options.allowPrivatePullSources ?? false,
      ...(options.onDeleted ? { onDeleted: options.onDeleted } : {}),
      ...(options.resolveHost ? { resolveHost: options.resolveHost } : {}),
    }),
    keys: new StreamKeysService({ streams: streamsStore, keys: keysStore }),
    async tenant(name = 'test tenant') {
      const id = randomUUID();
      await database.execRaw(`INSERT INTO tenants (id, name) VALUES ('${id}', '${name.replaceAll("'", "''")}')`);
      return id;
    },
    async close() {
      await database.close();
      await scratch?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
