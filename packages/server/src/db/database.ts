/**
 * The database: PostgreSQL when DATABASE_URL is set; otherwise an embedded one in the data
 * directory — real PostgreSQL run as a child (embedded-postgres.ts, the default) or PGlite inside
 * the process. All are driven through Drizzle and get the same migrations at start.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { type DataDirLock, lockDataDir } from './data-dir-lock.js';
import { postgresBinaries, startEmbeddedPostgres } from './embedded-postgres.js';
import { applyMigrations, type ExecRaw } from './migrate.js';

/** The Drizzle handle every store uses. */
export type Db = PgDatabase<PgQueryResultHKT>;

/**
 * PostgreSQL's buffer pool inside PGlite. Its default, 128 MB, is allocated and touched in the WASM
 * heap at start (~145 MiB of resident memory measured); this control-plane database (accounts,
 * streams, keys) is a few MB, so 16 MB caches all of it (wal_buffers follows at 1/32, 512 kB).
 */
export const PGLITE_SHARED_BUFFERS = '16MB';

/** Drizzle handles of embedded (single-process) databases, see `isEmbedded`. */
const embedded = new WeakSet<Db>();

/**
 * Whether `db` is embedded (PGlite, or PostgreSQL on a private socket): one process holds its data
 * directory (lock file), so no other node can share it — cross-node work (heartbeats, relays) has
 * nobody to serve there.
 */
export function isEmbedded(db: Db): boolean {
  return embedded.has(db);
}

/** An open database with its driver-level handles. */
export interface Database {
  readonly kind: 'pglite' | 'postgres';
  /** What runs it and where, for the start banner (no password). */
  readonly label: string;
  readonly db: Db;
  readonly execRaw: ExecRaw;
  /** The embedded PGlite instance (kind 'pglite'). */
  readonly pglite?: PGlite;
  /** The PostgreSQL pool (kind 'postgres'); LISTEN needs a dedicated client from it. */
  readonly pool?: pg.Pool;
  /** Bytes the database holds inside this process (PGlite's WASM memory; 0 for a server elsewhere). */
  inProcessBytes(): number;
  close(): Promise<void>;
}

/** Which embedded database runs in the data directory when no DATABASE_URL is given. */
export type EmbeddedDatabase = 'postgres' | 'pglite';

/** Where and how to open the database. */
export interface DatabaseOptions {
  /** PostgreSQL URL; when absent an embedded database is used in `dataDir`. */
  readonly databaseUrl?: string | undefined;
  readonly dataDir: string;
  /**
   * The embedded database (default `pglite`, what library callers and tests get; the service's
   * configuration picks with `embeddedDatabase()`).
   */
  readonly embedded?: EmbeddedDatabase;
  /** Embedded only: take the data-directory lock (default true). */
  readonly lock?: boolean;
}

/** Subdirectory of the data directory holding PGlite's database. */
export const PGLITE_DIR = 'pgdata';
/** Subdirectory of the data directory holding the embedded PostgreSQL cluster. */
const POSTGRES_DIR = 'postgres';

/**
 * The embedded database to use in `dataDir`: `chosen` when given; otherwise PostgreSQL, except on
 * a data directory that already holds a PGlite database and no PostgreSQL one (kept, so an
 * upgrade loses nothing) or where no PostgreSQL binaries exist for this platform. `why` says why
 * PGlite was picked when it was not chosen.
 */
export function embeddedDatabase(
  dataDir: string,
  chosen?: EmbeddedDatabase,
): { readonly kind: EmbeddedDatabase; readonly why?: string } {
  if (chosen) {
    return { kind: chosen };
  }
  if (existsSync(join(dataDir, PGLITE_DIR, 'PG_VERSION')) && !existsSync(join(dataDir, POSTGRES_DIR, 'PG_VERSION'))) {
    return {
      kind: 'pglite',
      why: `the data directory holds a PGlite database (${PGLITE_DIR}/); AIRWAVE_EMBEDDED_DATABASE=postgres starts an empty PostgreSQL one instead`,
    };
  }
  const binaries = postgresBinaries();
  return 'missing' in binaries ? { kind: 'pglite', why: binaries.missing } : { kind: 'postgres' };
}

/** Opens the database and applies pending migrations. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const lock = options.lock ?? true;
  const database = options.databaseUrl
    ? await openPostgres(options.databaseUrl)
    : options.embedded === 'postgres'
      ? await openEmbeddedPostgres(options.dataDir, lock)
      : await openPglite(options.dataDir, lock);
  try {
    await applyMigrations(database.execRaw, database.kind);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  pool.on('error', () => {
    // Idle client errors (server restart) surface on the next query; the pool replaces the client.
  });
  const client = await pool.connect().catch((error: Error) => {
    throw new Error(`cannot connect to PostgreSQL at ${redactUrl(url)}: ${error.message}`, { cause: error });
  });
  client.release();
  return {
    kind: 'postgres',
    label: `PostgreSQL at ${redactUrl(url)}`,
    db: drizzleNodePg(pool) as unknown as Db,
    execRaw: async (text) => {
      await pool.query(text);
    },
    pool,
    inProcessBytes: () => 0,
    close: () => pool.end(),
  };
}

/** Starts PostgreSQL in `dataDir`/postgres and opens a pool on it; closing stops the server. */
async function openEmbeddedPostgres(dataDir: string, lock: boolean): Promise<Database> {
  const held: DataDirLock | undefined = lock ? lockDataDir(dataDir) : undefined;
  try {
    const server = await startEmbeddedPostgres(join(dataDir, POSTGRES_DIR));
    let database: Database;
    try {
      database = await openPostgres(server.url);
    } catch (error) {
      await server.stop();
      throw error;
    }
    embedded.add(database.db);
    return {
      ...database,
      kind: 'postgres',
      label: `embedded PostgreSQL (pid ${server.pid}) in ${join(dataDir, POSTGRES_DIR)}`,
      close: async () => {
        await database.close();
        await server.stop();
        held?.release();
      },
    };
  } catch (error) {
    held?.release();
    throw error;
  }
}

async function openPglite(dataDir: string, lock: boolean): Promise<Database> {
  const held: DataDirLock | undefined = lock ? lockDataDir(dataDir) : undefined;
  try {
    const dir = join(dataDir, PGLITE_DIR);
    mkdirSync(dir, { recursive: true });
    const client = await PGlite.create(dir, {
      startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
    });
    const db = drizzlePglite(client) as unknown as Db;
    embedded.add(db);
    return {
      kind: 'pglite',
      label: `embedded PGlite in ${dir}`,
      db,
      execRaw: async (text) => {
        await client.exec(text);
      },
      pglite: client,
      inProcessBytes: () => wasmMemoryBytes(client),
      close: async () => {
        await client.close();
        held?.release();
      },
    };
  } catch (error) {
    held?.release();
    throw error;
  }
}

/** Size of PGlite's WASM linear memory (its `mod` is protected in the typings, present at run time). */
function wasmMemoryBytes(client: PGlite): number {
  const mod = (client as unknown as { mod?: { wasmMemory?: { buffer: ArrayBufferLike } } }).mod;
  return mod?.wasmMemory?.buffer.byteLength ?? 0;
}

/** Hides the password of a database URL for messages. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}
