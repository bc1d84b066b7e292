/**
 * The burst a part publication sends through a server, reproduced without waiting for one: many
 * keep-alive viewers each GET a playlist and then a part, all released at the same instant, round
 * after round; the delay of a viewer is the arrival of its part's last byte − the release. Run
 * against Airwave and against servers that do nothing but send the same bytes (a bare Node
 * server, nginx with sendfile), it shows how much of the fan-out delay is the product and how
 * much the runtime and the machine. The viewers run in a child process (forked from this file) so
 * that, as in the fan-out phases, the load generator has its own event loop.
 *
 * Each round asks a live server for the part that is newest at that moment (as the viewers of a
 * part publication do) and saves that round's playlist and part, which the file servers then send
 * in the same round of theirs: a fixed part would age out of the live window (answered 404) and,
 * before that, be served from the spool file instead of memory.
 */
import { fork } from 'node:child_process';
import { statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { stopChild } from './child-process.js';
import { KeepAliveConnection } from './keep-alive-client.js';
import { listedParts } from './llhls-viewer.js';
import { wallNow } from './paced-publisher.js';
import { CLOCK_TICKS, cpuTicks, processTree } from './proc-stats.js';

/** Where the playlist and part of each round come from. */
export type BurstSource =
  /** A live LL-HLS server: its media playlist and the newest part it lists, saved as round files into `saveDir`. */
  | { readonly kind: 'live'; readonly playlistPath: string; readonly saveDir: string }
  /** A file server of `dir` (a live source's `saveDir`): `/round-<i>.m3u8` and `/round-<i>.m4s`. */
  | { readonly kind: 'files'; readonly dir: string };

/** A server to send the burst through. */
export interface BurstTarget {
  readonly name: string;
  readonly port: number;
  readonly source: BurstSource;
  /** Root PID of the server's process tree (its CPU is summed over the tree). */
  readonly pid: number;
}

/** The requests of one round. */
interface Round {
  readonly playlistPath: string;
  readonly partPath: string;
  /** Bytes the part must have. */
  readonly partBytes: number;
}

/** Name of the file a round's playlist (`m3u8`) or part (`m4s`) is saved as. */
export function roundFile(index: number, extension: 'm3u8' | 'm4s'): string {
  return `round-${index}.${extension}`;
}

/** What the bursts through one target measured. */
export interface BurstResult {
  readonly name: string;
  /** Delay of every viewer in every measured round, ms. */
  readonly delays: number[];
  /** Server CPU per viewer and round (playlist + part), ms. */
  readonly serverMs: number;
  /** Load generator CPU per viewer and round, ms. */
  readonly loaderMs: number;
  /** Failed or wrong responses, and the first few of them. */
  readonly errors: number;
  readonly errorSamples: string[];
}

/** Burst shape: viewers, measured rounds (after warm-up rounds) and the pause between rounds. */
export interface BurstPlan {
  readonly viewers: number;
  readonly rounds: number;
  readonly warmupRounds: number;
  readonly pauseMs: number;
}

/** Sends the bursts through each target in turn, from a child process; resolves with one result per target. */
export async function measureBursts(targets: readonly BurstTarget[], plan: BurstPlan): Promise<BurstResult[]> {
  const child = fork(fileURLToPath(import.meta.url), [], {
    execArgv: ['--conditions=source', '--import', 'tsx'],
    env: { ...process.env, AIRWAVE_BENCH_BURST_CHILD: JSON.stringify({ targets, plan }) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    return await new Promise<BurstResult[]>((resolve, reject) => {
      child.once('message', (message) => resolve(message as BurstResult[]));
      child.once('exit', (code) => reject(new Error(`burst load generator exited with ${code} before reporting`)));
    });
  } finally {
    await stopChild(child);
  }
}

function treeTicks(pid: number): number {
  return processTree(pid).reduce((sum, member) => sum + (cpuTicks(member) ?? 0), 0);
}

/** The newest part of a live server's playlist, fetched once and saved with the playlist as round `index`. */
async function liveRound(
  probe: KeepAliveConnection,
  source: { readonly playlistPath: string; readonly saveDir: string },
  index: number,
): Promise<Round> {
  const playlist = await probe.get(source.playlistPath);
  const newest = listedParts(playlist.body.toString('utf8')).at(-1);
  if (playlist.status !== 200 || !newest) {
    throw new Error(`${source.playlistPath} answered ${playlist.status} listing no part`);
  }
  const url = new URL(newest.uri, `http://server${source.playlistPath}`);
  const partPath = `${url.pathname}${url.search}`;
  const part = await probe.get(partPath);
  if (part.status !== 200) {
    throw new Error(`${partPath} answered ${part.status}`);
  }
  writeFileSync(`${source.saveDir}/${roundFile(index, 'm3u8')}`, playlist.body);
  writeFileSync(`${source.saveDir}/${roundFile(index, 'm4s')}`, part.body);
  return { playlistPath: source.playlistPath, partPath, partBytes: part.length };
}

/** Round `index` of a file server: the files a live source saved for it. */
function fileRound(dir: string, index: number): Round {
  const part = roundFile(index, 'm4s');
  return {
    playlistPath: `/${roundFile(index, 'm3u8')}`,
    partPath: `/${part}`,
    partBytes: statSync(`${dir}/${part}`).size,
  };
}

async function burstsThrough(target: BurstTarget, plan: BurstPlan): Promise<BurstResult> {
  const connections = Array.from({ length: plan.viewers }, () => new KeepAliveConnection('127.0.0.1', target.port));
  const probe = new KeepAliveConnection('127.0.0.1', target.port);
  const source = target.source;
  const delays: number[] = [];
  const errors: string[] = [];
  let index = 0;
  const round = async (record: boolean): Promise<void> => {
    const { playlistPath, partPath, partBytes } =
      source.kind === 'live' ? await liveRound(probe, source, index) : fileRound(source.dir, index);
    index++;
    const releasedAt = wallNow();
    await Promise.all(
      connections.map(async (connection) => {
        try {
          const playlist = await connection.get(playlistPath, 0);
          const part = await connection.get(partPath, 0);
          if (playlist.status !== 200 || part.status !== 200 || part.length !== partBytes) {
            errors.push(`playlist ${playlist.status}, part ${part.status} with ${part.length} bytes`);
          } else if (record) {
            delays.push(part.at - releasedAt);
          }
        } catch (error) {
          errors.push(String(error));
        }
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, plan.pauseMs));
  };
  try {
    for (let i = 0; i < plan.warmupRounds; i++) {
      await round(false);
    }
    const serverBefore = treeTicks(target.pid);
    const loaderBefore = process.cpuUsage();
    for (let i = 0; i < plan.rounds; i++) {
      await round(true);
    }
    const loader = process.cpuUsage(loaderBefore);
    const served = plan.viewers * plan.rounds;
    return {
      name: target.name,
      delays,
      serverMs: (((treeTicks(target.pid) - serverBefore) / CLOCK_TICKS) * 1000) / served,
      loaderMs: (loader.user + loader.system) / 1000 / served,
      errors: errors.length,
      errorSamples: errors.slice(0, 3),
    };
  } finally {
    probe.close();
    for (const connection of connections) {
      connection.close();
    }
  }
}

async function childMain(targets: readonly BurstTarget[], plan: BurstPlan): Promise<void> {
  const results: BurstResult[] = [];
  for (const target of targets) {
    results.push(await burstsThrough(target, plan));
  }
  process.send?.(results, () => process.exit(0));
}

if (process.env.AIRWAVE_BENCH_BURST_CHILD) {
  const { targets, plan } = JSON.parse(process.env.AIRWAVE_BENCH_BURST_CHILD) as {
    targets: BurstTarget[];
    plan: BurstPlan;
  };
  childMain(targets, plan).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
