/**
 * One nginx master run from a directory holding its `nginx.conf`: started, waited for until it
 * listens (its error log in the failure), stopped by PID with the directory removed.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { untilListening } from './child-process.js';

/** Path of Debian's nginx. */
export const NGINX = '/usr/sbin/nginx';

/** A running nginx. */
export interface NginxProcess {
  /** The master process (its workers are its children). */
  readonly pid: number;
  stop(): Promise<void>;
}

/** Runs nginx with `<dir>/nginx.conf` and resolves once it listens on `port`. */
export async function runNginx(dir: string, port: number): Promise<NginxProcess> {
  const child = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], {
    stdio: 'ignore',
  });
  const stop = await untilListening(child, port, dir, 'nginx', () =>
    existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8').slice(-500) : '',
  );
  return { pid: child.pid ?? 0, stop };
}
