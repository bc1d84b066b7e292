/**
 * Push targets (issue 19): CPU per pushed target with 1, 10 and 50 targets spread over 10 live
 * streams, for Airwave's push runner and for nginx-rtmp's own `push` directive relaying the same
 * streams (the same file, the same ffmpeg `-c copy` publishers) to the same receiver — an
 * nginx-rtmp sink — in one run, both servers live side by side. Each step is measured over
 * several windows; CPU per target is a window's CPU above the server's median 0-target CPU,
 * divided by the targets, and the table gives medians over the windows. Then a stalled receiver
 * (SIGSTOP) with one LL-HLS viewer: Airwave's CPU and the viewer's part delivery with every target
 * disabled, with them pushing, and with the receiver stopped.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AirwaveProcess, graphql, registerBenchAccount, startAirwave } from '../lib/airwave-server.js';
import { freePort, stopChild, waitForPort } from '../lib/child-process.js';
import { PartLog, PartTimingCache, runLlHlsViewer, waitForLlHls } from '../lib/llhls-viewer.js';
import { benchMedia, type Publishers, startPublishers } from '../lib/media-file.js';
import { percentile } from '../lib/percentile.js';
import { postgresBase, withScratchDatabase } from '../lib/postgres.js';
import { type CpuWindow, processTree, sampleWindow, threadCpuNs } from '../lib/proc-stats.js';

/** Section title. */
export const title = 'Push targets: CPU per pushed target vs nginx-rtmp push, and a stalled receiver';

const STREAMS = 10;
const STEPS = [0, 1, 10, 50];
const WARMUP_S = Number(process.env.BENCH_PUSH_WARMUP_S ?? 8);
const WINDOW_S = Number(process.env.BENCH_PUSH_WINDOW_S ?? 20);
const WINDOWS = Number(process.env.BENCH_PUSH_WINDOWS ?? 3);
const STALL_WINDOW_S = Number(process.env.BENCH_PUSH_STALL_WINDOW_S ?? 15);
const NGINX = '/usr/sbin/nginx';
const RTMP_MODULE = '/usr/lib/nginx/modules/ngx_rtmp_module.so';
const MIB = 2 ** 20;

interface Nginx {
  readonly child: ChildProcess;
  readonly port: number;
  readonly dir: string;
}

/** One nginx-rtmp process (master_process off) with the given applications. */
async function startNginx(applications: string): Promise<Nginx> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'airwave-bench-push-nginx-'));
  mkdirSync(join(dir, 'logs'));
  writeFileSync(
    join(dir, 'nginx.conf'),
    `load_module ${RTMP_MODULE};
daemon off;
master_process off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log info;
events { worker_connections 2048; }
rtmp { server { listen 127.0.0.1:${port}; chunk_size 4096;
${applications}
} }
`,
  );
  const child = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], {
    stdio: 'ignore',
  });
  await waitForPort(port, child);
  return { child, port, dir };
}

/** Publishes of streams named `prefix…` in an nginx error log (info level logs each `publish: name='…'`). */
function publishesLogged(nginx: Nginx, prefix: string): number {
  return (readFileSync(join(nginx.dir, 'error.log'), 'utf8').match(new RegExp(` publish: name='${prefix}`, 'g')) ?? [])
    .length;
}

/** How many push lines each stream's application has in the nginx relay, and which app stream i uses. */
function relayApp(targets: number, stream: number): string {
  if (targets === 0 || (targets === 1 && stream > 0)) {
    return 'plain';
  }
  return `p${Math.max(1, targets / STREAMS)}`;
}

function targetsOf(targets: number, stream: number): number {
  return targets === 1 ? (stream === 0 ? 1 : 0) : targets / STREAMS;
}

/** Section body: on a scratch PostgreSQL database when one answers (a faster start on a loaded machine), else PGlite. */
export async function run(): Promise<string> {
  const base = await postgresBase();
  return base ? withScratchDatabase(base, (url) => measure({ DATABASE_URL: url })) : measure({});
}

/**
 * CPU of each group over `seconds`, percent of one core, from the threads' nanosecond run times
 * (a clock tick of /proc/<pid>/stat is 10 ms: 0.05 % of a core over a 20 s window, as large as
 * nginx's whole cost of one pushed target). A thread that started in the window counts from 0.
 */
async function preciseCpu(
  groups: Readonly<Record<string, () => number[]>>,
  seconds: number,
): Promise<Record<string, number>> {
  const read = () => new Map(Object.entries(groups).map(([name, pids]) => [name, threadCpuNs(pids())]));
  const start = read();
  const startAt = performance.now();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const end = read();
  const elapsedNs = (performance.now() - startAt) * 1e6;
  const percent: Record<string, number> = {};
  for (const [name, after] of end) {
    const before = start.get(name);
    let ns = 0;
    for (const [tid, value] of after) {
      ns += value - (before?.get(tid) ?? 0);
    }
    percent[name] = (ns / elapsedNs) * 100;
  }
  return percent;
}

