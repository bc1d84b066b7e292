/**
 * WHEP viewers per core on one stream, against the same number of LL-HLS viewers: a 720p30
 * ~3 Mb/s H.264 stream without B-frames (plus AAC, transcoded once to Opus for the WebRTC viewers)
 * published by ffmpeg over RTMP; N WHEP viewers: most of them light werift viewers that count RTP
 * headers (bench/lib/whep-light-viewers.ts, ADR 0064) spread over a few load-generator processes,
 * and a few in a Chromium page (bench/lib/whep-chromium-viewers.ts) whose receivers assemble whole
 * frames; each load generator is this file forked with AIRWAVE_BENCH_WHEP_CHILD. The server's
 * CPU (with its ffmpeg child), its RSS and each generator's CPU are sampled over a window. Then N
 * LL-HLS viewers on blocking reload.
 */
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createStreams, startAirwave } from '../lib/airwave-server.js';
import { stopChild } from '../lib/child-process.js';
import { PartLog, PartTimingCache, runLlHlsViewer, waitForLlHls } from '../lib/llhls-viewer.js';
import { benchMedia } from '../lib/media-file.js';
import { percentile } from '../lib/percentile.js';
import { processTree, sampleWindow } from '../lib/proc-stats.js';
import { type ChromiumViewersReport, ChromiumWhepViewers } from '../lib/whep-chromium-viewers.js';
import { type LightViewersReport, LightWhepViewers } from '../lib/whep-light-viewers.js';

/** Section title. */
export const title = 'WebRTC: WHEP viewers per core (against LL-HLS viewers)';

const COUNTS = (process.env.AIRWAVE_BENCH_WHEP_VIEWERS ?? '50,100').split(',').map(Number);
/** Viewers of each run held by Chromium (decoding-grade receivers); the rest are light viewers. */
const CHROMIUM_VIEWERS = Number(process.env.AIRWAVE_BENCH_WHEP_CHROMIUM ?? 5);
/** Processes the light viewers are spread over. */
const LIGHT_PROCESSES = Number(process.env.AIRWAVE_BENCH_WHEP_LIGHT_PROCESSES ?? 2);
/** Light viewers authenticate one packet in this many of each stream. */
const AUTHENTICATE_EVERY = Number(process.env.AIRWAVE_BENCH_WHEP_AUTH_EVERY ?? 16);
/** Viewers join one after another, this far apart (ms). */
const RAMP_MS_PER_VIEWER = Number(process.env.AIRWAVE_BENCH_WHEP_RAMP_MS ?? 100);
/** LL-HLS viewer counts to compare with (default: the WHEP counts; empty: none). */
const LLHLS_COUNTS = (process.env.AIRWAVE_BENCH_LLHLS_VIEWERS ?? COUNTS.join(','))
  .split(',')
  .filter((count) => count.length > 0)
  .map(Number);
const WINDOW_S = Number(process.env.AIRWAVE_BENCH_WHEP_WINDOW_S ?? 15);
const SETTLE_S = 6;
const FPS = 30;

/** What a load generator is told. */
interface Plan {
  readonly kind: 'light' | 'chromium';
  readonly whepUrl: string;
  readonly viewers: number;
  /** Its viewers join over this long from its start. */
  readonly rampMs: number;
  /** Counting starts and stops at these Date.now() times. */
  readonly countFrom: number;
  readonly countUntil: number;
}

/** What it reports. */
type Report = ({ kind: 'light' } & LightViewersReport) | ({ kind: 'chromium' } & ChromiumViewersReport);

