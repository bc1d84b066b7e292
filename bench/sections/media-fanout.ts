/**
 * Viewer fan-out on one live stream: 1,000 LL-HLS viewers on blocking playlist reload (each
 * downloads every new video part) and a few progressive MP4 viewers, driven from a separate
 * load-generator process (this file, forked with AIRWAVE_BENCH_FANOUT_CHILD) over keep-alive
 * connections; then the same with 50 stalled MP4 readers (connected, never reading) added; then
 * 1,000 viewers that also request the preload-hinted part with each reload (RFC 8216bis §6.2.6).
 * Airwave runs in its own child process; our paced RTMP publisher runs here and stamps each
 * video frame's send time. A part is published when the frame after it arrives (the packager
 * closes a part on the next frame), so the delay of a part = its arrival at a viewer − the send
 * time of the frame that closed it: server ingest + packaging + delivery, stamped on the shared
 * wall clock of the machine (performance.timeOrigin + performance.now() in both processes).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { startBareHttpServer } from '../lib/bare-http-server.js';
import { type BurstResult, type BurstTarget, measureBursts } from '../lib/burst-floor.js';
import { stopChild } from '../lib/child-process.js';
import { type LivePublish, withLivePublish } from '../lib/live-publish.js';
import { benchMedia, WORK_DIR } from '../lib/media-file.js';
import { startNginxStatic } from '../lib/peers.js';
import { ms, percentile } from '../lib/percentile.js';
import { type CpuWindow, machineCell, sampleWindow } from '../lib/proc-stats.js';

/** Section title. */
export const title = 'Media: viewer fan-out (LL-HLS blocking reload and MP4 viewers on one stream)';

const LLHLS_VIEWERS = Number(process.env.BENCH_MEDIA_VIEWERS ?? 1000);
/** Viewers of the first phases, before the rest join (a load this shared machine can carry). */
const FIRST_VIEWERS = Math.min(LLHLS_VIEWERS, Number(process.env.BENCH_MEDIA_FIRST_VIEWERS ?? 100));
const MP4_VIEWERS = Number(process.env.BENCH_MEDIA_MP4_VIEWERS ?? 20);
const STALLED = Number(process.env.BENCH_MEDIA_STALLED ?? 50);
const WINDOW_S = Number(process.env.BENCH_MEDIA_FANOUT_WINDOW_S ?? 15);
/** `BENCH_FANOUT_LOADER_NODE_ARGS="--cpu-prof --cpu-prof-dir=…"` profiles the load generator. */
const LOADER_NODE_ARGS = (process.env.BENCH_FANOUT_LOADER_NODE_ARGS ?? '').split(' ').filter((arg) => arg.length > 0);
/** Measured rounds of the burst floor (after 3 warm-up rounds), 0.5 s apart. */
const BURST_ROUNDS = Number(process.env.BENCH_MEDIA_BURST_ROUNDS ?? 16);
/** Each group of viewers joins spread over this many seconds. */
export const RAMP_S = 4;
/** Seconds after the ramp (and after the stalled readers joined) before a window starts. */
export const SETTLE_S = 6;
/** 90 kHz ticks per RTMP millisecond. */
const TICKS_PER_MS = 90;

/** What the load generator is told. */
export interface LoaderPlan {
  readonly playlistUrl: string;
  /** When given, LL-HLS viewers are spread over these playlists in turn (several servers). */
  readonly playlistUrls?: readonly string[];
  readonly mp4Url: string;
  /** Groups of LL-HLS viewers, each joining over RAMP_S from its Date.now() start and leaving at `until`. */
  readonly stages: readonly {
    readonly viewers: number;
    readonly startAt: number;
    readonly until: number;
    /** The viewers request the preload-hinted part alongside each blocking reload. */
    readonly preloadHint: boolean;
  }[];
  /** MP4 viewers, joining with the first stage. */
  readonly mp4: number;
  readonly until: number;
}

/** What the load generator reports: flat number arrays to keep the message small. */
export interface LoaderReport {
  /** [end, playlistAt, partAt] per delivered part. */
  readonly parts: number[];
  /** [viewer, end, at] per delivered MP4 fragment. */
  readonly mp4: number[];
  readonly errors: number;
  readonly errorSamples: string[];
}