/** Median of values (nearest rank). */
function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** One step's windows: CPU (% of a core) and RSS (bytes) of each server. */
interface StepWindows {
  readonly airwave: number[];
  readonly nginx: number[];
  readonly airwaveRss: number[];
  readonly nginxRss: number[];
  readonly machine: number[];
}

/** A stream created in Airwave for the bench. */
interface BenchPushStream {
  readonly id: string;
  readonly streamKey: string;
  readonly playbackId: string;
}

async function measure(database: Record<string, string>): Promise<string> {
  const media = benchMedia();
  const receiver = await startNginx(
    ['live', 'n0', 'n1', 'n2', 'n3', 'n4'].map((app) => `application ${app} { live on; }`).join('\n'),
  );
  const pushes = (count: number) =>
    Array.from({ length: count }, (_, j) => `push rtmp://127.0.0.1:${receiver.port}/n${j};`).join(' ');
  const relay = await startNginx(
    [
      'application plain { live on; }',
      `application p1 { live on; ${pushes(1)} }`,
      `application p5 { live on; ${pushes(5)} }`,
    ].join('\n'),
  );
  const airwave = await startAirwave({
    ...database,
    AIRWAVE_ALLOW_PRIVATE_PUSH_TARGETS: 'true',
    AIRWAVE_PACKAGING: 'on-demand',
  });
  let airwavePublishers: Publishers | undefined;
  let nginxPublishers: Publishers | undefined;
  const out: string[] = [];
  try {
    const token = await registerBenchAccount(airwave);
    const streams: BenchPushStream[] = [];
    for (let i = 0; i < STREAMS; i++) {
      const created = (await graphql(
        airwave,
        'mutation ($n: String!) { createStream(input: { name: $n }) { ... on Stream { id streamKey playbackId } } }',
        { n: `push bench ${i}` },
        token,
      )) as { createStream: BenchPushStream };
      streams.push(created.createStream);
    }
    airwavePublishers = startPublishers(
      media.flv,
      streams.map((s) => `rtmp://127.0.0.1:${airwave.rtmpPort}/live/${s.streamKey}`),
    );
    const made = new Array<number>(STREAMS).fill(0);
    const targetIds: string[] = [];
    const steps = new Map<number, StepWindows & { readonly airwavePushing: number; readonly nginxPushed: number }>();
    for (const targets of STEPS) {
      for (let i = 0; i < STREAMS; i++) {
        while ((made[i] ?? 0) < targetsOf(targets, i)) {
          const created = (await graphql(
            airwave,
            'mutation ($s: ID!, $u: String!) { createPushTarget(streamId: $s, input: { name: "bench", targetUri: $u }) { ... on PushTarget { id } } }',
            { s: streams[i]?.id, u: `rtmp://127.0.0.1:${receiver.port}/live/a${i}_${made[i]}` },
            token,
          )) as { createPushTarget: { id?: string } };
          targetIds.push(created.createPushTarget.id ?? '');
          made[i] = (made[i] ?? 0) + 1;
        }
      }
      await nginxPublishers?.stop();
      const published = publishesLogged(receiver, 's');
      nginxPublishers = startPublishers(
        media.flv,
        streams.map((_, i) => `rtmp://127.0.0.1:${relay.port}/${relayApp(targets, i)}/s${i}`),
      );
      await new Promise((resolve) => setTimeout(resolve, WARMUP_S * 1000));
      const step: StepWindows = { airwave: [], nginx: [], airwaveRss: [], nginxRss: [], machine: [] };
      for (let w = 0; w < WINDOWS; w++) {
        const groups = { airwave: () => processTree(airwave.pid), nginx: () => processTree(relay.child.pid ?? 0) };
        const [window, cpu]: [CpuWindow, Record<string, number>] = await Promise.all([
          sampleWindow(groups, WINDOW_S),
          preciseCpu(groups, WINDOW_S),
        ]);
        step.airwave.push(cpu.airwave ?? 0);
        step.nginx.push(cpu.nginx ?? 0);
        step.airwaveRss.push(window.rss.airwave ?? 0);
        step.nginxRss.push(window.rss.nginx ?? 0);
        step.machine.push(window.machinePercent);
      }
      const statuses = await targetStatuses(airwave, token);
      steps.set(targets, {
        ...step,
        airwavePushing: statuses.filter((t) => t.status === 'pushing').length,
        nginxPushed: Math.max(0, publishesLogged(receiver, 's') - published),
      });
    }
    await nginxPublishers?.stop();
    nginxPublishers = undefined;
    out.push(...cpuTable(steps));
    out.push(
      '',
      ...(await stalledReceiver(airwave, receiver, token, streams, targetIds).catch((error: unknown) => [
        `Stalled receiver: not measured (${error instanceof Error ? error.message : String(error)}).`,
      ])),
    );
  } finally {
    await airwavePublishers?.stop();
    await nginxPublishers?.stop();
    await airwave.stop();
    await stopChild(relay.child);
    receiver.child.kill('SIGCONT');
    await stopChild(receiver.child);
    rmSync(relay.dir, { recursive: true, force: true });
    rmSync(receiver.dir, { recursive: true, force: true });
  }
  const load = loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
  out.push(
    '',
    `Load average at the end: ${load} (2 cores shared with other engineers' work: a loaded machine; read ratios, not absolutes).`,
  );
  return out.join('\n');
}

