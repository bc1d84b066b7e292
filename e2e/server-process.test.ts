/**
 * The real CLI as separate processes: a second process on the same PGlite data directory fails
 * at once with the lock message; a stale lock is recovered; a restart after kill -9 loses
 * nothing a mutation confirmed; two processes starting on one new PostgreSQL database at once
 * apply each migration once.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readlinkSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import pg from 'pg';
import { migrationNames } from '../packages/server/src/db/migrate.js';
import { createScratchDatabase, postgresMissing } from '../packages/server/src/testing/databases.js';
import { airwaveReady, spawnAirwave } from './support/airwave-cli.js';
import { type Tracked, waitFor } from './support/processes.js';

const START_TIMEOUT_MS = 120_000;
const dirs: string[] = [];

after(() => {
  for (const dir of dirs) {
    rmSync(dir, { recursive: true, force: true });
  }
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'airwave-process-'));
  dirs.push(dir);
  return dir;
}

/** Starts `airwave start` on ephemeral ports. */
function startCli(options: { dataDir: string; databaseUrl?: string; embedded?: 'pglite' | 'default' }): Tracked {
  const args = ['--host', '127.0.0.1'];
  for (const flag of ['--http-port', '--rtmp-port', '--rtmps-port', '--srt-port']) {
    args.push(flag, '0');
  }
  args.push('--data-dir', options.dataDir, '--log-level', 'warn');
  if (options.databaseUrl) {
    args.push('--database-url', options.databaseUrl);
  }
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) {
    if (name.startsWith('AIRWAVE_') || name === 'DATABASE_URL') {
      delete env[name];
    }
  }
  if (options.embedded !== 'default') {
    env.AIRWAVE_EMBEDDED_DATABASE = 'pglite';
  }
  return spawnAirwave(args, env);
}

/** Waits for the AIRWAVE_READY line and returns the GraphQL URL. */
async function ready(cli: Tracked): Promise<string> {
  const info = await airwaveReady(cli, START_TIMEOUT_MS);
  assert.ok(info.ports.http > 0);
  return `http://127.0.0.1:${info.ports.http}/graphql`;
}

async function graphql<T>(
  url: string,
  query: string,
  variables: Record<string, unknown> = {},
  token?: string,
): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data: T | null; errors?: unknown };
  assert.ok(body.data, JSON.stringify(body.errors));
  return body.data;
}

const REGISTER = `mutation($input: RegisterInput!) { register(input: $input) { __typename ... on AuthPayload { token user { id } } } }`;
const LOGIN = `mutation($input: LoginInput!) { login(input: $input) { __typename ... on AuthPayload { token user { id } } } }`;
const CREATE_TOKEN = `mutation($input: CreateDeveloperTokenInput!) {
  createDeveloperToken(input: $input) { __typename ... on DeveloperToken { id tokenValue } }
}`;
const LIST_TOKENS = '{ developerTokensConnection { totalCount nodes { id tokenName status } } }';
const CREATE_STREAM = `mutation($input: CreateStreamInput!) {
  createStream(input: $input) { __typename ... on Stream { id streamId streamKey } }
}`;
const CREATE_STREAM_KEY = `mutation($id: ID!) {
  createStreamKey(streamId: $id, input: { name: "backup" }) { __typename ... on StreamKey { id keyValue } }
}`;
const REFRESH_STREAM_KEY = `mutation($id: ID!) { refreshStreamKey(id: $id) { __typename ... on Stream { streamKey } } }`;
const STREAM_AND_KEYS = `query($id: ID!) {
  stream(id: $id) { streamId name streamKey }
  streamKeysConnection(streamId: $id) { nodes { keyValue keyName isActive } }
}`;
const RESOLVE_INGEST = 'query($key: String!) { resolveIngestEndpoint(streamKey: $key) { metadata { streamId } } }';

interface AuthResult {
  __typename: string;
  token?: string;
  user?: { id: string };
}

