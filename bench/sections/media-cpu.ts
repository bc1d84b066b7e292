/**
 * Media CPU and memory per passthrough stream at 1, 10 and 50 streams: Airwave twice — as shipped
 * (on-demand packaging: with no viewer no packager runs) and with AIRWAVE_PACKAGING=always (TS-HLS
 * + CMAF for LL-HLS/DASH for every stream) — nginx-rtmp (HLS + DASH) and Node-Media-Server
 * (RTMP/FLV), one after the other in the same run, each fed by the same `ffmpeg -re -stream_loop -1
 * -c copy` pushes of one pre-encoded 720p30 file. CPU is read from /proc/<pid>/stat over the
 * server's process tree (nginx master + worker), excluding the ffmpeg publishers, which are
 * measured apart; for Node servers also the main thread alone (/proc/<pid>/task/<pid>/stat).
 */
import { loadavg } from 'node:os';
import { startAirwaveMedia } from '../lib/airwave-server.js';
import { benchMedia, startPublishers } from '../lib/media-file.js';
import { type MediaServerProcess, type PeerStart, startNginxRtmp, startNodeMediaServer } from '../lib/peers.js';
import {
  type CpuWindow,
  machineCell,
  mainThread,
  processTree,
  pssBytes,
  sampleWindow,
  treeMemory,
} from '../lib/proc-stats.js';
import { startRtmpFloor } from '../lib/rtmp-floor.js';

/** Section title. */
export const title = 'Media: CPU and memory per passthrough stream (Airwave vs nginx-rtmp vs Node-Media-Server)';

const STEPS = (process.env.BENCH_MEDIA_STREAMS ?? '1,10,50').split(',').map(Number);
const WARMUP_S = Number(process.env.BENCH_MEDIA_WARMUP_S ?? 8);
/**
 * Warm-up before the first step. At one stream the hot functions of a Node server are called a few
 * hundred times a second, so V8 keeps optimizing them for the first minute or two: perf showed
 * 20 % of Airwave's CPU at one stream in V8's optimizing compiler 10–25 s after the first publish,
 * 14 % at 70–85 s (`--trace-opt`: ~100 compilations of 1–9 ms each in 90 s). That is a cost per
 * process, not per stream; the later steps start hot.
 */
const FIRST_WARMUP_S = Number(process.env.BENCH_MEDIA_FIRST_WARMUP_S ?? 90);
const WINDOW_S = Number(process.env.BENCH_MEDIA_WINDOW_S ?? 30);
/**
 * Window of the first step. At one stream a server uses 0.3–1.5 % of a core: 30 s were 9–18 clock
 * ticks of /proc CPU time, so one tick of rounding at either end moved the figure by 5–10 %.
 */
const FIRST_WINDOW_S = Number(process.env.BENCH_MEDIA_FIRST_WINDOW_S ?? 90);
/**
 * Short names of the servers in run order; `BENCH_MEDIA_SERVERS=always,nginx` measures only those (while iterating).
 * `floor` (our RTMP reader alone, ADR 0080) runs only when named.
 */
const SERVER_KEYS = ['on-demand', 'always', 'watched', 'nginx', 'nms', 'floor'] as const;
const OPT_IN_KEYS: readonly string[] = ['floor'];
const ONLY = process.env.BENCH_MEDIA_SERVERS?.split(',');

/** One measured step of one server. */
interface Step {
  readonly streams: number;
  readonly window: CpuWindow;
  readonly load1: number;
  readonly failedPublishers: number;
  readonly problems: readonly string[];
  /** The server's own memory breakdown by purpose at the end of the window (Airwave), bytes. */
  readonly memory?: Readonly<Record<string, number>>;
}

/** Memory of a server's whole process tree with no stream, bytes. */
interface IdleMemory {
  readonly rss: number;
  readonly pss: number;
  readonly processes: number;
  /** PSS of the main process alone (for Airwave: the service; the rest is its embedded database). */
  readonly mainPss: number;
  /** The server's own breakdown by purpose (Airwave). */
  readonly breakdown?: Readonly<Record<string, number>>;
}

