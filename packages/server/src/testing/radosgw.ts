/**
 * Test support: a real S3 server that verifies SigV4 — a single-node Ceph cluster (monitor, one
 * memstore OSD, radosgw) started from a throwaway directory on ephemeral ports, stopped by PID
 * (ADR 0050; the steps measured in shared/research/s3-test-server.md). Needs Debian's
 * `radosgw ceph-mon ceph-osd` (scripts/setup.sh --test) and root (the daemons' defaults).
 */
import { execFile, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { isAlive } from '../db/data-dir-lock.js';

const run = promisify(execFile);

/** Runs a Ceph daemon, which forks itself once ready; resolves when the foreground process exits. */
async function daemon(command: string, args: string[]): Promise<void> {
  const child = spawn(command, args, { stdio: 'ignore' });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) {
    throw new Error(`${command} exited with ${code}`);
  }
}

/** Why S3 tests skip (the missing packages or privileges), or false when radosgw can start. */
export const radosgwMissing: string | false = (() => {
  for (const tool of ['radosgw', 'ceph-mon', 'ceph-osd', 'monmaptool', 'radosgw-admin', 'ceph']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) {
      return `${tool} is not installed (scripts/setup.sh --test installs radosgw ceph-mon ceph-osd)`;
    }
  }
  if (process.getuid?.() !== 0) {
    return 'radosgw test cluster needs root';
  }
  return false;
})();

/** A running radosgw with one user; `stop()` ends its daemons and removes its directory. */
export interface Radosgw {
  /** `http://127.0.0.1:<port>`. */
  readonly endpoint: string;
  readonly region: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`radosgw test cluster: ${what} did not happen within ${timeoutMs} ms`);
}

/** Starts monitor, OSD and radosgw (about 15 s) and creates a user with fresh keys. */
export async function startRadosgw(options: { memoryBytes?: number } = {}): Promise<Radosgw> {
  const dir = await mkdtemp(join(tmpdir(), 'airwave-rgw-'));
  const conf = join(dir, 'ceph.conf');
  const [monPort, rgwPort] = [await freePort(), await freePort()];
  const fsid = randomUUID();
  for (const sub of ['run', 'log', 'mon', 'osd/ceph-0']) {
    await mkdir(join(dir, sub), { recursive: true });
  }
  await writeFile(
    conf,
    [
      '[global]',
      `fsid = ${fsid}`,
      `mon host = 127.0.0.1:${monPort}`,
      'auth cluster required = none',
      'auth service required = none',
      'auth client required = none',
      `run dir = ${dir}/run`,
      `log file = ${dir}/log/$name.log`,
      `admin socket = ${dir}/run/$name.asok`,
      `pid file = ${dir}/run/$name.pid`,
      `mon data = ${dir}/mon/$name`,
      `osd data = ${dir}/osd/$cluster-$id`,
      `keyring = ${dir}/keyring`,
      'osd objectstore = memstore',
      `memstore device bytes = ${options.memoryBytes ?? 2 * 1024 ** 3}`,
      'osd pool default size = 1',
      'osd pool default min size = 1',
      'osd pool default pg num = 8',
      'osd pool default pgp num = 8',
      'mon allow pool size one = true',
      'mon warn on pool no redundancy = false',
      'mon max pg per osd = 1000',
      'osd crush chooseleaf type = 0',
      'ms bind ipv6 = false',
      // Daemons talk to the monitor in "secure" mode by default, which auth "none" cannot give.
      'ms mon client mode = crc',
      '[client.rgw]',
      `rgw frontends = beast endpoint=127.0.0.1:${rgwPort}`,
      '',
    ].join('\n'),
  );
  const ceph = (...args: string[]) => run('ceph', ['--conf', conf, ...args], { timeout: 30_000 });
  const pidFiles = ['client.rgw', 'osd.0', 'mon.a'].map((name) => join(dir, 'run', `${name}.pid`));
  const stop = async () => {
    const pids: number[] = [];
    for (const file of pidFiles) {
      const pid = Number.parseInt(await readFile(file, 'utf8').catch(() => ''), 10);
      if (pid > 0 && isAlive(pid)) {
        process.kill(pid, 'SIGTERM');
        pids.push(pid);
      }
    }
    const deadline = Date.now() + 15_000;
    while (pids.some(isAlive) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    for (const pid of pids.filter(isAlive)) {
      process.kill(pid, 'SIGKILL');
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await run('monmaptool', ['--create', '--fsid', fsid, '--add', 'a', `127.0.0.1:${monPort}`, join(dir, 'monmap')]);
    await run('ceph-mon', ['--conf', conf, '--id', 'a', '--mkfs', '--monmap', join(dir, 'monmap')]);
    await daemon('ceph-mon', ['--conf', conf, '--id', 'a']);
    await until('the monitor answering', async () => (await ceph('-s')).stdout.includes(fsid), 30_000);
    await ceph('osd', 'create');
    await run('ceph-osd', ['--conf', conf, '--id', '0', '--mkfs']);
    await ceph('osd', 'crush', 'add', 'osd.0', '1', 'host=localhost', 'root=default');
    await daemon('ceph-osd', ['--conf', conf, '--id', '0']);
    await until('the OSD coming up', async () => (await ceph('osd', 'stat')).stdout.includes('1 up'), 60_000);
    await daemon('radosgw', ['--conf', conf, '-n', 'client.rgw']);
    const endpoint = `http://127.0.0.1:${rgwPort}`;
    await until('radosgw answering HTTP', async () => (await fetch(endpoint)).status > 0, 60_000);
    const accessKeyId = `AW${randomUUID().replaceAll('-', '').slice(0, 18).toUpperCase()}`;
    const secretAccessKey = randomUUID().replaceAll('-', '') + randomUUID().replaceAll('-', '').slice(0, 8);
    await run(
      'radosgw-admin',
      [
        '--conf',
        conf,
        'user',
        'create',
        '--uid=airwave-test',
        '--display-name=airwave test',
        `--access-key=${accessKeyId}`,
        `--secret=${secretAccessKey}`,
      ],
      { timeout: 30_000 },
    );
    return { endpoint, region: 'us-east-1', accessKeyId, secretAccessKey, stop };
  } catch (error) {
    const logs = await readFile(join(dir, 'log', 'client.rgw.log'), 'utf8').catch(() => '');
    await stop();
    throw new Error(`${(error as Error).message}${logs ? `\nradosgw log tail:\n${logs.slice(-2000)}` : ''}`);
  }
}

/** The AIRWAVE_S3_* variables for a server storing in `bucket` on `rgw` (path style). */
export function radosgwServerEnv(rgw: Radosgw, bucket: string): Record<string, string> {
  return {
    AIRWAVE_S3_ENDPOINT: rgw.endpoint,
    AIRWAVE_S3_BUCKET: bucket,
    AIRWAVE_S3_REGION: rgw.region,
    AIRWAVE_S3_ACCESS_KEY_ID: rgw.accessKeyId,
    AIRWAVE_S3_SECRET_ACCESS_KEY: rgw.secretAccessKey,
  };
}
