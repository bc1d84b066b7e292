/**
 * Test support: one migrated PGlite database per test run, copied into the fresh data directory of
 * each in-process test server and store test, so they skip PGlite's initdb and the migrations
 * (seconds of WASM each, the largest share of many tests' time). The first user in the run makes
 * it through openDatabase, the path every other start takes on an empty directory.
 * scripts/run-tests.mjs names the run's cache directory in AIRWAVE_TEST_CACHE_DIR; without it
 * (a test file run alone) directories stay empty and each database starts from scratch.
 */
import { cpSync, existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type Database, openDatabase, PGLITE_DIR } from '../db/database.js';

let template: Promise<string> | undefined;

/**
 * Copies the run's migrated PGlite database into `dataDir` (an empty directory about to hold a
 * PGlite database); does nothing when the run has no cache directory.
 */
export async function seedPglite(dataDir: string): Promise<void> {
  const cache = process.env.AIRWAVE_TEST_CACHE_DIR;
  if (!cache) {
    return;
  }
  template ??= makeTemplate(cache);
  cpSync(await template, join(dataDir, PGLITE_DIR), { recursive: true });
}

/**
 * Opens a fresh test database: PostgreSQL at `databaseUrl` when given, else PGlite in the empty
 * `dataDir`, seeded from the run's template.
 */
export async function openFreshDatabase(dataDir: string, databaseUrl?: string): Promise<Database> {
  if (!databaseUrl) {
    await seedPglite(dataDir);
  }
  return openDatabase({ dataDir, databaseUrl });
}

/** The run's template: made by the first test file that needs it; others running alongside reuse it. */
async function makeTemplate(cache: string): Promise<string> {
  const final = join(cache, 'pglite-template');
  if (existsSync(join(final, 'PG_VERSION'))) {
    return final;
  }
  const build = mkdtempSync(join(cache, 'pglite-build-'));
  try {
    const database = await openDatabase({ dataDir: build });
    await database.close();
    try {
      // Atomic: a concurrent test file either sees no template or a complete one.
      renameSync(join(build, PGLITE_DIR), final);
    } catch (error) {
      if (!existsSync(join(final, 'PG_VERSION'))) {
        throw error;
      }
    }
  } finally {
    rmSync(build, { recursive: true, force: true });
  }
  return final;
}