/** Everything measured for one server. */
interface ServerResult {
  readonly name: string;
  readonly idleRss: number;
  readonly idleMemory?: IdleMemory;
  /** CPU % of the server with no stream (timers, database). */
  readonly idleCpu: number;
  readonly steps: readonly Step[];
  /** Problem found by the check run after the last window (undefined: passed or none). */
  readonly afterProblem?: string;
  /** Whether an after-measurement check ran. */
  readonly afterChecked?: boolean;
  readonly skipped?: string;
}

/** A server to measure; `threads`: a Node process, whose main thread is measured apart. */
interface Contender {
  readonly name: string;
  readonly start: () => Promise<PeerStart>;
  readonly threads: boolean;
}

const MIB = 2 ** 20;

async function measureServer(contender: Contender, file: string): Promise<ServerResult> {
  const { name, start } = contender;
  const started = await start().catch((error: unknown) => ({ ok: false as const, reason: String(error) }));
  if (!started.ok) {
    console.log(`${name}: not measured: ${started.reason}`);
    return { name, idleRss: 0, idleCpu: 0, steps: [], skipped: started.reason };
  }
  const server: MediaServerProcess = started.peer;
  const publishers = startPublishers(file);
  const steps: Step[] = [];
  try {
    const idle = await sampleWindow({ server: () => processTree(server.pid) }, 3);
    const idleTree = treeMemory(server.pid);
    const breakdown = await server.memory?.();
    const idleMemory: IdleMemory = {
      ...idleTree,
      mainPss: pssBytes(server.mainPid ?? server.pid),
      ...(breakdown ? { breakdown } : {}),
    };
    for (const streams of STEPS) {
      const have = steps.at(-1)?.streams ?? 0;
      publishers.add(Array.from({ length: streams - have }, (_, i) => server.rtmpUrl(have + i + 1)));
      await sleep((have === 0 ? FIRST_WARMUP_S : WARMUP_S) * 1000);
      const window = await sampleWindow(
        {
          server: () => processTree(server.pid),
          publishers: () => publishers.pids(),
          ...(contender.threads ? { main: () => mainThread(server.mainPid ?? server.pid) } : {}),
        },
        have === 0 ? FIRST_WINDOW_S : WINDOW_S,
      );
      const problems = (await Promise.all([server.verify(1), server.verify(streams)])).filter(
        (problem): problem is string => problem !== undefined,
      );
      const memory = await server.memory?.();
      const step: Step = {
        streams,
        window,
        load1: loadavg()[0] ?? 0,
        failedPublishers: publishers.failed(),
        problems: [...new Set(problems)],
        ...(memory ? { memory } : {}),
      };
      steps.push(step);
      console.log(
        `${server.name} ${streams} streams: server ${fmt(window.percent.server)} % CPU` +
          `${contender.threads ? ` (main thread ${fmt(window.percent.main)})` : ''}, ` +
          `${fmt((window.rss.server ?? 0) / MIB)} MiB; publishers ${fmt(window.percent.publishers)} %; ` +
          `machine ${fmt(window.machinePercent)} %; ${problems.join('; ')}`,
      );
    }
    const last = steps.at(-1)?.streams ?? 1;
    const afterProblem = server.verifyAfter ? await server.verifyAfter(last) : undefined;
    return {
      name: server.name,
      idleRss: idle.rss.server ?? 0,
      idleMemory,
      idleCpu: idle.percent.server ?? 0,
      steps,
      afterChecked: server.verifyAfter !== undefined,
      ...(afterProblem === undefined ? {} : { afterProblem }),
    };
  } finally {
    await publishers.stop();
    await server.stop();
  }
}

function fmt(value: number | undefined, digits = 1): string {
  return value === undefined || !Number.isFinite(value) ? '—' : value.toFixed(digits);
}

const mib = (bytes: number | undefined, digits = 1): string =>
  fmt(bytes === undefined ? undefined : bytes / MIB, digits);

/**
 * The memory tables: each server's idle process tree (PSS and RSS, Airwave's breakdown by purpose),
 * then memory per stream at each step — the tree's growth over idle divided by the streams, and for
 * Airwave what its stores hold per stream, by purpose (its `airwave_memory_bytes` metric).
 */