describe('the CLI refuses bad configuration', () => {
  test('a bad port, a bad DATABASE_URL and an unknown flag exit 2 with messages naming them', async () => {
    const cases: [string[], RegExp][] = [
      [['--http-port', '70000'], /^airwave: invalid configuration:\n {2}AIRWAVE_HTTP_PORT: .*65535/m],
      [['--database-url', 'mysql://db/x'], /DATABASE_URL: must be a postgres:\/\/ or postgresql:\/\/ URL/],
      [['--htp-port', '1'], /^airwave: unknown flag --htp-port/m],
    ];
    for (const [flags, message] of cases) {
      const cli = spawnAirwave(flags);
      assert.equal(await cli.exited, 2, flags.join(' '));
      assert.match(cli.stderr(), message);
    }
  });
});

/** Pids of the processes named `comm` among the children of `pid`. */
function childrenNamed(pid: number, comm: string): number[] {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/);
  return children
    .filter((child) => child !== '' && readFileSync(`/proc/${child}/comm`, 'utf8').trim() === comm)
    .map(Number);
}

/** Whether `pid` is gone (or a zombie nobody reaped yet). */
function gone(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return true;
  }
}

describe('the CLI on the embedded PostgreSQL (the default)', () => {
  test('runs real PostgreSQL as its child, and kill -9 of the service leaves no server behind; a restart finds the data', async () => {
    const dataDir = tempDir();
    const first = startCli({ dataDir, embedded: 'default' });
    const url = await ready(first);
    const pid = first.child.pid ?? assert.fail('no pid');
    const [postmaster] = childrenNamed(pid, 'postgres');
    assert.ok(postmaster, 'a postgres child runs');
    assert.match(first.stdout(), /database: embedded PostgreSQL/);
    const input = { email: 'embedded@example.com', password: 'survives kill -9', name: 'Embedded' };
    assert.equal(
      (await graphql<{ register: AuthResult }>(url, REGISTER, { input })).register.__typename,
      'AuthPayload',
    );
    first.child.kill('SIGKILL');
    await first.exited;
    await waitFor('the embedded PostgreSQL to exit with the service', () => gone(postmaster), 30_000);
    const second = startCli({ dataDir, embedded: 'default' });
    try {
      const again = await ready(second);
      const login = (
        await graphql<{ login: AuthResult }>(again, LOGIN, { input: { email: input.email, password: input.password } })
      ).login;
      assert.equal(login.__typename, 'AuthPayload', 'what was confirmed before kill -9 is there');
      const [restarted] = childrenNamed(second.child.pid ?? 0, 'postgres');
      assert.ok(restarted);
      await second.stop(15_000);
      assert.ok(gone(restarted), 'a clean stop stops the server too');
    } finally {
      await second.stop();
    }
  });
});