/** Runs the section. */
export async function run(): Promise<string> {
  const source = benchMedia({ bFrames: false }).flv;
  const server = await startAirwave();
  const rows: string[] = [];
  const load = [loadavg()[0] ?? 0];
  let ffmpeg: ChildProcess | undefined;
  try {
    const [stream] = await createStreams(server, 1);
    if (!stream) {
      throw new Error('no stream');
    }
    ffmpeg = spawn(
      'ffmpeg',
      ['-v', 'error', '-re', '-stream_loop', '-1', '-i', source, '-c', 'copy', '-f', 'flv', stream.rtmpUrl],
      {
        stdio: 'ignore',
      },
    );
    const base = `${server.baseUrl}/play/${stream.playbackId}`;
    await waitForLlHls(`${base}/cmaf/video.m3u8`, Date.now() + 30_000);
    const serverGroup = () => processTree(server.pid);
    const idle = await sampleWindow({ server: serverGroup }, 5);
    rows.push(row('none (publish only)', 0, idle.percent.server ?? 0, idle.rss.server ?? 0, '—'));
    for (const viewers of COUNTS) {
      const chromium = Math.min(CHROMIUM_VIEWERS, viewers);
      const light = splitEvenly(viewers - chromium, LIGHT_PROCESSES);
      const rampMs = viewers * RAMP_MS_PER_VIEWER;
      const countFrom = Date.now() + 3000 + rampMs + SETTLE_S * 1000;
      const window = { countFrom, countUntil: countFrom + WINDOW_S * 1000 };
      const whepUrl = `${base}/webrtc`;
      const lightLoaders = light.map((count) =>
        forkLoader({ kind: 'light', whepUrl, viewers: count, rampMs, ...window }),
      );
      const chromiumLoader =
        chromium > 0 ? forkLoader({ kind: 'chromium', whepUrl, viewers: chromium, rampMs, ...window }) : undefined;
      const loaders = [...lightLoaders, ...(chromiumLoader ? [chromiumLoader] : [])];
      await sleepUntil(countFrom);
      const dropsBefore = udpReceiveBufferErrors();
      const sampled = await sampleWindow(
        {
          server: serverGroup,
          light: () => lightLoaders.flatMap((loader) => processTree(loader.child.pid ?? 0)),
          chromium: () => (chromiumLoader ? processTree(chromiumLoader.child.pid ?? 0) : []),
        },
        WINDOW_S,
      );
      const kernelDrops = udpReceiveBufferErrors() - dropsBefore;
      const reports = await Promise.all(loaders.map((loader) => loader.report));
      await Promise.all(loaders.map((loader) => stopChild(loader.child)));
      load.push(loadavg()[0] ?? 0);
      const lightReports = reports.flatMap((report) => (report.kind === 'light' ? [report] : []));
      const chromiumReport = reports.find((report) => report.kind === 'chromium');
      rows.push(
        row(
          `${viewers} WHEP (${viewers - chromium} light + ${chromium} Chromium)`,
          viewers,
          sampled.percent.server ?? 0,
          sampled.rss.server ?? 0,
          delivery(viewers, lightReports, chromiumReport, kernelDrops),
          idle.percent.server ?? 0,
          generatorCpu(sampled.percent.light ?? 0, viewers - chromium, sampled.percent.chromium ?? 0, chromium),
        ),
      );
      await new Promise((resolve) => setTimeout(resolve, 8000));
    }
    for (const viewers of LLHLS_COUNTS) {
      const until = Date.now() + (SETTLE_S + WINDOW_S + 2) * 1000;
      const cache = new PartTimingCache();
      const logs = Array.from({ length: viewers }, () => new PartLog());
      let errors = 0;
      const running = logs.map((log) =>
        runLlHlsViewer({ playlistUrl: `${base}/cmaf/video.m3u8`, until, cache, log, onError: () => errors++ }),
      );
      await new Promise((resolve) => setTimeout(resolve, SETTLE_S * 1000));
      for (const log of logs) {
        log.clear();
      }
      const window = await sampleWindow({ server: serverGroup }, WINDOW_S);
      const parts = logs.map((log) => log.count);
      await Promise.all(running);
      rows.push(
        row(
          `${viewers} LL-HLS (in this process)`,
          viewers,
          window.percent.server ?? 0,
          window.rss.server ?? 0,
          `parts per viewer min ${Math.min(...parts)}, median ${percentile(parts, 50)}; ${errors} errors`,
          idle.percent.server ?? 0,
        ),
      );
    }
  } finally {
    if (ffmpeg) {
      await stopChild(ffmpeg);
    }
    await server.stop();
  }
  return [
    `Measured on a shared, loaded machine (2 cores, other engineers' jobs running): 1-minute load average ${load.map((l) => l.toFixed(1)).join(' → ')} (before, after each WHEP run). Source: 720p30 H.264 ~3 Mb/s, no B-frames, GOP 2 s, AAC (one ffmpeg transcodes it to Opus for all WHEP viewers; its CPU is in the server column). ${WINDOW_S} s windows after ${SETTLE_S} s of settling; viewers join ${RAMP_MS_PER_VIEWER} ms apart. Two kinds of WHEP viewer, on the same 2 cores: **light** viewers (werift peers in ${LIGHT_PROCESSES} Node processes: real WHEP POST, ICE, DTLS-SRTP and RTCP receiver reports; RTP counted from the headers SRTP leaves in clear, one packet in ${AUTHENTICATE_EVERY} of each stream authenticated and decrypted with the session keys; no NACKs, so a lost packet stays lost) and **Chromium** viewers (Debian Chromium, one page; an RTCRtpScriptTransform counts the whole frames each receiver assembled, nothing is decoded; a frame is missing when the RTP timestamps step over it).`,
    '',
    "| viewers | server CPU (% of one core) | CPU per viewer | server RSS | load generators' CPU | delivery |",
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    'SRS publishes ~2,000 WebRTC players per core (C++, one SRTP encryption per packet per viewer as here). CPU per viewer = (server CPU − publish-only CPU) / viewers. "Every frame": no damaged or missing frame, no packet lost, and at least the best viewer\'s count − 3 whole frames.',
  ].join('\n');
}

