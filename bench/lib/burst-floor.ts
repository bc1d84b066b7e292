/**
 * The burst a part publication sends through a server, reproduced without waiting for one: many
 * keep-alive viewers each GET a playlist and then a part, all released at the same instant, round
 * after round; the delay of a viewer is the arrival of its part's last byte − the release. Run
 * against Airwave and against servers that do nothing but send the same bytes (a bare Node
 * server, nginx with sendfile), it shows how much of the fan-out delay is the product and how
 * much the runtime and the machine. The viewers run in a child process (forked from this file) so
 * that, as in the fan-out phases, the load generator has its own event loop.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { stopChild } from './child-process.js';
import { KeepAliveConnection } from './keep-alive-client.js';
import { wallNow } from './paced-publisher.js';
import { CLOCK_TICKS, cpuTicks, processTree } from './proc-stats.js';

/** A server to send the burst through. */
export interface BurstTarget {
  readonly name: string;
  readonly port: number;
  /** Path (and query) of the playlist each viewer GETs first. */
  readonly playlistPath: string;
  /** Path of the part each viewer GETs next. */
  readonly partPath: string;
  /** Bytes the part must have. */
  readonly partBytes: number;
  /** Root PID of the server's process tree (its CPU is summed over the tree). */
  readonly pid: number;
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

async function burstsThrough(target: BurstTarget, plan: BurstPlan): Promise<BurstResult> {
  const connections = Array.from({ length: plan.viewers }, () => new KeepAliveConnection('127.0.0.1', target.port));
  const delays: number[] = [];
  const errors: string[] = [];
  const round = async (record: boolean): Promise<void> => {
    const releasedAt = wallNow();
    await Promise.all(
      connections.map(async (connection) => {
        try {
          const playlist = await connection.get(target.playlistPath, 0);
          const part = await connection.get(target.partPath, 0);
          if (playlist.status !== 200 || part.status !== 200 || part.length !== target.partBytes) {
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