/** The CPU-per-target table: medians over each step's windows, against the 0-target medians. */
function cpuTable(
  steps: ReadonlyMap<number, StepWindows & { readonly airwavePushing: number; readonly nginxPushed: number }>,
): string[] {
  const base = steps.get(0);
  const baseAirwave = median(base?.airwave ?? [0]);
  const baseNginx = median(base?.nginx ?? [0]);
  const rows = [...steps].map(([targets, step]) => {
    const perWindow = (values: readonly number[], baseline: number) =>
      values.map((value) => (targets === 0 ? 0 : (value - baseline) / targets));
    const range = (values: readonly number[]) =>
      targets === 0 ? '' : ` (${Math.min(...values).toFixed(3)}–${Math.max(...values).toFixed(3)})`;
    const airwaveWindows = perWindow(step.airwave, baseAirwave);
    const nginxWindows = perWindow(step.nginx, baseNginx);
    const airwavePer = median(airwaveWindows);
    const nginxPer = median(nginxWindows);
    const ratio = targets > 0 && nginxPer > 0 ? `${(airwavePer / nginxPer).toFixed(2)}×` : 'n/a';
    const mib = (values: readonly number[]) => `${(median(values) / MIB).toFixed(0)} MiB`;
    return `| ${targets} | ${step.airwavePushing} | ${median(step.airwave).toFixed(1)} % | ${airwavePer.toFixed(3)} %${range(airwaveWindows)} | ${mib(step.airwaveRss)} | ${step.nginxPushed} | ${median(step.nginx).toFixed(1)} % | ${nginxPer.toFixed(3)} %${range(nginxWindows)} | ${mib(step.nginxRss)} | ${ratio} | ${median(step.machine).toFixed(0)} % |`;
  });
  return [
    `${STREAMS} streams (bench/.work source-720p30, ~3 Mb/s, \`ffmpeg -re -stream_loop -1 -c copy\`) published to Airwave and, in the same run, to an nginx-rtmp relay whose applications carry 0, 1 or 5 \`push\` lines; both push to one nginx-rtmp sink (not measured). Each step: ${WARMUP_S} s warm-up, then ${WINDOWS} windows of ${WINDOW_S} s; CPU is each server's process, percent of one core, summed over its threads' nanosecond run times (\`/proc/<pid>/task/<tid>/schedstat\`; /proc's clock ticks would quantise a window to ${(100 / (100 * WINDOW_S)).toFixed(3)} %). "Per target" is a window's CPU above the server's median 0-target CPU divided by the targets; every column is the median over the windows (in brackets the lowest and highest window), and the ratio is the two medians'. Airwave "pushing" is what \`stream.pushTargets.status\` reports; nginx "pushed" counts the receiver's new \`publish:\` log lines (the 1-target step re-publishes all relay streams, so it counts every stream's reconnect too).`,
    '',
    '| targets | Airwave pushing | Airwave CPU | Airwave CPU per target | Airwave RSS | nginx pushed | nginx CPU | nginx CPU per target | nginx RSS | Airwave/nginx per target | machine busy |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
  ];
}

/** Every push target of the account's streams with its status and counters. */
async function targetStatuses(
  airwave: AirwaveProcess,
  token: string,
): Promise<{ id: string; status: string; droppedUnits: number; lastError: string | null }[]> {
  const data = (await graphql(
    airwave,
    'query { streamsConnection(page: { first: 50 }) { nodes { pushTargets { id status droppedUnits lastError } } } }',
    {},
    token,
  )) as {
    streamsConnection: {
      nodes: { pushTargets: { id: string; status: string; droppedUnits: number; lastError: string | null }[] }[];
    };
  };
  return data.streamsConnection.nodes.flatMap((node) => node.pushTargets);
}