/** A forked load generator and the report it will send. */
function forkLoader(plan: Plan): { child: ChildProcess; report: Promise<Report> } {
  const child = fork(fileURLToPath(import.meta.url), [], {
    env: { ...process.env, AIRWAVE_BENCH_WHEP_CHILD: JSON.stringify(plan) },
    execArgv: [
      '--conditions=source',
      '--import',
      'tsx',
      ...(process.env.AIRWAVE_BENCH_LOADER_NODE_ARGS ?? '').split(' ').filter((arg) => arg.length > 0),
    ],
  });
  const report = new Promise<Report>((resolve, reject) => {
    child.once('message', (message) => resolve(message as Report));
    child.once('exit', (code) => reject(new Error(`load generator exited with ${code}`)));
  });
  return { child, report };
}

/** `total` split into `parts` counts differing by at most one (empty parts left out). */
function splitEvenly(total: number, parts: number): number[] {
  return Array.from({ length: parts }, (_, i) => Math.floor(total / parts) + (i < total % parts ? 1 : 0)).filter(
    (count) => count > 0,
  );
}

function generatorCpu(lightCpu: number, light: number, chromiumCpu: number, chromium: number): string {
  const per = (cpu: number, count: number) => (count > 0 ? ` (${(cpu / count).toFixed(2)} % per viewer)` : '');
  return `light ${lightCpu.toFixed(0)} %${per(lightCpu, light)}; Chromium ${chromiumCpu.toFixed(0)} %${per(chromiumCpu, chromium)}`;
}