describe('the CLI on a PGlite data directory', () => {
  test('the service is the process that was started, running with its V8 flags, with no Node process above or beside it', async () => {
    const cli = startCli({ dataDir: tempDir() });
    try {
      const info = (await airwaveReady(cli, START_TIMEOUT_MS)) as { pid?: number };
      assert.equal(info.pid, cli.child.pid, 'AIRWAVE_READY names the started pid: re-executed in place');
      const argv = readFileSync(`/proc/${cli.child.pid}/cmdline`, 'utf8').split('\0');
      assert.ok(argv.includes('--max-semi-space-size=64'), argv.join(' '));
      const environ = readFileSync(`/proc/${cli.child.pid}/environ`, 'utf8').split('\0');
      assert.ok(environ.includes('MALLOC_MMAP_THRESHOLD_=131072'), 'glibc malloc returns large blocks on free');
      const children = readFileSync(`/proc/${cli.child.pid}/task/${cli.child.pid}/children`, 'utf8').trim();
      const nodeChildren = children
        .split(/\s+/)
        .filter((pid) => pid !== '' && executableOf(pid) === realpathSync(process.execPath));
      assert.deepEqual(nodeChildren, [], 'no Node child (tsx, which runs it here, has its esbuild service)');
    } finally {
      await cli.stop();
    }
  });

  test('a second process on the same data directory fails at once with the lock message', async () => {
    const dataDir = tempDir();
    const first = startCli({ dataDir });
    try {
      await ready(first);
      const second = startCli({ dataDir });
      const code = await second.exited;
      assert.equal(code, 2);
      assert.match(
        second.stderr(),
        new RegExp(`airwave: data directory .* is in use by another Airwave process \\(pid ${first.child.pid}\\)`),
      );
      assert.equal(first.child.exitCode, null, 'the first process keeps running');
    } finally {
      await first.stop();
    }
  });

  test('a stale lock (its pid is dead) is recovered', async () => {
    const dataDir = tempDir();
    mkdirSync(dataDir, { recursive: true });
    const dead = spawnSync('true').pid;
    writeFileSync(join(dataDir, 'airwave.lock'), `${dead}\n`);
    const cli = startCli({ dataDir });
    try {
      const url = await ready(cli);
      assert.deepEqual(await graphql(url, '{ ping }'), { ping: true });
    } finally {
      await cli.stop();
    }
  });

  test('a restart after kill -9 keeps every confirmed account, session, developer token, stream and stream key', async () => {
    const dataDir = tempDir();
    const first = startCli({ dataDir });
    let url = await ready(first);
    const input = { email: 'durable@example.com', password: 'survives kill -9', name: 'Durable' };
    const registered = (await graphql<{ register: AuthResult }>(url, REGISTER, { input })).register;
    assert.equal(registered.__typename, 'AuthPayload');
    const created = (
      await graphql<{ createDeveloperToken: { __typename: string; id: string; tokenValue: string } }>(
        url,
        CREATE_TOKEN,
        { input: { name: 'survivor', permissions: 'developer:read' } },
        registered.token,
      )
    ).createDeveloperToken;
    assert.equal(created.__typename, 'DeveloperToken');
    const stream = (
      await graphql<{ createStream: { __typename: string; id: string; streamId: string; streamKey: string } }>(
        url,
        CREATE_STREAM,
        { input: { name: 'durable stream' } },
        registered.token,
      )
    ).createStream;
    assert.equal(stream.__typename, 'Stream');
    const backup = (
      await graphql<{ createStreamKey: { __typename: string; id: string; keyValue: string } }>(
        url,
        CREATE_STREAM_KEY,
        { id: stream.id },
        registered.token,
      )
    ).createStreamKey;
    assert.equal(backup.__typename, 'StreamKey');
    const refreshed = (
      await graphql<{ refreshStreamKey: { __typename: string; streamKey: string } }>(
        url,
        REFRESH_STREAM_KEY,
        { id: stream.id },
        registered.token,
      )
    ).refreshStreamKey;
    assert.equal(refreshed.__typename, 'Stream');
    assert.notEqual(refreshed.streamKey, stream.streamKey);

    first.child.kill('SIGKILL');
    await first.exited;
    const second = startCli({ dataDir });
    try {
      url = await ready(second);
      const login = (
        await graphql<{ login: AuthResult }>(url, LOGIN, { input: { email: input.email, password: input.password } })
      ).login;
      assert.equal(login.__typename, 'AuthPayload');
      assert.equal(login.user?.id, registered.user?.id);
      const listed = await graphql<{
        developerTokensConnection: { totalCount: number; nodes: { id: string; tokenName: string; status: string }[] };
      }>(url, LIST_TOKENS, {}, login.token);
      assert.deepEqual(listed.developerTokensConnection.nodes, [
        { id: created.id, tokenName: 'survivor', status: 'active' },
      ]);
      const viaToken = await graphql<typeof listed>(url, LIST_TOKENS, {}, created.tokenValue);
      assert.equal(viaToken.developerTokensConnection.totalCount, 1, 'the developer token still authenticates');
      const oldSession = await graphql<{ me: { id: string } }>(url, '{ me { id } }', {}, registered.token);
      assert.equal(oldSession.me.id, registered.user?.id, 'the session secret is stored: old sessions stay valid');

      const kept = await graphql<{
        stream: { streamId: string; name: string; streamKey: string } | null;
        streamKeysConnection: { nodes: { keyValue: string; keyName: string; isActive: boolean }[] };
      }>(url, STREAM_AND_KEYS, { id: stream.id }, login.token);
      assert.deepEqual(kept.stream, {
        streamId: stream.streamId,
        name: 'durable stream',
        streamKey: refreshed.streamKey,
      });
      const activeKeys = kept.streamKeysConnection.nodes
        .filter((key) => key.isActive)
        .map((key) => key.keyValue)
        .sort();
      assert.deepEqual(activeKeys, [refreshed.streamKey, backup.keyValue].sort(), 'both active keys survive');
      for (const key of [refreshed.streamKey, backup.keyValue]) {
        const found = await graphql<{ resolveIngestEndpoint: { metadata: { streamId: string } } }>(
          url,
          RESOLVE_INGEST,
          {
            key,
          },
        );
        assert.equal(found.resolveIngestEndpoint.metadata.streamId, stream.streamId);
      }
      const refused = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: RESOLVE_INGEST, variables: { key: stream.streamKey } }),
      });
      const refusal = (await refused.json()) as { errors?: { extensions?: { code?: string } }[] };
      assert.equal(refusal.errors?.[0]?.extensions?.code, 'NOT_FOUND', 'the rotated-out key stays refused');
    } finally {
      await second.stop();
    }
  });
});