async function loaderMain(plan: LoaderPlan): Promise<void> {
  const { PartLog, PartTimingCache, runLlHlsViewer } = await import('../lib/llhls-viewer.js');
  const { readLiveMp4 } = await import('../lib/mp4-viewer.js');
  const cache = new PartTimingCache();
  const log = new PartLog();
  const mp4: number[] = [];
  const errorSamples: string[] = [];
  let errors = 0;
  const onError = (error: string): void => {
    errors++;
    if (errorSamples.length < 5) {
      errorSamples.push(error);
    }
  };
  const startIn = (startAt: number, index: number, count: number): Promise<void> =>
    new Promise((resolve) => setTimeout(resolve, Math.max(0, startAt - Date.now()) + (index * RAMP_S * 1000) / count));
  const firstStart = plan.stages[0]?.startAt ?? Date.now();
  const viewers = [
    ...plan.stages.flatMap((stage) =>
      Array.from({ length: stage.viewers }, async (_, i) => {
        await startIn(stage.startAt, i, stage.viewers);
        await runLlHlsViewer({
          playlistUrl: plan.playlistUrls?.[i % plan.playlistUrls.length] ?? plan.playlistUrl,
          until: stage.until,
          cache,
          log,
          onError,
          preloadHint: stage.preloadHint,
        });
      }),
    ),
    ...Array.from({ length: plan.mp4 }, async (_, i) => {
      await startIn(firstStart, i, plan.mp4);
      await readLiveMp4(plan.mp4Url, plan.until, (video, at) => {
        mp4.push(i, video.baseDecodeTime + video.durations.reduce((sum, duration) => sum + duration, 0), at);
      }).catch((error: unknown) => onError(`mp4: ${String(error)}`));
    }),
  ];
  await Promise.all(viewers);
  const report: LoaderReport = {
    parts: log.values,
    mp4,
    errors,
    errorSamples,
  };
  process.send?.(report, () => process.exit(0));
}