/** The delivery column: who connected, who got every frame, what was lost. */
function delivery(
  viewers: number,
  light: readonly LightViewersReport[],
  chromium: ChromiumViewersReport | undefined,
  kernelDrops: number,
): string {
  const frames = light.flatMap((report) => report.framesPerViewer);
  const chromiumFrames = chromium?.framesPerViewer ?? [];
  const best = Math.max(0, ...frames, ...chromiumFrames);
  const expected = WINDOW_S * FPS;
  const damaged = light.flatMap((report) => report.damagedPerViewer);
  const lost = light.flatMap((report) => report.lostPerViewer);
  const lightWhole = frames.filter((count, i) => count >= best - 3 && damaged[i] === 0 && lost[i] === 0).length;
  const chromiumWhole = chromiumFrames.filter(
    (count, i) => count >= best - 3 && (chromium?.missingPerViewer[i] ?? 1) === 0,
  ).length;
  const errors: Record<string, number> = {};
  for (const report of [...light, ...(chromium ? [chromium] : [])]) {
    for (const [message, count] of Object.entries(report.errors)) {
      errors[message] = (errors[message] ?? 0) + count;
    }
  }
  const failed = Object.entries(errors).map(([message, count]) => `${count}× ${message}`);
  const connectMs = light.flatMap((report) => report.connectMs);
  const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
  const stats = (values: readonly number[]) =>
    values.length > 0 ? `min ${Math.min(...values)}, median ${percentile(values, 50)}` : 'none';
  const parts = [
    `**${lightWhole + chromiumWhole}/${viewers} got every frame**`,
    `light: ${sum(light.map((r) => r.connected))}/${frames.length} connected (${[...new Set(light.flatMap((r) => r.srtpProfiles))].join(', ') || 'no SRTP'}; connect time median ${Math.round(percentile(connectMs, 50))} ms, max ${Math.round(Math.max(0, ...connectMs))} ms), ${lightWhole} every frame; whole video frames per viewer ${stats(frames)} of ~${expected}; damaged frames ${sum(damaged)}, packets lost ${sum(lost)} (video ${sum(light.flatMap((r) => r.lostVideoPerViewer))}; no NACK); Opus frames per viewer median ${percentile(
      light.flatMap((r) => r.audioFramesPerViewer),
      50,
    )}; ${sum(light.map((r) => r.authenticated))} sampled packets authenticated, ${sum(light.map((r) => r.authFailures))} failed${
      light.some((r) => r.authFailureSamples.length > 0)
        ? ` (${light
            .flatMap((r) => r.authFailureSamples)
            .slice(0, 2)
            .join('; ')})`
        : ''
    }`,
  ];
  if (chromium) {
    parts.push(
      `Chromium: ${chromium.connected}/${chromiumFrames.length} connected (${chromium.srtpCiphers.join(', ') || 'no SRTP'}), ${chromiumWhole} every frame; whole frames per viewer ${stats(chromiumFrames)}; frames missing ${sum(chromium.missingPerViewer)}; packets lost after NACK ${chromium.packetsLost}, NACKs ${chromium.nacks}`,
    );
  }
  parts.push(`${kernelDrops} datagrams dropped by full socket receive buffers (kernel RcvbufErrors)`);
  if (failed.length > 0) {
    parts.push(`failed: ${failed.join('; ')}`);
  }
  return parts.join('; ');
}

function row(
  label: string,
  viewers: number,
  cpu: number,
  rss: number,
  delivery: string,
  idleCpu = cpu,
  loaderCpu?: string,
): string {
  const perViewer = viewers > 0 ? `${((cpu - idleCpu) / viewers).toFixed(2)} %` : '—';
  const viewersPerCore =
    viewers > 0 && cpu > idleCpu ? ` (≈ ${Math.round((100 * viewers) / (cpu - idleCpu))} viewers per core)` : '';
  return `| ${label} | ${cpu.toFixed(0)} % | ${perViewer}${viewersPerCore} | ${Math.round(rss / 2 ** 20)} MiB | ${loaderCpu ?? '—'} | ${delivery} |`;
}

/** The machine's count of UDP datagrams dropped because a socket's receive buffer was full. */
function udpReceiveBufferErrors(): number {
  const lines = readFileSync('/proc/net/snmp', 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('Udp:'));
  const names = lines[0]?.split(/\s+/) ?? [];
  const values = lines[1]?.split(/\s+/) ?? [];
  return Number(values[names.indexOf('RcvbufErrors')] ?? 0);
}

function sleepUntil(at: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));
}

/** A load generator: `plan.viewers` WHEP viewers of one kind, counting frames without decoding them. */
async function loadGenerator(plan: Plan): Promise<void> {
  const startedAt = Date.now();
  if (plan.kind === 'light') {
    const viewers = LightWhepViewers.start(plan.whepUrl, plan.viewers, plan.rampMs, {
      authenticateEvery: AUTHENTICATE_EVERY,
    });
    await viewers.countBetween(plan.countFrom, plan.countUntil);
    process.send?.({ kind: 'light', ...viewers.report() } satisfies Report);
    await viewers.close();
  } else {
    const ramp = Math.max(0, plan.rampMs - (Date.now() - startedAt));
    const viewers = await ChromiumWhepViewers.start(plan.whepUrl, plan.viewers, ramp);
    await viewers.countBetween(plan.countFrom, plan.countUntil);
    await sleepUntil(plan.countUntil + 500);
    process.send?.({ kind: 'chromium', ...(await viewers.report()) } satisfies Report);
    await viewers.close();
  }
  process.exit(0);
}

const childPlan = process.env.AIRWAVE_BENCH_WHEP_CHILD;
if (childPlan) {
  loadGenerator(JSON.parse(childPlan) as Plan).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
