/**
 * Airwave's own programs as tracked child processes: the real `airwave start` CLI (and its
 * AIRWAVE_READY line) and our E-RTMP publisher `scripts/publish-flv.ts`.
 */
import { spawnTracked, type Tracked, waitFor } from './processes.js';

const CLI = new URL('../../packages/server/src/main/cli.ts', import.meta.url).pathname;
const PUBLISH_FLV = new URL('../../scripts/publish-flv.ts', import.meta.url).pathname;
const READY = 'AIRWAVE_READY ';

/** What `airwave start` prints once it listens. */
export interface AirwaveReady {
  readonly ports: { readonly http: number };
  readonly nodeId: string;
}

/** Runs `airwave start` (through tsx, `source` condition) with `args` after `start`, tracked. */
export function spawnAirwave(args: readonly string[], env?: NodeJS.ProcessEnv): Tracked {
  return spawnTracked(process.execPath, ['--conditions=source', '--import', 'tsx', CLI, 'start', ...args], env);
}

/** Extra settings of a CLI started by startCliOn. */
export interface CliOptions {
  /** Variables set over the cleaned environment (e.g. PATH). */
  readonly env?: Readonly<Record<string, string>>;
  /** Log level (default warn). */
  readonly logLevel?: string;
}

/** `airwave start` on 127.0.0.1 with every listener on an ephemeral port and its data in `dataDir`, without AIRWAVE_* settings of this process. */
export function startCliOn(dataDir: string, options: CliOptions = {}): Tracked {
  const args = ['--host', '127.0.0.1'];
  for (const flag of ['--http-port', '--rtmp-port', '--rtmps-port', '--srt-port']) {
    args.push(flag, '0');
  }
  args.push('--data-dir', dataDir, '--log-level', options.logLevel ?? 'warn');
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) {
    if (name.startsWith('AIRWAVE_') || name === 'DATABASE_URL') {
      delete env[name];
    }
  }
  return spawnAirwave(args, { ...env, ...options.env });
}

/** Waits for the AIRWAVE_READY line of `cli` and parses it; throws with its stderr when it exits first. */
export function airwaveReady(cli: Tracked, timeoutMs: number): Promise<AirwaveReady> {
  return waitFor(
    'AIRWAVE_READY',
    () => {
      const line = cli
        .stdout()
        .split('\n')
        .find((text) => text.startsWith(READY));
      if (!line && cli.child.exitCode !== null) {
        throw new Error(`airwave start exited ${cli.child.exitCode}: ${cli.stderr()}`);
      }
      return line ? (JSON.parse(line.slice(READY.length)) as AirwaveReady) : undefined;
    },
    timeoutMs,
  );
}

/** Runs `scripts/publish-flv.ts` (our E-RTMP publisher) with `args`. */
export function publishFlv(args: readonly string[]): Tracked {
  return spawnTracked(process.execPath, ['--conditions=source', '--import', 'tsx', PUBLISH_FLV, ...args]);
}