/** Enables or disables every target, then waits until none / all of them push. */
async function setEnabled(airwave: AirwaveProcess, token: string, ids: readonly string[], enabled: boolean) {
  for (const id of ids) {
    await graphql(
      airwave,
      'mutation ($id: ID!, $e: Boolean!) { updatePushTarget(id: $id, input: { isEnabled: $e }) { __typename } }',
      { id, e: enabled },
      token,
    );
  }
  const deadline = Date.now() + 60_000;
  for (;;) {
    const statuses = await targetStatuses(airwave, token);
    const pushing = statuses.filter((t) => t.status === 'pushing').length;
    if (enabled ? pushing === ids.length : statuses.every((t) => t.status === 'idle')) {
      return;
    }
    if (Date.now() > deadline) {
      throw new Error(`targets did not become ${enabled ? 'pushing' : 'idle'}: ${pushing} pushing`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/**
 * One LL-HLS viewer of stream 0 and Airwave's CPU in three phases: every target disabled (the
 * reference), every target pushing to the running receiver, and the receiver stopped by SIGSTOP
 * (its sockets stop reading: TCP backpressure on every push, the bounded queues drop to the next
 * keyframe, then write stalls and reconnect attempts).
 */
async function stalledReceiver(
  airwave: AirwaveProcess,
  receiver: Nginx,
  token: string,
  streams: readonly { playbackId: string }[],
  targetIds: readonly string[],
): Promise<string[]> {
  const playbackId = streams[0]?.playbackId ?? '';
  const mediaUrl = `${airwave.baseUrl}/play/${playbackId}/cmaf/video.m3u8`;
  await waitForLlHls(mediaUrl, Date.now() + 60_000);
  const phase = async (label: string) => {
    const log = new PartLog();
    const errors: string[] = [];
    const until = Date.now() + STALL_WINDOW_S * 1000;
    const [window] = await Promise.all([
      sampleWindow({ airwave: () => processTree(airwave.pid) }, STALL_WINDOW_S),
      runLlHlsViewer({
        playlistUrl: mediaUrl,
        until,
        cache: new PartTimingCache(),
        log,
        onError: (e) => errors.push(e),
      }),
    ]);
    const arrivals: number[] = [];
    for (let i = 2; i < log.values.length; i += 3) {
      arrivals.push(log.values[i] ?? 0);
    }
    const gaps = arrivals.slice(1).map((at, i) => at - (arrivals[i] ?? at));
    const statuses = await targetStatuses(airwave, token);
    const count = (status: string) => statuses.filter((t) => t.status === status).length;
    const dropped = statuses.reduce((sum, t) => sum + t.droppedUnits, 0);
    return `| ${label} | ${(window.percent.airwave ?? 0).toFixed(1)} % | ${((window.rss.airwave ?? 0) / MIB).toFixed(0)} MiB | ${log.count} | ${percentile(gaps, 50).toFixed(0)} ms | ${percentile(gaps, 95).toFixed(0)} ms | ${Math.max(0, ...gaps).toFixed(0)} ms | ${errors.length} | ${count('pushing')} / ${count('retrying') + count('failed') + count('connecting')} | ${dropped} |`;
  };
  await setEnabled(airwave, token, targetIds, false);
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const disabled = await phase('targets disabled');
  await setEnabled(airwave, token, targetIds, true);
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const running = await phase('targets pushing, receiver running');
  receiver.child.kill('SIGSTOP');
  const stoppedAt = Date.now();
  // The kernel's socket buffers take several seconds of media first: wait for the queues to drop.
  for (;;) {
    const statuses = await targetStatuses(airwave, token);
    if (statuses.some((t) => t.droppedUnits > 0 || t.status !== 'pushing') || Date.now() - stoppedAt > 120_000) {
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  const backpressureS = (Date.now() - stoppedAt) / 1000;
  const stalled = await phase('targets pushing, receiver stopped (SIGSTOP)');
  receiver.child.kill('SIGCONT');
  return [
    `Stalled receiver: Airwave keeps its ${STREAMS} streams publishing and ${targetIds.length} targets. One LL-HLS viewer (blocking reload) of stream 0 for ${STALL_WINDOW_S} s in three phases: every target disabled (the reference), every target pushing to the running receiver, and the receiver stopped by SIGSTOP (its sockets stop reading: once the kernel's socket buffers are full — the first drop was seen ${backpressureS.toFixed(0)} s after SIGSTOP, and the window starts then — the bounded per-target queues drop to the next keyframe, and after 10 s without progress a connection is cut and retried against a receiver that no longer answers). Targets and dropped units are read through \`stream.pushTargets\` at the end of each window.`,
    '',
    '| phase | Airwave CPU | Airwave RSS | parts delivered | part gap p50 | part gap p95 | part gap max | viewer errors | targets pushing / retrying or failed | units dropped (all targets) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    disabled,
    running,
    stalled,
  ];
}
