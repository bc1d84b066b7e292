/**
 * Starts the real Airwave service as deployed — the BUILT `packages/server/dist/main/cli.js start`
 * (built once per benchmark run with `tsc -b`, as `npm run build` does), not through tsx — as a
 * child process on ephemeral ports with a fresh data directory, and creates streams through its
 * GraphQL API.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { stopChild } from './child-process.js';
import type { MediaServerProcess } from './peers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = fileURLToPath(new URL('../../packages/server/dist/main/cli.js', import.meta.url));
/** `AIRWAVE_BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=…"` profiles the server in any section. */
const EXTRA_NODE_ARGS = (process.env.AIRWAVE_BENCH_NODE_ARGS ?? '').split(' ').filter((arg) => arg.length > 0);
let built = false;

/** Runs `npm run build` (`tsc -b packages/media packages/server`, incremental) once per benchmark process. */
function buildOnce(): void {
  if (built) {
    return;
  }
  const tsc = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));
  try {
    execFileSync(process.execPath, [tsc, '-b', 'packages/media', 'packages/server'], { cwd: ROOT, stdio: 'inherit' });
  } catch (error) {
    // tsc -b still emits when it reports type errors (work in progress elsewhere in the tree).
    if (!existsSync(CLI)) {
      throw error;
    }
    console.warn(`bench: the build reported errors; running the ${CLI} it emitted`);
  }
  built = true;
}

/** A running Airwave child process. */
export interface AirwaveProcess {
  /** The Node process running the service (`airwave start` re-executes itself in place with its V8 flags). */
  readonly pid: number;
  /** The process the benchmark started: root of the service's process tree (the same pid, its database below it). */
  readonly rootPid: number;
  readonly httpPort: number;
  readonly rtmpPort: number;
  /** SRT listener port (0 when the build reports none). */
  readonly srtPort: number;
  /** Base URL, `http://127.0.0.1:<port>`. */
  readonly baseUrl: string;
  /** Stops the process (SIGTERM, then SIGKILL) and removes its data directory. */
  stop(): Promise<void>;
}

/** One stream created for a benchmark. */
export interface BenchStream {
  readonly streamKey: string;
  readonly playbackId: string;
  /** `rtmp://127.0.0.1:<port>/live/<streamKey>`. */
  readonly rtmpUrl: string;
}

/**
 * Builds, then starts `dist/main/cli.js start` with AIRWAVE_* overrides and resolves once it printed
 * AIRWAVE_READY; `nodeArgs` go to node before the script (e.g. `--cpu-prof` to see where the time goes).
 * `cli` runs another build instead (e.g. main's, for a side-by-side comparison; not built here).
 */
