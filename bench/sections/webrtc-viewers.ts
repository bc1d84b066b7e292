/**
 * WHEP viewers per core on one stream, against the same number of LL-HLS viewers: a 720p30
 * ~3 Mb/s H.264 stream without B-frames (plus AAC, transcoded once to Opus for the WebRTC viewers)
 * published by ffmpeg over RTMP; N WHEP viewers in one Chromium page (bench/lib/whep-chromium-
 * viewers.ts) driven from a load-generator process (this file, forked with
 * AIRWAVE_BENCH_WHEP_CHILD) count the whole video frames their receivers assembled and the frames
 * that never arrived; the server's CPU (with its ffmpeg child), its RSS and the load generator's
 * CPU (Chromium included) are sampled over a window. Then N LL-HLS viewers on blocking reload.
 */
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createStreams, startAirwave } from '../lib/airwave-server.js';
import { stopChild } from '../lib/child-process.js';
import { PartLog, PartTimingCache, runLlHlsViewer, waitForLlHls } from '../lib/llhls-viewer.js';
import { benchMedia } from '../lib/media-file.js';
import { percentile } from '../lib/percentile.js';
import { processTree, sampleWindow } from '../lib/proc-stats.js';
import { type ChromiumViewersReport, ChromiumWhepViewers } from '../lib/whep-chromium-viewers.js';

/** Section title. */
export const title = 'WebRTC: WHEP viewers per core (against LL-HLS viewers)';

const COUNTS = (process.env.AIRWAVE_BENCH_WHEP_VIEWERS ?? '25,50,100').split(',').map(Number);
/** LL-HLS viewer counts to compare with (default: the WHEP counts; empty: none). */
const LLHLS_COUNTS = (process.env.AIRWAVE_BENCH_LLHLS_VIEWERS ?? COUNTS.join(','))
  .split(',')
  .filter((count) => count.length > 0)
  .map(Number);
const WINDOW_S = Number(process.env.AIRWAVE_BENCH_WHEP_WINDOW_S ?? 15);
const SETTLE_S = 6;
const FPS = 30;

/** What the load generator is told. */
interface Plan {
  readonly whepUrl: string;
  readonly viewers: number;
  /** Counting starts and stops at these Date.now() times. */
  readonly countFrom: number;
  readonly countUntil: number;
}

/** What it reports. */
type Report = ChromiumViewersReport;

/** Runs the section. */
export async function run(): Promise<string> {
  const source = benchMedia({ bFrames: false }).flv;
  const server = await startAirwave();
  const rows: string[] = [];
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
      const start = Date.now() + (3 + viewers / 25) * 1000;
      const plan: Plan = {
        whepUrl: `${base}/webrtc`,
        viewers,
        countFrom: start + SETTLE_S * 1000,
        countUntil: start + (SETTLE_S + WINDOW_S) * 1000,
      };
      const loader = fork(fileURLToPath(import.meta.url), [], {
        env: { ...process.env, AIRWAVE_BENCH_WHEP_CHILD: JSON.stringify(plan) },
        execArgv: [
          '--conditions=source',
          '--import',
          'tsx',
          ...(process.env.AIRWAVE_BENCH_LOADER_NODE_ARGS ?? '').split(' ').filter((arg) => arg.length > 0),
        ],
      });
      const report = new Promise<Report>((resolve, reject) => {
        loader.once('message', (message) => resolve(message as Report));
        loader.once('exit', (code) => reject(new Error(`load generator exited with ${code}`)));
      });
      await sleepUntil(plan.countFrom);
      const dropsBefore = udpReceiveBufferErrors();
      const window = await sampleWindow({ server: serverGroup, loader: () => processTree(loader.pid ?? 0) }, WINDOW_S);
      const kernelDrops = udpReceiveBufferErrors() - dropsBefore;
      const result = await report;
      await stopChild(loader);
      const expected = WINDOW_S * FPS;
      const frames = result.framesPerViewer;
      const missing = result.missingPerViewer;
      const whole = missing.filter((count, i) => count === 0 && (frames[i] ?? 0) >= expected - 2).length;
      const errors = Object.entries(result.errors).map(([message, count]) => `${count}× ${message}`);
      const delivery = `${result.connected}/${viewers} connected (${result.srtpCiphers.join(', ') || 'no SRTP'})${errors.length > 0 ? `, failed: ${errors.join('; ')}` : ''}; **${whole}/${viewers} got every frame**; whole frames per viewer min ${Math.min(...frames)}, median ${percentile(frames, 50)} of ~${expected}; frames missing per viewer max ${Math.max(...missing)}, total ${missing.reduce((a, b) => a + b, 0)}; Opus frames per viewer median ${percentile(result.audioFramesPerViewer, 50)}; packets lost after NACK ${result.packetsLost}, NACKs ${result.nacks}; ${kernelDrops} datagrams dropped by full socket receive buffers (kernel RcvbufErrors) in the window`;
      rows.push(
        row(
          `${viewers} WHEP`,
          viewers,
          window.percent.server ?? 0,
          window.rss.server ?? 0,
          delivery,
          idle.percent.server ?? 0,
          window.percent.loader ?? 0,
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
    `Measured on a shared, loaded machine (2 cores, other engineers' jobs running). Source: 720p30 H.264 ~3 Mb/s, no B-frames, GOP 2 s, AAC (one ffmpeg transcodes it to Opus for all WHEP viewers; its CPU is in the server column). ${WINDOW_S} s windows after ${SETTLE_S} s of settling. The WHEP load generator (one Debian Chromium page holding every viewer's RTCPeerConnection; an RTCRtpScriptTransform counts the whole frames each receiver assembled and drops them, nothing is decoded; a frame is missing when the RTP timestamps step over it) runs on the same 2 cores; its CPU is Chromium's and its driver's.`,
    '',
    '| viewers | server CPU (% of one core) | CPU per viewer | server RSS | load generator CPU | delivery |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    'SRS publishes ~2,000 WebRTC players per core (C++, one SRTP encryption per packet per viewer as here). CPU per viewer = (server CPU − publish-only CPU) / viewers.',
  ].join('\n');
}

function row(
  label: string,
  viewers: number,
  cpu: number,
  rss: number,
  delivery: string,
  idleCpu = cpu,
  loaderCpu?: number,
): string {
  const perViewer = viewers > 0 ? `${((cpu - idleCpu) / viewers).toFixed(2)} %` : '—';
  const viewersPerCore =
    viewers > 0 && cpu > idleCpu ? ` (≈ ${Math.round((100 * viewers) / (cpu - idleCpu))} viewers per core)` : '';
  return `| ${label} | ${cpu.toFixed(0)} % | ${perViewer}${viewersPerCore} | ${Math.round(rss / 2 ** 20)} MiB | ${loaderCpu === undefined ? '—' : `${loaderCpu.toFixed(0)} %`} | ${delivery} |`;
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

/** The load generator: `plan.viewers` WHEP viewers in one Chromium page, counting frames without decoding them. */
async function loadGenerator(plan: Plan): Promise<void> {
  const ramp = Math.max(0, plan.countFrom - SETTLE_S * 1000 - Date.now());
  const viewers = await ChromiumWhepViewers.start(plan.whepUrl, plan.viewers, ramp);
  await viewers.countBetween(plan.countFrom, plan.countUntil);
  await sleepUntil(plan.countUntil + 500);
  process.send?.((await viewers.report()) satisfies Report);
  await viewers.close();
  process.exit(0);
}

const childPlan = process.env.AIRWAVE_BENCH_WHEP_CHILD;
if (childPlan) {
  loadGenerator(JSON.parse(childPlan) as Plan).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
