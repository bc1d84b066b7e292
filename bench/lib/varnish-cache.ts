/**
 * Runs deploy/varnish-playback-cache.vcl as shipped (its backend port replaced) in a varnishd of
 * our own in front of an Airwave server: for the Varnish-cache e2e test and the edge fan-out
 * benchmark. varnishd runs in the foreground (-F) as our child, stopped by PID.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, untilListening } from './child-process.js';

/** Path of Debian's varnishd. */
export const VARNISHD = '/usr/sbin/varnishd';

const VCL = new URL('../../deploy/varnish-playback-cache.vcl', import.meta.url);

/** The run-time parameters the deploy notes recommend (the header of deploy/varnish-playback-cache.vcl, ADR 0070). */
export const VARNISH_PARAMS: readonly string[] = [
  'rush_exponent=1000',
  'thread_pools=2',
  'thread_pool_min=10',
  'thread_pool_max=50',
  'thread_queue_limit=5000',
  'timeout_linger=0.01',
];

/** Why varnishd is not available, or false when it is installed. */
export const varnishMissing: string | false = existsSync(VARNISHD)
  ? false
  : `varnishd is not installed (${VARNISHD}; apt-get install varnish)`;

/** A running caching Varnish. */
export interface VarnishCache {
  readonly port: number;
  /** The varnishd manager process (the cache process is its child). */
  readonly pid: number;
  readonly baseUrl: string;
  stop(): Promise<void>;
}

/** Starts varnishd with the shipped VCL in front of `airwavePort`, with `params` (-p name=value). */
export async function startVarnishCache(
  airwavePort: number,
  params: readonly string[] = VARNISH_PARAMS,
): Promise<VarnishCache> {
  const dir = mkdtempSync(join(tmpdir(), 'airwave-varnish-'));
  const vcl = readFileSync(VCL, 'utf8').replace('.port = "8080";', `.port = "${airwavePort}";`);
  writeFileSync(join(dir, 'playback-cache.vcl'), vcl);
  const port = await freePort();
  const args = ['-F', '-n', join(dir, 'work'), '-a', `127.0.0.1:${port}`, '-T', 'none', '-j', 'none'];
  args.push('-f', join(dir, 'playback-cache.vcl'), '-s', 'malloc,256m');
  for (const param of params) {
    args.push('-p', param);
  }
  const child: ChildProcess = spawn(VARNISHD, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString('utf8')).slice(-2000);
  });
  const stop = await untilListening(child, port, dir, 'varnishd', () => log);
  return { port, pid: child.pid ?? 0, baseUrl: `http://127.0.0.1:${port}`, stop };
}
