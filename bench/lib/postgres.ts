/**
 * PostgreSQL for benchmarks: the first server that answers (TEST_DATABASE_URL, then the local
 * defaults), and a scratch database on it dropped afterwards.
 */
import pg from 'pg';

/** The URL of a PostgreSQL server that answers, or undefined. */
export async function postgresBase(): Promise<string | undefined> {
  const candidates = [
    process.env.TEST_DATABASE_URL,
    'postgres://root@127.0.0.1:5432/test',
    'postgres://postgres@127.0.0.1:5432/test',
  ];
  for (const url of candidates) {
    if (!url) {
      continue;
    }
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return url;
    } catch {
      await client.end().catch(() => undefined);
    }
  }
  return undefined;
}

/** Runs `use` with the URL of a fresh database on `base`, dropped afterwards. */
export async function withScratchDatabase<T>(base: string, use: (url: string) => Promise<T>): Promise<T> {
  const database = `airwave_bench_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${database}`;
  try {
    return await use(url.toString());
  } finally {
    const drop = new pg.Client({ connectionString: base });
    await drop.connect();
    await drop.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await drop.end();
  }
}
