/**
 * Push targets (issue 19): CPU per pushed target with 1, 10 and 50 targets spread over 10 live
 * streams, for Airwave's push runner and for nginx-rtmp's own `push` directive relaying the same
 * streams (the same file, the same ffmpeg `-c copy` publishers) to the same receiver — an
 * nginx-rtmp sink — both servers running, switched and measured together in the same windows.
 * CPU from the threads' run times in nanoseconds; 10 and 50 targets each in off/on pairs from
 * mirrored blocks of windows (per target the pairs' differences divided by the targets; Airwave ÷
 * nginx per pair, their median); 1 target is one per stream, ten switched together and divided by
 * ten (one alone is below the noise of this machine). Then a stalled receiver
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
const WARMUP_S = Number(process.env.BENCH_PUSH_WARMUP_S ?? 20);
/** Blocks of windows (each gives every step two off/on pairs), their windows, and the settling time after each switch. */
const BLOCKS = Number(process.env.BENCH_PUSH_BLOCKS ?? 3);
const PAIR_WINDOW_S = Number(process.env.BENCH_PUSH_PAIR_WINDOW_S ?? 15);
const SETTLE_S = Number(process.env.BENCH_PUSH_SETTLE_S ?? 5);
/** Targets per stream of the measured steps: 10 and 50 targets over the 10 streams. */
const PER_STREAM_STEPS = [1, 5] as const;
/**
 * The targets per stream of a block's windows, mirrored (off, 1, 5, 5, 1, off): the first half
 * pairs its off window with each step's first window, the second half its off window with each
 * step's second, so a drift of the machine across the block weighs on both sides of every step alike.
 */
const BLOCK_ORDER = [0, ...PER_STREAM_STEPS, ...[...PER_STREAM_STEPS].reverse(), 0];
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