export async function startAirwave(
  env: Record<string, string> = {},
  nodeArgs: readonly string[] = [],
  cli: string = CLI,
): Promise<AirwaveProcess> {
  if (cli === CLI) {
    buildOnce();
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'airwave-bench-media-'));
  const child = spawn(process.execPath, [...nodeArgs, ...EXTRA_NODE_ARGS, cli, 'start'], {
    env: {
      ...process.env,
      AIRWAVE_HOST: '127.0.0.1',
      AIRWAVE_HTTP_PORT: '0',
      AIRWAVE_RTMP_PORT: '0',
      AIRWAVE_SRT_PORT: '0',
      AIRWAVE_DATA_DIR: dataDir,
      AIRWAVE_LOG_LEVEL: 'warn',
      AIRWAVE_API_RATE_LIMIT: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const ready = await readyLine(child);
    const ports = ready.ports;
    return {
      pid: ready.pid ?? child.pid ?? 0,
      rootPid: child.pid ?? 0,
      httpPort: ports.http,
      rtmpPort: ports.rtmp,
      srtPort: ports.srt ?? 0,
      baseUrl: `http://127.0.0.1:${ports.http}`,
      stop: async () => {
        await stopChild(child);
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await stopChild(child);
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** What the AIRWAVE_READY line carries that the benchmark uses. */
interface ReadyLine {
  readonly ports: { readonly http: number; readonly rtmp: number; readonly srt?: number };
  /** The service process (absent from older builds). */
  readonly pid?: number;
}

function readyLine(child: ChildProcess): Promise<ReadyLine> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    const timer = setTimeout(() => reject(new Error('airwave did not print AIRWAVE_READY within 60 s')), 60_000);
    lines.on('line', (line) => {
      if (line.startsWith('AIRWAVE_READY ')) {
        clearTimeout(timer);
        resolve(JSON.parse(line.slice('AIRWAVE_READY '.length)) as ReadyLine);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`airwave exited with ${code} before it was ready`));
    });
  });
}

/** POSTs a GraphQL document to the server; throws when it answers errors. */
export async function graphql(
  server: AirwaveProcess,
  query: string,
  variables: object,
  token?: string,
): Promise<unknown> {
  const response = await fetch(`${server.baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: Record<string, unknown>; errors?: unknown };
  if (!body.data || body.errors) {
    throw new Error(`GraphQL failed: ${JSON.stringify(body)}`);
  }
  return body.data;
}

/** Registers an account through GraphQL (`register`); returns its session token. */
export async function registerBenchAccount(server: AirwaveProcess): Promise<string> {
  const registered = (await graphql(
    server,
    'mutation ($input: RegisterInput!) { register(input: $input) { ... on AuthPayload { token } } }',
    { input: { email: `bench-media-${Date.now()}@example.test`, password: 'benchmark password' } },
  )) as { register?: { token?: string } };
  const token = registered.register?.token;
  if (!token) {
    throw new Error('register returned no token');
  }
  return token;
}

/** Registers an account and creates `count` streams through GraphQL (`register`, `createStream`). */
export async function createStreams(server: AirwaveProcess, count: number): Promise<BenchStream[]> {
  const token = await registerBenchAccount(server);
  const streams: BenchStream[] = [];
  for (let i = 0; i < count; i++) {
    const created = (await graphql(
      server,
      'mutation ($name: String!) { createStream(input: { name: $name }) { ... on Stream { streamKey playbackId } } }',
      { name: `media bench ${i}` },
      token,
    )) as { createStream?: { streamKey?: string; playbackId?: string } };
    const { streamKey, playbackId } = created.createStream ?? {};
    if (!streamKey || !playbackId) {
      throw new Error(`createStream returned ${JSON.stringify(created)}`);
    }
    streams.push({ streamKey, playbackId, rtmpUrl: `rtmp://127.0.0.1:${server.rtmpPort}/live/${streamKey}` });
  }
  return streams;
}

/** How `startAirwaveMedia` runs the server. */
export interface AirwaveMediaOptions {
  /** AIRWAVE_* overrides, e.g. `{ AIRWAVE_PACKAGING: 'always' }`. */
  readonly env?: Record<string, string>;
  /** Name in reports (default `Airwave`). */
  readonly name?: string;
  /** Node/V8 arguments before the script (e.g. a V8 flag to compare). */
  readonly nodeArgs?: readonly string[];
  /** Path of another build's `dist/main/cli.js` to run (default: this tree's, built first). */
  readonly cli?: string;
}

/**
 * Airwave with `count` streams created, as a media server under test (stream `index` from 1).
 * With on-demand packaging (the default, unless `env` sets AIRWAVE_PACKAGING=always) `verify` only
 * checks that the hub has the streams live (networkStatus), since fetching a playlist would start
 * that stream's packagers; `verifyAfter` fetches the playlists once the measurement is over.
 */
export async function startAirwaveMedia(count: number, options: AirwaveMediaOptions = {}): Promise<MediaServerProcess> {
  const env = options.env ?? {};
  const server = await startAirwave(env, options.nodeArgs, options.cli);
  try {
    const streams = await createStreams(server, count);
    const streamAt = (index: number): BenchStream => {
      const stream = streams[index - 1];
      if (!stream) {
        throw new RangeError(`only ${count} streams were created, asked for ${index}`);
      }
      return stream;
    };
    const name = options.name ?? 'Airwave';
    const verifyPlayback = async (index: number): Promise<string | undefined> => {
      const base = `${server.baseUrl}/play/${streamAt(index).playbackId}`;
      const failed: string[] = [];
      for (const path of ['/hls/index.m3u8', '/cmaf/video.m3u8', '/cmaf/index.mpd']) {
        const response = await fetch(`${base}${path}`);
        await response.arrayBuffer();
        if (response.status !== 200) {
          failed.push(`${path} answered ${response.status}`);
        }
      }
      return failed.length > 0 ? `${name} stream ${index}: ${failed.join(', ')}` : undefined;
    };
    const verifyLive = async (index: number): Promise<string | undefined> => {
      const data = (await graphql(server, '{ networkStatus { clusters { currentStreams } } }', {})) as {
        networkStatus?: { clusters?: { currentStreams?: number }[] };
      };
      const live = data.networkStatus?.clusters?.[0]?.currentStreams ?? 0;
      return live >= index ? undefined : `${name}: ${live} streams live, expected at least ${index}`;
    };
    const memory = async (): Promise<Record<string, number>> => {
      const text = await (await fetch(`${server.baseUrl}/metrics`)).text();
      const out: Record<string, number> = {};
      for (const match of text.matchAll(/^airwave_memory_bytes\{purpose="([a-z_0-9]+)"\} (\S+)$/gm)) {
        out[match[1] as string] = Number(match[2]);
      }
      return out;
    };
    const onDemand = (env.AIRWAVE_PACKAGING ?? process.env.AIRWAVE_PACKAGING ?? 'on-demand') === 'on-demand';
    return {
      name,
      pid: server.rootPid,
      mainPid: server.pid,
      rtmpUrl: (index) => streamAt(index).rtmpUrl,
      verify: onDemand ? verifyLive : verifyPlayback,
      memory,
      ...(onDemand ? { verifyAfter: (index: number) => retryFor(10_000, () => verifyPlayback(index)) } : {}),
      stop: () => server.stop(),
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** Repeats `check` once a second until it passes or `ms` have passed; returns its last problem. */
async function retryFor(ms: number, check: () => Promise<string | undefined>): Promise<string | undefined> {
  const deadline = Date.now() + ms;
  for (;;) {
    const problem = await check();
    if (problem === undefined || Date.now() >= deadline) {
      return problem;
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}
