/**
 * Side-by-side CPU of several media servers under the same pushes (ADR 0090): every server runs at
 * once, each stream index is pushed into all of them by one `ffmpeg -re -stream_loop -1 -c copy -f tee`
 * of the bench file, and after a warm-up each window sums `/proc/<pid>/task/<tid>/schedstat` over
 * each server's whole process tree (embedded PostgreSQL included). Prints every window, per-thread
 * groups (event loop, V8 helpers, each PostgreSQL process role) and the median of the per-window
 * ratios to the first server. The host is shared and noisy, and the server started first tends to
 * read higher: compare builds in ABBA order (e.g. `new1,main1,main2,new2`).
 *
 * Usage (from the repository root, after `npm run build`; main's build from `git archive main` in
 * a scratch directory with its own `npm run build`):
 *   SBS="main1=/tmp/base/packages/server/dist/main/cli.js,new1=packages/server/dist/main/cli.js"
 *   STREAMS=1 WARM=60 WINDOW=30 WINDOWS=6 node --conditions=source --import tsx bench/side-by-side.ts
 * An entry `name=floor` runs our RTMP reader alone (bench/lib/rtmp-floor.ts) from source under tsx,
 * `name=floor-built` the same on the packages' build (`dist`, no tsx: ADR 0092), `name=floor-packaged`
 * that build with the service's always-on packagers attached (TS-HLS, CMAF: ADR 0094). Airwave runs as the
 * bench's "watched" configuration (always packaged, reads unmerged) unless SBS_ENV (JSON) overrides, for every
 * Airwave server, or SBS_ENV_<name> (JSON, over SBS_ENV) for one;
 * SBS_ARGS_<name> gives node/V8 arguments to one server (a floor too); SBS_TEE_ORDER=reverse pushes to the last server first.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { startAirwaveMedia } from './lib/airwave-server.js';
import { benchMedia } from './lib/media-file.js';
import type { MediaServerProcess } from './lib/peers.js';
import { percentile } from './lib/percentile.js';
import { machineTicks, processTree, threadCpuNs } from './lib/proc-stats.js';
import { startRtmpFloor } from './lib/rtmp-floor.js';

const entries = (process.env.SBS ?? '').split(',').map((entry) => entry.split('=') as [string, string]);
const STREAMS = Number(process.env.STREAMS ?? 1);
const WARM_S = Number(process.env.WARM ?? 60);
const WINDOW_S = Number(process.env.WINDOW ?? 30);
const WINDOWS = Number(process.env.WINDOWS ?? 6);
const ENV: Record<string, string> = {
  AIRWAVE_PACKAGING: 'always',
  AIRWAVE_RTMP_MERGED_READ_MS: '0',
  ...(JSON.parse(process.env.SBS_ENV ?? '{}') as Record<string, string>),
};

async function start(name: string, cli: string): Promise<MediaServerProcess> {
  const nodeArgs = (process.env[`SBS_ARGS_${name}`] ?? '').split(' ').filter((arg) => arg.length > 0);
  if (cli === 'floor' || cli === 'floor-built' || cli === 'floor-packaged') {
    const started = await startRtmpFloor(cli !== 'floor', nodeArgs, cli === 'floor-packaged');
    if (!started.ok) {
      throw new Error(started.reason);
    }
    return started.peer;
  }
  const env = { ...ENV, ...(JSON.parse(process.env[`SBS_ENV_${name}`] ?? '{}') as Record<string, string>) };
  return startAirwaveMedia(STREAMS, { env, name, nodeArgs, cli });
}

function read(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '?';
  }
}

/** CPU time of a server's tree in ns, grouped: `loop`, `node:<thread>`, `pg:<role>`, `other`, and `TOTAL`. */
function cpuGroups(server: MediaServerProcess): Map<string, number> {
  const main = server.mainPid ?? server.pid;
  const groups = new Map<string, number>();
  for (const [key, ns] of threadCpuNs(processTree(server.pid))) {
    const [pid, tid] = key.split('/').map(Number) as [number, number];
    let group = 'other';
    if (pid === main) {
      group = tid === pid ? 'loop' : `node:${read(`/proc/${pid}/task/${tid}/comm`).trim().replace(/\d+$/, '')}`;
    } else {
      const command = read(`/proc/${pid}/cmdline`).replaceAll('\0', ' ');
      if (command.startsWith('postgres: ')) {
        group = `pg:${command.split(' ').slice(1, 3).join(' ').trim()}`;
      }
    }
    groups.set(group, (groups.get(group) ?? 0) + ns);
    groups.set('TOTAL', (groups.get('TOTAL') ?? 0) + ns);
  }
  return groups;
}

