/**
 * Which PostgreSQL server the test suite uses besides PGlite: TEST_DATABASE_URL when set;
 * otherwise the default address 127.0.0.1:5432 when a server answers there and lets this user
 * create databases (each test server makes a scratch database of its own). Connects as libpq
 * would: PGUSER or the OS user, PGPASSWORD when set, maintenance database PGDATABASE or `postgres`.
 * TEST_DATABASE_URL set to the empty string runs PGlite only.
 */
import { userInfo } from 'node:os';
import pg from 'pg';

/** The address probed when TEST_DATABASE_URL is not set. */
export const DEFAULT_POSTGRES = '127.0.0.1:5432';

/**
 * The URL to export as TEST_DATABASE_URL, or undefined with `reason` saying why the PostgreSQL
 * tests will skip.
 * @returns {Promise<{ url?: string, reason: string }>}
 */
export async function findTestDatabase(env = process.env) {
  if (env.TEST_DATABASE_URL) {
    return { url: env.TEST_DATABASE_URL, reason: 'TEST_DATABASE_URL' };
  }
  if (env.TEST_DATABASE_URL === '') {
    return { reason: 'TEST_DATABASE_URL is set empty (PGlite only)' };
  }
  const user = env.PGUSER ?? userInfo().username;
  const url = `postgres://${encodeURIComponent(user)}@${DEFAULT_POSTGRES}/${encodeURIComponent(env.PGDATABASE ?? 'postgres')}`;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    const { rows } = await client.query(
      'SELECT rolcreatedb OR rolsuper AS can FROM pg_roles WHERE rolname = current_user',
    );
    if (!rows[0]?.can) {
      return { reason: `PostgreSQL at ${DEFAULT_POSTGRES} answers but role "${user}" may not create databases` };
    }
    return { url, reason: `PostgreSQL answering at ${DEFAULT_POSTGRES}` };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { reason: `no usable PostgreSQL at ${DEFAULT_POSTGRES} (${why}) and TEST_DATABASE_URL is not set` };
  } finally {
    await client.end().catch(() => {});
  }
}
