/**
 * Runs deploy/nginx-playback-cache.conf as written (the shipped file, its upstream, listen port
 * and cache path replaced) in front of an Airwave server, as a tracked child process.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnTracked, type Tracked, waitFor } from './processes.js';

const NGINX = '/usr/sbin/nginx';
const SNIPPET = new URL('../../deploy/nginx-playback-cache.conf', import.meta.url);

/** Why nginx-based tests skip, or false when nginx is installed. */
export const nginxMissing: string | false = existsSync(NGINX)
  ? false
  : `nginx is not installed (${NGINX}; apt-get install nginx)`;

/** A running caching nginx. */
export interface NginxCache {
  readonly port: number;
  readonly baseUrl: string;
  readonly process: Tracked;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Starts nginx with the shipped cache config in front of `airwavePort`, `workers` worker processes. */
export async function startNginxCache(airwavePort: number, workers = 1): Promise<NginxCache> {
  const dir = mkdtempSync(join(tmpdir(), 'airwave-nginx-cache-'));
  mkdirSync(join(dir, 'cache'));
  const port = await freePort();
  const snippet = readFileSync(SNIPPET, 'utf8')
    .replace('server 127.0.0.1:8080;', `server 127.0.0.1:${airwavePort};`)
    .replace('listen 8081 ', `listen 127.0.0.1:${port} `)
    .replace('/var/cache/nginx/airwave', join(dir, 'cache'));
  writeFileSync(join(dir, 'playback-cache.conf'), snippet);
  writeFileSync(
    join(dir, 'nginx.conf'),
    `user root;\ndaemon off;\nworker_processes ${workers};\npid ${dir}/nginx.pid;\nerror_log ${dir}/error.log warn;\n` +
      `events { worker_connections 8192; }\nhttp {\n  access_log off;\n  include ${dir}/playback-cache.conf;\n}\n`,
  );
  const process = spawnTracked(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')]);
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitFor(
    'nginx to listen',
    async () => {
      if (process.child.exitCode !== null) {
        throw new Error(
          `nginx exited: ${process.stderr()} ${readFileSync(join(dir, 'error.log'), 'utf8').slice(-500)}`,
        );
      }
      return (await fetch(`${baseUrl}/healthz`).catch(() => undefined))?.ok;
    },
    10_000,
  );
  return {
    port,
    baseUrl,
    process,
    async stop() {
      await process.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