const sleep = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));
const servers: MediaServerProcess[] = [];
const publishers: ChildProcess[] = [];
let stopping = false;
try {
  for (const [name, cli] of entries) {
    servers.push(await start(name, cli));
  }
  const { flv } = benchMedia();
  for (let index = 1; index <= STREAMS; index++) {
    const outputs = servers.map((server) => `[f=flv:onfail=ignore]${server.rtmpUrl(index)}`);
    const tee = (process.env.SBS_TEE_ORDER === 'reverse' ? outputs.reverse() : outputs).join('|');
    const args = ['-nostdin', '-v', 'error', '-re', '-stream_loop', '-1', '-i', flv, '-c', 'copy', '-map', '0'];
    const child = spawn('ffmpeg', [...args, '-f', 'tee', tee], { stdio: ['ignore', 'ignore', 'inherit'] });
    child.once('exit', () => {
      if (!stopping) {
        console.log(`publisher ${index} exited`);
      }
    });
    publishers.push(child);
  }
  console.log(
    `${servers.map((s, k) => `${entries[k]?.[0]}:${s.mainPid ?? s.pid}`).join(' ')}, ${STREAMS} streams, ${WARM_S} s warm-up`,
  );
  await sleep(WARM_S);
  const names = entries.map(([name]) => name);
  const totals = new Map<string, number[]>(names.map((name) => [name, []]));
  const parts = new Map<string, Map<string, number>>(names.map((name) => [name, new Map()]));
  for (let window = 1; window <= WINDOWS; window++) {
    const before = servers.map(cpuGroups);
    const machineBefore = machineTicks();
    const startedAt = process.hrtime.bigint();
    await sleep(WINDOW_S);
    const after = servers.map(cpuGroups);
    const machineAfter = machineTicks();
    const stolen =
      (100 * (machineAfter.steal - machineBefore.steal)) / Math.max(1, machineAfter.total - machineBefore.total);
    const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
    const row = servers.map((_, k) => {
      const name = names[k] as string;
      const sums = parts.get(name) as Map<string, number>;
      for (const [group, ns] of after[k] as Map<string, number>) {
        const percent = (ns - ((before[k] as Map<string, number>).get(group) ?? 0)) / seconds / 1e7 / STREAMS;
        sums.set(group, (sums.get(group) ?? 0) + percent / WINDOWS);
        if (group === 'TOTAL') {
          totals.get(name)?.push(percent);
        }
      }
      return `${name} ${totals.get(name)?.at(-1)?.toFixed(3)}`;
    });
    console.log(
      `window ${window} (load1 ${read('/proc/loadavg').split(' ')[0]}, ${stolen.toFixed(1)} % of the machine stolen): ${row.join('  ')}`,
    );
  }
  const first = totals.get(names[0] as string) as number[];
  for (const name of names) {
    const own = totals.get(name) as number[];
    const groups = [...(parts.get(name) as Map<string, number>)]
      .filter(([, percent]) => percent >= 0.005)
      .sort((a, b) => b[1] - a[1])
      .map(([group, percent]) => `${group} ${percent.toFixed(3)}`);
    const ratios = own.map((value, i) => value / (first[i] as number));
    console.log(
      `${name}: median ${percentile(own, 50).toFixed(3)} % of a core per stream; / ${names[0]} per window: median ` +
        `${percentile(ratios, 50).toFixed(3)} [${ratios.map((r) => r.toFixed(2)).join(' ')}]; mean by thread: ${groups.join(', ')}`,
    );
  }
} finally {
  stopping = true;
  for (const child of publishers) {
    child.kill('SIGTERM');
  }
  await Promise.all(servers.map((server) => server.stop()));
}