/** Opens a progressive MP4 request and never reads the response (a stalled viewer). */
function stalledReader(port: number, path: string): Socket {
  const socket = connect({ host: '127.0.0.1', port }, () => {
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: keep-alive\r\n\r\n`);
    socket.pause();
  });
  socket.on('error', () => undefined);
  return socket;
}

function sleepUntil(time: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, time - Date.now())));
}

/** Delays of the deliveries that arrived inside a window. */
interface PhaseDelays {
  readonly playlist: number[];
  readonly part: number[];
  readonly mp4: number[];
  /** MP4 viewers whose fragment timeline mapped onto the frames sent (a viewer that dropped does not). */
  readonly mp4Mapped: number;
  readonly viewersServed: number;
}

/** The MP4 timeline starts at 0 at the keyframe a viewer joined on: the latest keyframe mapping every fragment end to a sent frame. */
function mp4Origin(
  ends: readonly { end: number; at: number }[],
  sent: ReadonlyMap<number, number>,
  keys: readonly number[],
): number | undefined {
  let origin: number | undefined;
  for (const key of keys) {
    const ok = ends.every((item) => {
      const sentAt = sent.get(key + item.end / TICKS_PER_MS);
      return sentAt !== undefined && item.at >= sentAt;
    });
    if (ok && ends.length > 0) {
      origin = key;
    }
  }
  return origin;
}

/** The deliveries of `report` inside [from, to] and their delays against the frames sent. */
export function delaysIn(
  report: LoaderReport,
  sent: ReadonlyMap<number, number>,
  keyframes: readonly number[],
  from: number,
  to: number,
): PhaseDelays {
  const playlist: number[] = [];
  const part: number[] = [];
  let served = 0;
  for (let i = 0; i + 2 < report.parts.length; i += 3) {
    const end = report.parts[i] as number;
    const playlistAt = report.parts[i + 1] as number;
    const partAt = report.parts[i + 2] as number;
    const closedAt = sent.get(end / TICKS_PER_MS);
    if (closedAt === undefined || partAt < from || partAt > to) {
      continue;
    }
    served++;
    part.push(partAt - closedAt);
    playlist.push(playlistAt - closedAt);
  }
  const byViewer = new Map<number, { end: number; at: number }[]>();
  for (let i = 0; i + 2 < report.mp4.length; i += 3) {
    const list = byViewer.get(report.mp4[i] as number) ?? [];
    list.push({ end: report.mp4[i + 1] as number, at: report.mp4[i + 2] as number });
    byViewer.set(report.mp4[i] as number, list);
  }
  const mp4: number[] = [];
  let mp4Mapped = 0;
  for (const list of byViewer.values()) {
    const live = list.slice(1);
    const origin = mp4Origin(live, sent, keyframes);
    if (origin === undefined) {
      continue;
    }
    mp4Mapped++;
    for (const item of live) {
      const sentAt = sent.get(origin + item.end / TICKS_PER_MS);
      if (sentAt !== undefined && item.at >= from && item.at <= to) {
        mp4.push(item.at - sentAt);
      }
    }
  }
  return { playlist, part, mp4, mp4Mapped, viewersServed: served };
}

/** Server CPU milliseconds per delivered part (with its playlist reload) over a window. */
function cpuPerPart(cpu: CpuWindow, parts: number): number {
  return parts > 0 ? (((cpu.percent.server ?? 0) / 100) * cpu.seconds * 1000) / parts : Number.NaN;
}

/** `p50 / **p99**` of delays in ms, or — when there are none. */
export function p50p99(values: readonly number[]): string {
  return values.length === 0 ? '—' : `${ms(percentile(values, 50))} / **${ms(percentile(values, 99))}**`;
}

/**
 * The burst floor: the newest part of the live stream and its playlist, sent by Airwave, by a bare
 * Node server and by nginx (sendfile) to the same viewers released at once (burst-floor.ts). Airwave
 * goes first, each round with the part newest at that moment; the file servers then send the same
 * playlist and part in the same round of theirs.
 */
export async function burstFloor(
  live: LivePublish,
): Promise<{ results: BurstResult[]; skipped: string[]; partBytes: number }> {
  const playlistUrl = `${live.base}/cmaf/video.m3u8`;
  const dir = `${WORK_DIR}burst-floor-${process.pid}`;
  mkdirSync(dir, { recursive: true });
  const plan = { viewers: LLHLS_VIEWERS, rounds: BURST_ROUNDS, warmupRounds: 3, pauseMs: 500 };
  const skipped: string[] = [];
  try {
    const airwave = await measureBursts(
      [
        {
          name: 'Airwave (the live playlist and part)',
          port: live.server.httpPort,
          source: { kind: 'live', playlistPath: new URL(playlistUrl).pathname, saveDir: dir },
          pid: live.server.pid,
        },
      ],
      plan,
    );
    const parts = readdirSync(dir).filter((name) => name.endsWith('.m4s'));
    const partBytes = parts.reduce((sum, name) => sum + statSync(`${dir}/${name}`).size, 0) / parts.length;
    const bare = await startBareHttpServer(dir);
    const nginx = await startNginxStatic(dir);
    try {
      const files = { kind: 'files', dir } as const;
      const targets: BurstTarget[] = [
        { name: 'bare Node http server (files in memory)', port: bare.port, source: files, pid: bare.child.pid ?? 0 },
      ];
      if (nginx.ok) {
        targets.push({
          name: 'nginx, 1 worker, sendfile',
          port: nginx.server.port,
          source: files,
          pid: nginx.server.pid,
        });
      } else {
        skipped.push(nginx.reason);
      }
      const copies = await measureBursts(targets, plan);
      return { results: [...airwave, ...copies], skipped, partBytes };
    } finally {
      await stopChild(bare.child);
      if (nginx.ok) {
        await nginx.server.stop();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One sentence comparing the burst floor's servers with each other and with the 100 ms target. */
export function floorVerdict(results: readonly BurstResult[]): string {
  const p99 = (index: number): number => percentile(results[index]?.delays ?? [], 99);
  const [airwave, bare, nginx] = [p99(0), p99(1), p99(2)];
  const under = (value: number): string => (value < 100 ? 'under' : 'over');
  return (
    `Burst p99: Airwave ${ms(airwave)} ms, ${(airwave / bare).toFixed(2)}× the bare Node server's ${ms(bare)} ms ` +
    `(${under(bare)} 100 ms)${results[2] ? `; nginx ${ms(nginx)} ms (${under(nginx)} 100 ms)` : ''}.`
  );
}

/** Forks the load generator (this file) with `plan`; `reported` resolves with its report. */
export function startLoader(plan: LoaderPlan): { child: ChildProcess; reported: Promise<LoaderReport> } {
  const child = fork(fileURLToPath(import.meta.url), [], {
    execArgv: ['--conditions=source', '--import', 'tsx', ...LOADER_NODE_ARGS],
    env: { ...process.env, AIRWAVE_BENCH_FANOUT_CHILD: JSON.stringify(plan) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const reported = new Promise<LoaderReport>((resolve, reject) => {
    child.once('message', (message) => resolve(message as LoaderReport));
    child.once('exit', (code) => reject(new Error(`load generator exited with ${code} before reporting`)));
  });
  reported.catch(() => undefined);
  return { child, reported };
}

/** Runs both phases and returns the Markdown table. */
export async function run(): Promise<string> {
  const { flv } = benchMedia();
  return withLivePublish(flv, async (live) => {
    const { server, stream, publisher, base } = live;
    const stalled: Socket[] = [];
    let loader: ChildProcess | undefined;
    try {
      const windowMs = WINDOW_S * 1000;
      const settleMs = SETTLE_S * 1000;
      const startAt = Date.now() + 2000;
      const windowA = startAt + RAMP_S * 1000 + settleMs;
      const windowB = windowA + windowMs + settleMs;
      const secondStage = windowB + windowMs;
      const windowC = secondStage + RAMP_S * 1000 + settleMs;
      const windowD = windowC + windowMs + settleMs;
      const hintStage = windowD + windowMs + 500;
      const windowE = hintStage + RAMP_S * 1000 + settleMs;
      const until = windowE + windowMs + 500;
      const plan: LoaderPlan = {
        playlistUrl: `${base}/cmaf/video.m3u8`,
        mp4Url: `${base}.mp4`,
        stages: [
          { viewers: FIRST_VIEWERS, startAt, until: hintStage, preloadHint: false },
          { viewers: LLHLS_VIEWERS - FIRST_VIEWERS, startAt: secondStage, until: hintStage, preloadHint: false },
          { viewers: LLHLS_VIEWERS, startAt: hintStage, until, preloadHint: true },
        ],
        mp4: MP4_VIEWERS,
        until,
      };
      const started = startLoader(plan);
      loader = started.child;
      const { reported } = started;
      const groups = { server: () => [server.pid], loader: () => (loader?.pid ? [loader.pid] : []) };
      const windows: {
        name: string;
        viewers: number;
        stalled: number;
        hint: boolean;
        from: number;
        cpu: CpuWindow;
        load1: number;
      }[] = [];
      const measure = async (
        name: string,
        viewers: number,
        stalledCount: number,
        from: number,
        hint = false,
      ): Promise<void> => {
        await sleepUntil(from);
        const cpu = await sampleWindow(groups, WINDOW_S);
        windows.push({ name, viewers, stalled: stalledCount, hint, from, cpu, load1: loadavg()[0] ?? 0 });
        console.log(`${name}: server ${(cpu.percent.server ?? 0).toFixed(1)} % CPU`);
      };
      const openStalled = (): void => {
        for (let i = 0; i < STALLED; i++) {
          stalled.push(stalledReader(server.httpPort, `/play/${stream.playbackId}.mp4`));
        }
      };
      const closeStalled = (): number => {
        const open = stalled.filter((socket) => !socket.destroyed).length;
        for (const socket of stalled.splice(0)) {
          socket.destroy();
        }
        return open;
      };
      await measure(`${FIRST_VIEWERS} LL-HLS viewers`, FIRST_VIEWERS, 0, windowA);
      openStalled();
      await measure(
        `${FIRST_VIEWERS} LL-HLS viewers + ${STALLED} stalled MP4 readers`,
        FIRST_VIEWERS,
        STALLED,
        windowB,
      );
      const stalledLeftB = closeStalled();
      await measure(`${LLHLS_VIEWERS} LL-HLS viewers`, LLHLS_VIEWERS, 0, windowC);
      openStalled();
      await measure(
        `${LLHLS_VIEWERS} LL-HLS viewers + ${STALLED} stalled MP4 readers`,
        LLHLS_VIEWERS,
        STALLED,
        windowD,
      );
      const stalledLeftD = closeStalled();
      await measure(`${LLHLS_VIEWERS} LL-HLS viewers requesting the preload hint`, LLHLS_VIEWERS, 0, windowE, true);
      const report = await reported;
      const floor = await burstFloor(live);
      const floorRows = floor.results.map(
        (result) =>
          `| ${result.name} | ${result.delays.length} | ${p50p99(result.delays)} | ${ms(Math.max(...result.delays))} | ` +
          `${result.serverMs.toFixed(3)} | ${result.loaderMs.toFixed(3)} | ${result.errors}${result.errorSamples.length > 0 ? ` (${result.errorSamples.join('; ')})` : ''} |`,
      );
      const sent = publisher.videoSent;
      const results = windows.map((window) => ({
        ...window,
        delays: delaysIn(report, sent, publisher.keyframes, window.from, window.from + windowMs),
      }));
      const rows = results.map(
        ({ name, viewers, delays, cpu, load1 }) =>
          `| ${name} | ${delays.viewersServed} (${((100 * delays.viewersServed) / (viewers * WINDOW_S * 2)).toFixed(0)} %) | ` +
          `${p50p99(delays.playlist)} | ${p50p99(delays.part)} | ${p50p99(delays.mp4)} (${delays.mp4Mapped} viewers) | ` +
          `${(cpu.percent.server ?? 0).toFixed(1)} | ${(cpu.waitPercent.server ?? 0).toFixed(0)} | ` +
          `${cpuPerPart(cpu, delays.viewersServed).toFixed(3)} | ` +
          `${(cpu.percent.loader ?? 0).toFixed(1)} | ${machineCell(cpu, load1)} |`,
      );
      const fullRow = results.find(
        (result) => result.viewers === LLHLS_VIEWERS && result.stalled === 0 && !result.hint,
      );
      const hintRow = results.find((result) => result.hint);
      const hintP99 = percentile(hintRow?.delays.part ?? [], 99);
      const costMs = fullRow ? cpuPerPart(fullRow.cpu, fullRow.delays.viewersServed) : Number.NaN;
      const needed = (costMs * LLHLS_VIEWERS * 2) / 10;
      const partP99 = percentile(fullRow?.delays.part ?? [], 99);
      const ratio = (viewers: number): string => {
        const without = results.find((result) => result.viewers === viewers && result.stalled === 0 && !result.hint);
        const withStalled = results.find((result) => result.viewers === viewers && result.stalled > 0);
        return (
          `${viewers} viewers: part p99 ${ms(percentile(without?.delays.part ?? [], 99))} ms without, ` +
          `${ms(percentile(withStalled?.delays.part ?? [], 99))} ms with; MP4 p99 ${ms(percentile(without?.delays.mp4 ?? [], 99))} ` +
          `→ ${ms(percentile(withStalled?.delays.mp4 ?? [], 99))} ms`
        );
      };
      return [
        `One stream (the benchmark file, 720p30 ~3 Mb/s, 0.5 s parts) published by our paced RTMP publisher. ` +
          `LL-HLS viewers join in two groups (${FIRST_VIEWERS}, then up to ${LLHLS_VIEWERS}), each over ${RAMP_S} s; each loops: blocking reload of \`video.m3u8\` with ` +
          `\`_HLS_msn\`/\`_HLS_part\` for the next part (full playlists, no delta updates), then GET of each newly listed ` +
          `video part (audio not fetched; the part body is counted, not kept). In the last phase they are replaced by ` +
          `${LLHLS_VIEWERS} viewers that, as Apple's players do, also GET the part named by \`EXT-X-PRELOAD-HINT\` together ` +
          `with each blocking reload (a second socket each; the server holds it until the part is complete), so the part ` +
          `leaves with the playlist instead of one round trip after it. ${MP4_VIEWERS} viewers read \`/play/<id>.mp4\` throughout. All viewers run in one ` +
          `load-generator process separate from the server, over a lean HTTP/1.1 keep-alive client (one connection per viewer, ` +
          `two with the preload hint; Node's http client cost the load generator more than the server it measured) and ` +
          `sharing the parsing of identical playlist bodies (a real player parses only its own copy, on its own CPU). ` +
          `Delay = arrival at the viewer − send time of the frame that closed the part/fragment (publication time taken ` +
          `from outside, so it includes ingest and packaging, ~1 frame interval of which is the part closing itself — see ` +
          `the latency section's "closing frame" rows). Each phase is a ${WINDOW_S} s window; the ${STALLED} stalled MP4 readers ` +
          `send their request and never read, so their socket buffers fill and the server must drop for them while the ` +
          `others go on (still connected at the end of their phase: ${stalledLeftB} and ${stalledLeftD}). "parts ` +
          `delivered" counts part downloads in the window against viewers × 2 parts/s. CPU in % of one core; "waiting for a CPU" is the time the server's event-loop thread was runnable ` +
          `but not running (/proc/<pid>/schedstat run-queue delay) in % of the window — CPU starvation by the rest of the ` +
          `machine; machine busy in % of all ${cpus().length} cores summed, shared with other engineers' jobs (in brackets: of it, time the hypervisor ran other guests on our virtual CPUs — /proc/stat steal). Errors: ${report.errors}${report.errorSamples.length > 0 ? ` (${report.errorSamples.join('; ')})` : ''}.`,
        '',
        `| phase (+ ${MP4_VIEWERS} MP4 viewers) | parts delivered | playlist delay p50 / p99 ms | part delay p50 / p99 ms | MP4 fragment delay p50 / p99 ms | server CPU % | server waiting for a CPU % | server CPU ms per part delivered | load generator CPU % | machine busy % (stolen) / load1 |`,
        '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
        ...rows,
        '',
        `Target: ${LLHLS_VIEWERS} LL-HLS viewers with p99 under 100 ms — part delay p99 ${ms(partP99)} ms ` +
          `(${partP99 < 100 ? 'met' : 'missed'}); requesting the preload hint ${ms(hintP99)} ms ` +
          `(${hintP99 < 100 ? 'met' : 'missed'}). At the server CPU cost measured with ${LLHLS_VIEWERS} viewers ` +
          `(${costMs.toFixed(3)} ms per part delivered, its blocking playlist reload included, plus the MP4 viewers), ` +
          `${LLHLS_VIEWERS} viewers × 2 parts/s need ${needed.toFixed(0)} % of one core. Slow viewers: ${ratio(FIRST_VIEWERS)}; ${ratio(LLHLS_VIEWERS)}.`,
        '',
        `**Burst floor.** What the ${LLHLS_VIEWERS}-viewer burst costs without the live timing: the stream's full video ` +
          `playlist and its newest part (${(floor.partBytes / 1024).toFixed(0)} KiB on average; each round takes the part newest ` +
          `at that moment, in Airwave's memory as a just-published part is) are sent to ${LLHLS_VIEWERS} keep-alive viewers ` +
          `(the same lean client, in its own process) that are all released at one instant, each GETting the playlist and then ` +
          `the part, ${BURST_ROUNDS} rounds 0.5 s apart after 3 warm-up rounds; delay = the part's last byte at the viewer − ` +
          `the release. The same bytes (each round's playlist and part, saved) are also served from files by a bare Node http server (node:http, the files in ` +
          `memory, no other code) and by nginx (one worker, sendfile). Server CPU is per viewer and round (playlist + part), ` +
          `over the server's process tree (Airwave's includes ingesting the live stream, ~1 % of a core). ` +
          `${floor.skipped.length > 0 ? `Not run: ${floor.skipped.join('; ')}.` : ''}`,
        '',
        '| server | deliveries | delay p50 / p99 ms | max ms | server CPU ms per viewer | load generator CPU ms per viewer | errors |',
        '|---|---:|---:|---:|---:|---:|---:|',
        ...floorRows,
        '',
        floorVerdict(floor.results),
      ].join('\n');
    } finally {
      for (const socket of stalled) {
        socket.destroy();
      }
      if (loader) {
        await stopChild(loader);
      }
    }
  });
}

if (process.env.AIRWAVE_BENCH_FANOUT_CHILD) {
  loaderMain(JSON.parse(process.env.AIRWAVE_BENCH_FANOUT_CHILD) as LoaderPlan).catch((error: unknown) => {
    console.error('load generator failed:', error);
    process.exit(1);
  });
}
