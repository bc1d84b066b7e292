/**
 * Applies `packages/server/migrations/*.sql` in name order, each once, each in its own
 * transaction. On PostgreSQL an advisory lock keeps concurrent processes from racing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Runs raw SQL text that may hold several statements (migrations, tests). */
export type ExecRaw = (sqlText: string) => Promise<void>;

const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations/', import.meta.url));
const LOCK_ID = 727_274_001;

/** Names of the migration files shipped with this build, in order. */
export function migrationNames(): string[] {
  return readdirSync(MIGRATIONS_DIR)
    .filter((name) => /^\d{4}_[a-z0-9_]+\.sql$/.test(name))
    .sort();
}

/** Applies every migration not yet recorded in `schema_migrations`. */
export async function applyMigrations(execRaw: ExecRaw, kind: 'pglite' | 'postgres'): Promise<void> {
  const lock = kind === 'postgres' ? `SELECT pg_advisory_xact_lock(${LOCK_ID});` : '';
  // Under the lock too: concurrent CREATE TABLE IF NOT EXISTS can collide in pg_type.
  await execRaw(
    `BEGIN; ${lock}
     CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now());
     COMMIT;`,
  ).catch(async (error: Error) => {
    await execRaw('ROLLBACK').catch(() => undefined);
    throw error;
  });
  for (const name of migrationNames()) {
    const body = readFileSync(`${MIGRATIONS_DIR}${name}`, 'utf8');
    const quoted = name.replaceAll("'", "''");
    await execRaw(
      `BEGIN; ${lock}
       DO $$ BEGIN
         IF EXISTS (SELECT 1 FROM schema_migrations WHERE name = '${quoted}') THEN
           RAISE EXCEPTION 'airwave-migration-already-applied';
         END IF;
       END $$;
       ${body}
       ;INSERT INTO schema_migrations (name) VALUES ('${quoted}');
       COMMIT;`,
    ).catch(async (error: Error) => {
      await execRaw('ROLLBACK').catch(() => undefined);
      if (!error.message.includes('airwave-migration-already-applied')) {
        throw new Error(`migration ${name} failed: ${error.message}`, { cause: error });
      }
    });
  }
}
