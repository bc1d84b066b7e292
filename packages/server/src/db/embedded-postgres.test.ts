/**
 * The embedded PostgreSQL restarts on a cluster whose last server was killed with its service:
 * a `postmaster.pid` and socket lock files naming a process that is not this cluster's server
 * (as a zombie postmaster nobody reaps leaves them) do not stop it, and that process is not killed.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { isAlive } from './data-dir-lock.js';
import { postgresBinaries, startEmbeddedPostgres } from './embedded-postgres.js';

const binaries = postgresBinaries();
const skip = 'missing' in binaries ? `embedded PostgreSQL binaries missing: ${binaries.missing}` : false;

let dir: string;
let sleeper: ChildProcess;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'airwave-embedded-pg-'));
  sleeper = spawn('sleep', ['120'], { stdio: 'ignore' });
});

after(() => {
  if (sleeper.pid !== undefined && sleeper.exitCode === null) {
    process.kill(sleeper.pid, 'SIGKILL');
  }
  rmSync(dir, { recursive: true, force: true });
});

/** Runs one query on the server, proving it accepts connections. */
async function selectOne(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ one: number }>('select 1 as one')).rows[0]?.one ?? 0;
  } finally {
    await client.end();
  }
}

test('a restart clears a postmaster.pid and socket locks naming a live process that is not its server', {
  skip,
}, async () => {
  const cluster = join(dir, 'cluster');
  const first = await startEmbeddedPostgres(cluster);
  assert.equal(await selectOne(first.url), 1);
  await first.stop();
  const stranger = sleeper.pid ?? assert.fail('no sleeper pid');
  writeFileSync(join(cluster, 'postmaster.pid'), `${stranger}\n${cluster}\n`);
  writeFileSync(join(cluster, '.s.PGSQL.5432.lock'), `${stranger}\n${cluster}\n`);
  writeFileSync(join(cluster, '.s.PGSQL.5432'), '');
  const second = await startEmbeddedPostgres(cluster);
  try {
    assert.equal(await selectOne(second.url), 1, 'the restarted server accepts connections');
    assert.ok(isAlive(stranger), 'a process that is not a postgres server is never killed');
    assert.ok(
      readdirSync(cluster).includes('.s.PGSQL.5432.lock'),
      'the running server wrote its own socket lock again',
    );
  } finally {
    await second.stop();
  }
});
