#!/usr/bin/env node
/**
 * `airwave start [--flag value …]`: validates configuration, starts the service, prints its
 * URLs, and shuts down cleanly on SIGINT/SIGTERM.
 *
 * The service needs V8 heap flags that V8 reads only when a process starts (`v8.setFlagsFromString`
 * is too late for heap sizing): started without them, this process replaces itself (execve(2),
 * `process.execve`, Node ≥ 23.11) with the same program and the flags — same pid, no parent left
 * above the service, so `npm start` leaves one Node process (plus the embedded database). It imports
 * nothing else before that decision. On a Node without `process.execve` it runs without them.
 */
import { close as closeInspector } from 'node:inspector';

/**
 * V8 flags the service runs with. A 64 MiB young-generation semi-space (Node 20 default 16 MiB):
 * media ingest allocates short-lived buffers and objects per message, and with the default the
 * scavenger runs several times a second; measured with 10 real ffmpeg pushes (bench/scratch
 * per-thread CPU), server CPU fell ~30 % with every packager on and ~15 % ingest only — mostly in
 * V8's parallel GC helper threads — at a cost of up to ~128 MiB more young generation when busy.
 * A 128 MiB initial old generation: with V8's small default the ~34 MiB live heap sits close to
 * the old-space limit and a full mark-compact ran about every 2 s at 10 streams; measured the same
 * way (10 pushes, every packager on, two alternated rounds) server CPU fell from ~8.6 % to ~5.5 %
 * of a core, RSS unchanged within noise (605–650 MiB) once running. `--expose-gc` lets start-up
 * collect, once, what opening the embedded database leaves behind (PGlite's initdb instance on a
 * new data directory): measured 20 s after start on a new data directory, RSS 817 → 420 MiB.
 * `--no-memory-reducer`: V8's memory reducer runs extra full collections whenever the allocation
 * rate drops, which for a server ingesting at a steady real-time rate means repeated mark-compacts
 * of the whole heap; measured with one real ffmpeg push (merged reads, two alternated rounds of two
 * 25 s windows), 2 of 4 windows with it spent ~1.4 % of a core against 0.7–0.9 % in all 4 without.
 * `--heap-growing-percent=100`: the hub's history keeps ~26 s of media per stream in ArrayBuffers,
 * and with V8's default growing factor the allowance for new external memory after a full
 * collection is small, so at 50 ffmpeg pushes (history full) a full mark-compact ran every
 * 0.3–0.4 s (`--trace-gc`) and the server used 20–27 % of a core; with it, one every ~2.2 s and
 * 8–8.5 % (300 gave no more), RSS unchanged within noise (~1 GiB).
 * Flags you give yourself keep your value.
 */
const SERVICE_NODE_FLAGS: readonly string[] = [
  '--max-semi-space-size=64',
  '--initial-old-space-size=128',
  '--expose-gc',
  '--no-memory-reducer',
  '--heap-growing-percent=100',
];

/**
 * Environment the service runs with (ADR 0018). glibc's malloc serves blocks of 128 KiB and more
 * with mmap, but raises that threshold to the size of every such block freed (up to 32 MiB): the
 * ~1 MiB segment blocks of the TS and CMAF packagers, freed every 2 s per stream, then come from
 * the heap arenas, whose freed pages stay resident. A fixed threshold keeps them mmap'ed and
 * returned on free: measured at 50 always-packaged 3 Mb/s streams (`npm run bench -- media-cpu`),
 * 7.8 → 5.1 MiB PSS per stream. A value you set yourself is kept.
 */
const SERVICE_ENV: Readonly<Record<string, string>> = { MALLOC_MMAP_THRESHOLD_: '131072' };

const HELP_HINT =
  'usage: airwave start [--host H] [--http-port N] [--rtmp-port N] [--data-dir DIR] [--database-url URL] …';

/** Whether a flag named like `flag` was given to this process (node arguments or NODE_OPTIONS). */
function hasNodeFlag(flag: string): boolean {
  const name = flag.split('=')[0];
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  return given.some((arg) => arg.split('=')[0] === name);
}

/**
 * Replaces this process with the same script and arguments plus the missing flags and environment
 * (execve: same pid and stdio); returns only where `process.execve` does not exist.
 */
function reexec(missing: readonly string[], env: Readonly<Record<string, string>>): void {
  if (typeof process.execve !== 'function') {
    console.error(
      `airwave: Node ${process.version} cannot add its V8 flags itself; start it as node ${missing.join(' ')} …`,
    );
    return;
  }
  // A `--inspect` port is for the service: free it before the new image binds it.
  closeInspector();
  const script = process.argv[1] ?? '';
  process.execve(
    process.execPath,
    [process.execPath, ...missing, ...process.execArgv, script, ...process.argv.slice(2)],
    { ...process.env, ...env },
  );
}

async function main(argv: string[]): Promise<void> {
  const { CONFIG_VARIABLES, loadConfig, ConfigError } = await import('../config/config.js');
  const { startAirwave } = await import('./start.js');
  const help = `${HELP_HINT}\nEvery flag has a matching environment variable: ${CONFIG_VARIABLES.join(', ')}.`;
  const [command = 'start', ...rest] = argv;
  if (command === '--help' || command === 'help' || rest.includes('--help')) {
    console.log(help);
    return;
  }
  if (command !== 'start') {
    throw new ConfigError(`unknown command "${command}"\n${help}`);
  }
  const config = loadConfig(process.env, rest);
  const running = await startAirwave(config);
  const lines = Object.entries(running.urls).map(([name, url]) => `  ${name.padEnd(14)} ${url}`);
  console.log(
    `Airwave is running on Node ${process.version} (data: ${config.dataDir}; database: ${running.database.label})\n${lines.join('\n')}`,
  );
  console.log(
    `AIRWAVE_READY ${JSON.stringify({ ports: running.ports, urls: running.urls, nodeId: running.node.nodeId, pid: process.pid })}`,
  );
  let stopping = false;
  const stop = (reason: string) => {
    if (stopping) {
      return;
    }
    stopping = true;
    console.log(`received ${reason}, shutting down`);
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

async function fail(error: unknown): Promise<void> {
  const { ConfigError } = await import('../config/config.js');
  const { DataDirLockedError } = await import('../db/data-dir-lock.js');
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    console.error(`airwave: ${error.message}`);
    process.exit(2);
  }
  console.error('airwave: failed to start:', error);
  process.exit(1);
}

const missing = SERVICE_NODE_FLAGS.filter((flag) => !hasNodeFlag(flag));
const missingEnv = Object.fromEntries(Object.entries(SERVICE_ENV).filter(([name]) => process.env[name] === undefined));
if (missing.length > 0 || Object.keys(missingEnv).length > 0) {
  reexec(missing, missingEnv);
}
main(process.argv.slice(2)).catch(fail);
