/**
 * Test support: the database backends the suite runs on. PGlite always; PostgreSQL too when
 * TEST_DATABASE_URL is set (scripts/run-tests.mjs sets it when a server answers at 127.0.0.1:5432),
 * each test server on a fresh database of its own.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * Why tests needing PostgreSQL skip (scripts/run-tests.mjs says why none was found), or false
 * when TEST_DATABASE_URL names one.
 */
export const postgresMissing: string | false = process.env.TEST_DATABASE_URL
  ? false
  : (process.env.AIRWAVE_TEST_POSTGRES_MISSING ?? 'TEST_DATABASE_URL is not set (needs PostgreSQL)');

/** One backend a test runs against. */
export interface TestBackend {
  readonly name: 'pglite' | 'postgres';
}

/** Backends to run database tests on. */
export function testBackends(): TestBackend[] {
  return process.env.TEST_DATABASE_URL ? [{ name: 'pglite' }, { name: 'postgres' }] : [{ name: 'pglite' }];
}

/** A fresh PostgreSQL database for one test; `drop()` removes it. */
export interface ScratchDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

/** Creates an empty database on the TEST_DATABASE_URL server. */
export async function createScratchDatabase(): Promise<ScratchDatabase> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) {
    throw new Error('TEST_DATABASE_URL is not set');
  }
  const name = `airwave_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
