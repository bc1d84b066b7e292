/**
 * Migrations: every file applied once on every backend, not again on restart, and once when
 * several processes open the same PostgreSQL database at the same moment.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { sql } from 'drizzle-orm';
import { createScratchDatabase, postgresMissing, testBackends } from '../testing/databases.js';
import { type Database, openDatabase } from './database.js';
import { migrationNames } from './migrate.js';

async function appliedMigrations(database: Database): Promise<{ name: string; appliedAt: string }[]> {
  const result = await database.db.execute(
    sql`SELECT name, applied_at::text AS applied_at FROM schema_migrations ORDER BY name`,
  );
  const rows = (result as unknown as { rows: { name: string; applied_at: string }[] }).rows;
  return rows.map((row) => ({ name: row.name, appliedAt: row.applied_at }));
}

for (const backend of testBackends()) {
  test(`${backend.name}: every migration is applied once, and not again when the database is reopened`, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'airwave-migrate-'));
    const scratch = backend.name === 'postgres' ? await createScratchDatabase() : undefined;
    try {
      const first = await openDatabase({ dataDir, databaseUrl: scratch?.url });
      const applied = await appliedMigrations(first);
      await first.close();
      assert.deepEqual(
        applied.map((row) => row.name),
        migrationNames(),
      );
      assert.ok(migrationNames().includes('0002_sessions_tokens.sql'));
      const second = await openDatabase({ dataDir, databaseUrl: scratch?.url });
      try {
        assert.deepEqual(await appliedMigrations(second), applied, 'same rows, same times: nothing re-applied');
      } finally {
        await second.close();
      }
    } finally {
      await scratch?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
}

test('postgres: four connection pools opening one new database at once (as four processes do) apply each migration once', {
  skip: postgresMissing,
}, async () => {
  const scratch = await createScratchDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'airwave-migrate-'));
  try {
    const opened = await Promise.all([1, 2, 3, 4].map(() => openDatabase({ dataDir, databaseUrl: scratch.url })));
    try {
      const applied = await appliedMigrations(opened[0] as Database);
      assert.deepEqual(
        applied.map((row) => row.name),
        migrationNames(),
      );
    } finally {
      await Promise.all(opened.map((database) => database.close()));
    }
  } finally {
    await scratch.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