function memoryReport(results: readonly ServerResult[]): string[] {
  const idleRows = results.flatMap((result) => {
    const idle = result.idleMemory;
    if (!idle) {
      return [];
    }
    const b = idle.breakdown;
    const database = b ? (b.database_in_process ?? 0) + (idle.pss - idle.mainPss) : undefined;
    return [
      `| ${result.name} | ${idle.processes} | **${mib(idle.pss)}** | ${mib(idle.rss)} | ` +
        `${b ? `${mib(b.v8_heap_used)} / ${mib(b.v8_heap_total)}` : '—'} | ${mib(b?.array_buffers)} | ` +
        `${mib(b?.external)} | ${b ? `${mib(database)} (${mib(b.database_in_process)} in process, ${mib(idle.pss - idle.mainPss)} PSS in ${idle.processes - 1} processes)` : '—'} |`,
    ];
  });
  const perStreamRows = results.flatMap((result) => {
    const idle = result.idleMemory;
    if (!idle) {
      return [];
    }
    return result.steps.map((step) => {
      const per = (bytes: number | undefined) => (bytes === undefined ? undefined : bytes / step.streams);
      const rssGrowth = (step.window.rss.server ?? 0) - idle.rss;
      const pssGrowth = (step.window.pss.server ?? 0) - idle.pss;
      const m = step.memory;
      const held = m
        ? (m.media_history ?? 0) + (m.media_gop_cache ?? 0) + (m.media_ts_window ?? 0) + (m.media_cmaf_window ?? 0)
        : undefined;
      const heapGrowth = m ? (m.v8_heap_total ?? 0) - (idle.breakdown?.v8_heap_total ?? 0) : undefined;
      const rest = held === undefined || heapGrowth === undefined ? undefined : rssGrowth - held - heapGrowth;
      return (
        `| ${result.name} | ${step.streams} | **${mib(per(pssGrowth), 2)}** | ${mib(per(rssGrowth), 2)} | ` +
        `${mib(per(m?.media_history), 2)} | ${mib(per(m?.media_gop_cache), 2)} | ${mib(per(m?.media_ts_window), 2)} | ` +
        `${mib(per(m?.media_cmaf_window), 2)} | ${mib(per(heapGrowth), 2)} | ${mib(per(rest), 2)} |`
      );
    });
  });
  return [
    `Idle memory of each server's whole process tree, no stream, in the same run (PSS summed over the tree, so ` +
      `shared pages count once; RSS beside it). Airwave runs as \`dist/main/cli.js start\` — \`npm start\` adds npm ` +
      `itself above it (measured apart: ~27 MiB PSS / ~67 MiB RSS). Airwave's breakdown is its \`airwave_memory_bytes\` ` +
      `metric (process.memoryUsage() and the database's WASM memory), read just after the tree.`,
    '',
    '| server | processes | idle PSS MiB | idle RSS MiB | V8 heap used / total MiB | ArrayBuffers MiB | external MiB | database MiB |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...idleRows,
    '',
    `Memory per stream: growth of the tree's PSS and RSS over idle, divided by the streams; then what Airwave's ` +
      `stores hold per stream, by purpose — priming history (kept for on-demand packagers), GOP cache, TS-HLS window, ` +
      `CMAF window (LL-HLS parts + DASH) — the growth of V8's heap, and the rest of the RSS growth (memory freed but ` +
      `not yet returned or collected, allocator slack, socket buffers).`,
    '',
    '| server | streams | PSS per stream MiB | RSS per stream MiB | history | GOP cache | TS window | CMAF window | V8 heap growth | rest |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...perStreamRows,
  ];
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function perStream(step: Step | undefined): number | undefined {
  return step ? (step.window.percent.server ?? 0) / step.streams : undefined;
}

/** Main-thread / other-threads CPU % of a Node server's step, or a dash for other servers. */
function threadSplit(step: Step): string {
  const main = step.window.percent.main;
  if (main === undefined) {
    return '—';
  }
  return `${fmt(main)} / ${fmt((step.window.percent.server ?? 0) - main)}`;
}

const ON_DEMAND = 'Airwave (default: on-demand packaging, no viewer)';
const ALWAYS = 'Airwave (AIRWAVE_PACKAGING=always)';
const ALWAYS_UNMERGED = 'Airwave (AIRWAVE_PACKAGING=always, AIRWAVE_RTMP_MERGED_READ_MS=0: read as when watched)';

/** Runs the five configurations one after the other and returns the Markdown tables. */
export async function run(): Promise<string> {
  const { mp4 } = benchMedia();
  const count = Math.max(...STEPS);
  const airwave = (name: string, env: Record<string, string>): Contender => ({
    name,
    start: async () => ({ ok: true, peer: await startAirwaveMedia(count, { env, name }) }),
    threads: true,
  });
  const contenders: Contender[] = [
    airwave(ON_DEMAND, { AIRWAVE_PACKAGING: 'on-demand' }),
    airwave(ALWAYS, { AIRWAVE_PACKAGING: 'always' }),
    airwave(ALWAYS_UNMERGED, { AIRWAVE_PACKAGING: 'always', AIRWAVE_RTMP_MERGED_READ_MS: '0' }),
    { name: 'nginx-rtmp', start: startNginxRtmp, threads: false },
    { name: 'Node-Media-Server', start: startNodeMediaServer, threads: true },
    { name: 'Airwave RTMP reader alone (floor)', start: startRtmpFloor, threads: true },
  ];
  const results: ServerResult[] = [];
  for (const [index, contender] of contenders.entries()) {
    const key = SERVER_KEYS[index] as string;
    results.push(
      (ONLY === undefined && !OPT_IN_KEYS.includes(key)) || ONLY?.includes(key)
        ? await measureServer(contender, mp4)
        : { name: contender.name, idleRss: 0, idleCpu: 0, steps: [], skipped: `left out (BENCH_MEDIA_SERVERS)` },
    );
  }
  const [onDemand, always, alwaysUnmerged, nginx, nms, floor] = results;
  const rows: string[] = [];
  for (const result of results) {
    if (result.skipped) {
      rows.push(`| ${result.name} | not measured: ${result.skipped} | | | | | | | | | |`);
      continue;
    }
    for (const step of result.steps) {
      const isLast = step === result.steps.at(-1);
      const notes = [
        ...(step.failedPublishers > 0 ? [`${step.failedPublishers} ffmpeg publishers exited`] : []),
        ...step.problems,
        ...(isLast && result.afterProblem ? [`after the windows: ${result.afterProblem}`] : []),
      ];
      const passed = result.afterChecked
        ? `streams live; after the last window its playlists answered (packagers started on request)`
        : 'outputs checked';
      rows.push(
        `| ${result.name} | ${step.streams} | ${fmt(step.window.percent.server)} | **${fmt(perStream(step), 2)}** | ` +
          `${threadSplit(step)} | ` +
          `${fmt((step.window.rss.server ?? 0) / MIB)} (idle ${fmt(result.idleRss / MIB)}) | ${fmt(result.idleCpu)} | ` +
          `${fmt(step.window.percent.publishers)} | ${fmt(step.window.waitPercent.server, 0)} | ` +
          `${machineCell(step.window, step.load1)} | ` +
          `${notes.join('; ') || (isLast || !result.afterChecked ? passed : 'streams live')} |`,
      );
    }
  }
  const ratioRows = STEPS.map((streams) => {
    const at = (result: ServerResult | undefined) => perStream(result?.steps.find((step) => step.streams === streams));
    /** `ours` / `peer` per stream, against `target` (none: a reference, e.g. the floor). */
    const ratio = (ours: ServerResult | undefined, peer: ServerResult | undefined, target?: number): string => {
      const mine = at(ours);
      const theirs = at(peer);
      if (mine === undefined || theirs === undefined || theirs === 0) {
        return `— (${peer?.skipped ? 'peer not measured' : 'no data'})`;
      }
      const value = mine / theirs;
      if (target === undefined) {
        return `**${fmt(value, 2)}×**`;
      }
      return `**${fmt(value, 2)}×** ${value <= target ? '(target met)' : `(target ≤ ${target}× missed)`}`;
    };
    return (
      `| ${streams} | ${ratio(onDemand, nginx, 1)} | ${ratio(onDemand, nms, 0.5)} | ` +
      `${ratio(always, nginx, 1)} | ${ratio(always, nms, 0.5)} | ${ratio(alwaysUnmerged, nginx, 1)} | ` +
      `${ratio(floor, nginx)} |`
    );
  });
  const memoryTables = memoryReport(results);
  return [
    ...memoryTables,
    '',
    `Same file for every server: 720p30 H.264 High (GOP 60, ~3 Mb/s) + AAC 128 kb/s, 20 s, pushed in a loop by ` +
      `\`ffmpeg -re -stream_loop -1 -i file -c copy -f flv rtmp://…\` per stream. Servers run one after the other; ` +
      `streams are added in steps (${STEPS.join(' → ')}), each step measured over ${WINDOW_S} s (the first over ` +
      `${FIRST_WINDOW_S} s, so that one stream's CPU is more than a few clock ticks) after ${WARMUP_S} s of ` +
      `warm-up (${FIRST_WARMUP_S} s before the first step: at one stream V8 was still optimizing the Node servers' hot ` +
      `functions for the first minute or two — perf: 20 % of Airwave's CPU in the optimizing compiler 10–25 s after the ` +
      `first publish, 14 % at 70–85 s — a cost per process, not per stream; nginx has none). CPU = user + system time of the server's process tree from /proc/<pid>/stat (nginx: master + worker; ` +
      `Airwave: the built \`dist/main/cli.js start\`, which re-executes itself in place with its V8 flags — one ` +
      `process, plus its database when embedded, see packages/server/src/main/cli.ts), in % of one core; RSS = VmRSS summed over the tree at the end of ` +
      `the window. Airwave is measured three times. **${ON_DEMAND}** is the product as shipped: packagers start on the ` +
      `first viewer request and no viewer asks during the windows, so it only ingests (RTMP → hub), like ` +
      `Node-Media-Server, which only relays RTMP/FLV. **${ALWAYS}** packages every stream into TS-HLS and CMAF ` +
      `(LL-HLS parts + DASH) from publish on — the like-for-like comparison with nginx-rtmp, which writes HLS + DASH ` +
      `files (2 s fragments) whether or not anyone watches. In both, no viewer watches, so each publisher is read ` +
      `once per 100 ms (merged reads, \`AIRWAVE_RTMP_MERGED_READ_MS\`, ADR 0007; a stream with a viewer is read as ` +
      `bytes arrive). **${ALWAYS_UNMERGED}** shows what every packager costs when reads are not merged, as for a ` +
      `watched stream. With \`BENCH_MEDIA_SERVERS=floor,…\` also **our RTMP reader alone** (ADR 0080: RTMP server ` +
      `and hub in a process of their own, no packager, database or HTTP server, reads not merged): the floor of ` +
      `Node ingest, so the watched configuration's excess over it is the service's own work. ` +
      `After each window one stream's outputs are checked: nginx ` +
      `files, NMS HTTP-FLV, Airwave (always) playlists; Airwave (on-demand) only that the streams are live ` +
      `(networkStatus), since a playlist request would start its packagers — its playlists are fetched once after ` +
      `its last window.`,
    '',
    '| server | streams | server CPU % | CPU % per stream | of which main thread / other threads % | RSS MiB | idle CPU % (no stream) | ffmpeg publishers CPU % | server waiting for a CPU % | machine busy % (stolen) / load1 | notes |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...rows,
    '',
    'CPU per stream, Airwave relative to each peer (targets: ≤ 1.0× nginx-rtmp, ≤ 0.5× Node-Media-Server). ' +
      'Like for like: on-demand (no viewer, ingest only) vs Node-Media-Server (relay only); always (all packagers) ' +
      'vs nginx-rtmp (HLS + DASH files):',
    '',
    '| streams | on-demand / nginx-rtmp | on-demand / Node-Media-Server | always / nginx-rtmp | always / Node-Media-Server | always, reads unmerged / nginx-rtmp | reader alone (floor) / nginx-rtmp |',
    '|---:|---:|---:|---:|---:|---:|---:|',
    ...ratioRows,
    '',
    `"main thread / other threads" splits a Node server's CPU (Airwave, Node-Media-Server) into its event loop ` +
      `(/proc/<pid>/task/<pid>/stat) and everything else — mostly V8's garbage-collector and compiler helper ` +
      `threads, plus libuv's pool; nginx has no such split (—). ` +
      `"machine busy" is all CPU used on the machine during the window (200 % = both cores), including the ffmpeg ` +
      `publishers and other engineers' jobs sharing these 2 cores (in brackets: of it, time the hypervisor ran other guests on our virtual CPUs — /proc/stat steal); "server waiting for a CPU" is the run-queue delay of ` +
      `the server's main thread (/proc/<pid>/schedstat) in % of the window. CPU time is what the server consumed, so ` +
      `it is comparable under load, but a starved server also batches more work per wake-up, which flatters it.`,
  ].join('\n');
}
