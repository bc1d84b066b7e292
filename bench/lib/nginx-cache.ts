/**
 * Runs deploy/nginx-playback-cache.conf as shipped (its upstream, listen port and cache path
 * replaced) in front of an Airwave server: for the nginx-cache e2e test and the edge fan-out
 * benchmark.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './child-process.js';
import { NGINX, runNginx } from './nginx-process.js';

const SNIPPET = new URL('../../deploy/nginx-playback-cache.conf', import.meta.url);
/** Where nginx logs each request with its timings (BENCH_NGINX_ACCESS_LOG, a path), else nowhere. */
const ACCESS_LOG = process.env.BENCH_NGINX_ACCESS_LOG;
const TIMED_FORMAT =
  'log_format timed "$msec $request_time $status $upstream_cache_status $upstream_response_time $upstream_header_time $bytes_sent $connection $request_uri";';

/** Why nginx is not available, or false when it is installed. */
export const nginxMissing: string | false = existsSync(NGINX)
  ? false
  : `nginx is not installed (${NGINX}; apt-get install nginx)`;

/** A running caching nginx. */
export interface NginxCache {
  readonly port: number;
  /** The nginx master process (its workers are its children). */
  readonly pid: number;
  readonly baseUrl: string;
  stop(): Promise<void>;
}

/** How to run the cache: worker processes (1), port (a free one) and config (deploy/'s). */
export interface NginxCacheOptions {
  readonly workers?: number;
  /** The port to listen on (Airwave warms parts through it, ADR 0083). */
  readonly port?: number;
  /** Path of another config to run instead of deploy/nginx-playback-cache.conf (to compare one). */
  readonly config?: string;
  /** Reach Airwave on this Unix socket path (its AIRWAVE_HTTP_SOCKET) instead of its TCP port. */
  readonly socket?: string;
}

/** Starts nginx with the shipped cache config (or `options.config`) in front of `airwavePort`. */
export async function startNginxCache(airwavePort: number, options: NginxCacheOptions = {}): Promise<NginxCache> {
  const workers = options.workers ?? 1;
  const dir = mkdtempSync(join(tmpdir(), 'airwave-nginx-cache-'));
  mkdirSync(join(dir, 'cache'));
  const port = options.port ?? (await freePort());
  const snippet = readFileSync(options.config ?? SNIPPET, 'utf8')
    .replace(
      'server 127.0.0.1:8080;',
      options.socket ? `server unix:${options.socket};` : `server 127.0.0.1:${airwavePort};`,
    )
    .replace('listen 8081 ', `listen 127.0.0.1:${port} `)
    .replace('/var/cache/nginx/airwave', join(dir, 'cache'));
  writeFileSync(join(dir, 'playback-cache.conf'), snippet);
  writeFileSync(
    join(dir, 'nginx.conf'),
    `user root;\ndaemon off;\nworker_processes ${workers};\npid ${dir}/nginx.pid;\nerror_log ${dir}/error.log warn;\n` +
      `events { worker_connections 8192; }\nhttp {\n  ${ACCESS_LOG ? `${TIMED_FORMAT}\n  access_log ${ACCESS_LOG} timed;` : 'access_log off;'}\n  include ${dir}/playback-cache.conf;\n}\n`,
  );
  const { pid, stop } = await runNginx(dir, port);
  return { port, pid, baseUrl: `http://127.0.0.1:${port}`, stop };
}