describe('the CLI on PostgreSQL', { skip: postgresMissing }, () => {
  test('two processes starting on one new database at once both come up; each migration is applied once', async () => {
    const scratch = await createScratchDatabase();
    const processes = [
      startCli({ dataDir: tempDir(), databaseUrl: scratch.url }),
      startCli({ dataDir: tempDir(), databaseUrl: scratch.url }),
    ];
    try {
      const [firstUrl, secondUrl] = await Promise.all(processes.map((cli) => ready(cli)));
      const client = new pg.Client({ connectionString: scratch.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ name: string; n: number }>(
          'SELECT name, count(*)::int AS n FROM schema_migrations GROUP BY name ORDER BY name',
        );
        assert.deepEqual(
          rows.map((row) => [row.name, row.n]),
          migrationNames().map((name) => [name, 1]),
        );
      } finally {
        await client.end();
      }
      const registered = (
        await graphql<{ register: AuthResult }>(firstUrl as string, REGISTER, {
          input: { email: 'pg@example.com', password: 'two processes' },
        })
      ).register;
      const me = await graphql<{ me: { id: string } }>(secondUrl as string, '{ me { id } }', {}, registered.token);
      assert.equal(me.me.id, registered.user?.id, 'a session from one process is accepted by the other');

      processes[0]?.child.kill('SIGKILL');
      await processes[0]?.exited;
      const third = startCli({ dataDir: tempDir(), databaseUrl: scratch.url });
      processes.push(third);
      const login = (
        await graphql<{ login: AuthResult }>(await ready(third), LOGIN, {
          input: { email: 'pg@example.com', password: 'two processes' },
        })
      ).login;
      assert.equal(login.user?.id, registered.user?.id, 'nothing confirmed is lost when a process is killed');
    } finally {
      await Promise.all(processes.map((cli) => cli.stop()));
      await scratch.drop();
    }
  });
});

/** The executable a process runs, or null when it has exited since it was listed (a short-lived child). */
function executableOf(pid: string): string | null {
  try {
    return readlinkSync(`/proc/${pid}/exe`);
  } catch {
    return null;
  }
}