/** The relay application stream i publishes to when `perStream` targets per stream push (0, 1 or 5). */
function relayApp(perStream: number): string {
  return perStream === 0 ? 'plain' : `p${perStream}`;
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

/** A measured step: its on windows, what pushed, and the per-target CPU of each off/on pair. */
interface MeasuredStep extends StepWindows {
  readonly airwavePushing: number;
  readonly nginxPushed: number;
  /** Per-target CPU of each off/on pair: (on − off) ÷ targets. */
  readonly perTarget: { readonly airwave: readonly number[]; readonly nginx: readonly number[] };
}

/** A step's off/on pairs: per-target CPU of each server ((on − off) ÷ targets), in the order measured. */
interface StepPairs {
  readonly airwave: number[];
  readonly nginx: number[];
}

function emptyStep(): StepWindows {
  return { airwave: [], nginx: [], airwaveRss: [], nginxRss: [], machine: [] };
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
    // Every target exists from the start (5 per stream), disabled; a step enables the first
    // `perStream` of each stream.
    const targetIds: string[][] = streams.map(() => []);
    for (let j = 0; j < Math.max(...PER_STREAM_STEPS); j++) {
      for (let i = 0; i < STREAMS; i++) {
        const created = (await graphql(
          airwave,
          'mutation ($s: ID!, $u: String!) { createPushTarget(streamId: $s, input: { name: "bench", targetUri: $u }) { ... on PushTarget { id } } }',
          { s: streams[i]?.id, u: `rtmp://127.0.0.1:${receiver.port}/live/a${i}_${j}` },
          token,
        )) as { createPushTarget: { id?: string } };
        targetIds[i]?.push(created.createPushTarget.id ?? '');
      }
    }
    const allTargets = targetIds.flat();
    await setEnabled(airwave, token, allTargets, false);
    const enabled = new Set<string>();
    const groups = { airwave: () => processTree(airwave.pid), nginx: () => processTree(relay.child.pid ?? 0) };
    const measureWindow = async (step: StepWindows, seconds: number) => {
      const [window, cpu]: [CpuWindow, Record<string, number>] = await Promise.all([
        sampleWindow(groups, seconds),
        preciseCpu(groups, seconds),
      ]);
      step.airwave.push(cpu.airwave ?? 0);
      step.nginx.push(cpu.nginx ?? 0);
      step.airwaveRss.push(window.rss.airwave ?? 0);
      step.nginxRss.push(window.rss.nginx ?? 0);
      step.machine.push(window.machinePercent);
    };
    // Both servers in the same state: Airwave's first `perStream` targets of every stream enabled
    // (the rest disabled), nginx's ten publishers re-published to the application with that many
    // `push` lines (`plain` for none). Waits until Airwave's targets push.
    const switchTo = async (perStream: number) => {
      await nginxPublishers?.stop();
      nginxPublishers = startPublishers(
        media.flv,
        streams.map((_, i) => `rtmp://127.0.0.1:${relay.port}/${relayApp(perStream)}/s${i}`),
      );
      const wanted = new Set(targetIds.flatMap((ids) => ids.slice(0, perStream)));
      await setEnabled(
        airwave,
        token,
        [...enabled].filter((id) => !wanted.has(id)),
        false,
      );
      await setEnabled(
        airwave,
        token,
        [...wanted].filter((id) => !enabled.has(id)),
        true,
      );
      enabled.clear();
      for (const id of wanted) {
        enabled.add(id);
      }
    };

    // Blocks of windows in mirrored order (BLOCK_ORDER), both servers switched together and
    // measured in the same windows: each block gives every step two off/on pairs, each pair's
    // difference divided by the targets, so the machine's drift and the servers' warm-up cancel and
    // both servers see the same machine in every pair. Switching costs both servers (nginx: ten
    // re-publishes; Airwave: API calls, connects), so every window starts SETTLE_S after its switch.
    await switchTo(0);
    await new Promise((resolve) => setTimeout(resolve, WARMUP_S * 1000));
    const windows = new Map(BLOCK_ORDER.map((perStream) => [perStream, emptyStep()]));
    const pairs = new Map<number, StepPairs>(
      PER_STREAM_STEPS.map((perStream) => [perStream, { airwave: [], nginx: [] }]),
    );
    const seen = new Map<number, { airwavePushing: number; nginxPushed: number }>();
    const half = BLOCK_ORDER.length / 2;
    for (let block = 0; block < BLOCKS; block++) {
      const at: number[] = [];
      for (const perStream of BLOCK_ORDER) {
        const step = windows.get(perStream) ?? emptyStep();
        const published = publishesLogged(receiver, 's');
        await switchTo(perStream);
        await new Promise((resolve) => setTimeout(resolve, SETTLE_S * 1000));
        await measureWindow(step, PAIR_WINDOW_S);
        at.push(step.airwave.length - 1);
        if (perStream > 0) {
          const airwavePushing = (await targetStatuses(airwave, token)).filter((t) => t.status === 'pushing').length;
          seen.set(perStream, { airwavePushing, nginxPushed: publishesLogged(receiver, 's') - published });
        }
      }
      for (const [first, last] of [
        [0, half],
        [half, BLOCK_ORDER.length],
      ] as const) {
        const offAt = BLOCK_ORDER[first] === 0 ? first : last - 1;
        const off = windows.get(0) ?? emptyStep();
        for (let position = first; position < last; position++) {
          const perStream = BLOCK_ORDER[position] ?? 0;
          const on = windows.get(perStream) ?? emptyStep();
          const step = pairs.get(perStream);
          if (perStream === 0 || !step) {
            continue;
          }
          const targets = perStream * STREAMS;
          const onAt = at[position] ?? 0;
          step.airwave.push(((on.airwave[onAt] ?? 0) - (off.airwave[at[offAt] ?? 0] ?? 0)) / targets);
          step.nginx.push(((on.nginx[onAt] ?? 0) - (off.nginx[at[offAt] ?? 0] ?? 0)) / targets);
        }
      }
    }
    const off = windows.get(0) ?? emptyStep();
    const steps = new Map<number, MeasuredStep>();
    for (const perStream of PER_STREAM_STEPS) {
      steps.set(perStream * STREAMS, {
        ...(windows.get(perStream) ?? emptyStep()),
        airwavePushing: seen.get(perStream)?.airwavePushing ?? 0,
        nginxPushed: seen.get(perStream)?.nginxPushed ?? 0,
        perTarget: pairs.get(perStream) ?? { airwave: [], nginx: [] },
      });
    }
    await nginxPublishers?.stop();
    nginxPublishers = undefined;
    out.push(...cpuTable(off, steps));
    out.push(
      '',
      ...(await stalledReceiver(airwave, receiver, token, streams, allTargets).catch((error: unknown) => [
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

/** Each pair's Airwave ÷ nginx CPU per target (both measured in the same windows). */
function pairRatios(per: MeasuredStep['perTarget']): number[] {
  return per.airwave.map((value, i) => value / (per.nginx[i] ?? Number.NaN));
}

/** The CPU-per-target table: medians of each step's on windows, of its pairs' per-target differences and of their ratios. */
function cpuTable(off: StepWindows, steps: ReadonlyMap<number, MeasuredStep>): string[] {
  const mib = (values: readonly number[]) => `${(median(values) / MIB).toFixed(0)} MiB`;
  const range = (values: readonly number[]) => ` (${Math.min(...values).toFixed(3)}–${Math.max(...values).toFixed(3)})`;
  const row = (label: string, step: StepWindows, pushing: string, pushed: string, per?: MeasuredStep['perTarget']) => {
    const cell = (values?: readonly number[]) => (values ? `${median(values).toFixed(3)} %${range(values)}` : '—');
    const ratios = per ? pairRatios(per) : [];
    const ratio = per ? `**${median(ratios).toFixed(2)}×** (${ratios.map((r) => r.toFixed(2)).join(', ')})` : 'n/a';
    return `| ${label} | ${pushing} | ${median(step.airwave).toFixed(1)} % | ${cell(per?.airwave)} | ${mib(step.airwaveRss)} | ${pushed} | ${median(step.nginx).toFixed(1)} % | ${cell(per?.nginx)} | ${mib(step.nginxRss)} | ${ratio} | ${median(step.machine).toFixed(0)} % |`;
  };
  const rows = [row('0', off, '0', '0')];
  for (const [targets, step] of steps) {
    const pushing = String(step.airwavePushing);
    const pushed = String(step.nginxPushed);
    if (targets === STREAMS) {
      rows.push(row(`1 (×${STREAMS}: one per stream)`, step, pushing, pushed, step.perTarget));
    }
    rows.push(row(String(targets), step, pushing, pushed, step.perTarget));
  }
  const pairs = BLOCKS * 2;
  return [
    `${STREAMS} streams (bench/.work source-720p30, ~3 Mb/s, \`ffmpeg -re -stream_loop -1 -c copy\`) published to Airwave and, at the same time, to an nginx-rtmp relay whose applications carry 0, 1 or 5 \`push\` lines; both push to one nginx-rtmp sink (not measured). CPU is each server's process, percent of one core, summed over its threads' nanosecond run times (\`/proc/<pid>/task/<tid>/schedstat\`). Side by side: both servers are switched together and measured in the same ${PAIR_WINDOW_S} s windows, each ${SETTLE_S} s after its switch, in ${BLOCKS} blocks of windows in mirrored order (off, 10, 50, 50, 10, off targets), so every step has ${pairs} off/on pairs and both servers see the same machine in each. Off = no target pushing (Airwave: every target disabled through the API; nginx: the ten publishers re-published to the application without \`push\`), on = the step's targets (Airwave: the first 1 or 5 targets of every stream enabled; nginx: the ten re-published to the application with 1 or 5 \`push\` lines). Per target is a pair's on − off difference divided by the targets (median of the pairs, in brackets the lowest and highest); **Airwave/nginx is the median of the pairs' own ratios** (each pair's Airwave difference ÷ nginx's in the same windows; every pair's ratio in brackets). One target alone costs about 0.05 % of a core, below what pairs of one target resolve on this shared machine: the 1-target row is one target on each of the ${STREAMS} streams switched together, divided by ${STREAMS} — the same pairs as the ${STREAMS}-target row. Airwave "pushing" is what \`stream.pushTargets.status\` reports; nginx "pushed" counts the receiver's new \`publish:\` log lines from the switch to the end of the step's last on window. The 0-target row shows the off windows (medians).`,
    '',
    '| targets | Airwave pushing | Airwave CPU | Airwave CPU per target | Airwave RSS | nginx pushed | nginx CPU | nginx CPU per target | nginx RSS | Airwave/nginx per target (median of pairs; each pair) | machine busy |',
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

/** Enables or disables the targets `ids`, then waits until all of them push / are idle. */
async function setEnabled(airwave: AirwaveProcess, token: string, ids: readonly string[], enabled: boolean) {
  for (const id of ids) {
    await graphql(
      airwave,
      'mutation ($id: ID!, $e: Boolean!) { updatePushTarget(id: $id, input: { isEnabled: $e }) { __typename } }',
      { id, e: enabled },
      token,
    );
  }
  const wanted = new Set(ids);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const statuses = (await targetStatuses(airwave, token)).filter((t) => wanted.has(t.id));
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
