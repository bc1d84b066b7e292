/**
 * Memory per stream over a long run (issue 3 item 6): one stream pushed FAST — ffmpeg
 * `-stream_loop -1 -i <file> -c copy -f flv` without `-re`, so many minutes of media flow in a few
 * minutes of wall time — first with 2 LL-HLS viewers on blocking reload and 1 progressive MP4
 * viewer, then with no viewer; every SAMPLE_S of wall time the server's heap used and
 * ArrayBuffer bytes after a full GC (through its inspector, see bench/lib/heap-probe.ts) and its
 * RSS are sampled, and the slope over the second half of the run is given per media hour. The
 * same fast push into nginx-rtmp (HLS + DASH) gives its RSS for comparison. Durations (wall s):
 * BENCH_SOAK_S (with viewers, 180), BENCH_SOAK_BARE_S (no viewer, 120), BENCH_SOAK_PEER_S (nginx-rtmp,
 * 60, 0 skips it); BENCH_SOAK_READRATE=<n> paces ffmpeg with `-readrate <n>` instead of full speed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { Agent } from 'node:http';
import { createInterface } from 'node:readline';
import { createStreams, startAirwave } from '../lib/airwave-server.js';
import { freePort, stopChild } from '../lib/child-process.js';
import { type HeapProbe, openHeapProbe } from '../lib/heap-probe.js';
import { PartLog, PartTimingCache, runLlHlsViewer, waitForLlHls } from '../lib/llhls-viewer.js';
import { benchMedia } from '../lib/media-file.js';
import { readLiveMp4 } from '../lib/mp4-viewer.js';
import { startNginxRtmp } from '../lib/peers.js';
import { processTree, rssBytes } from '../lib/proc-stats.js';

/** Section title. */
export const title = 'Media: memory per stream over a long run (fast-push soak)';

/** Wall seconds of the run with viewers, of the run without, and of the nginx-rtmp run. */
const SOAK_S = Number(process.env.BENCH_SOAK_S ?? 180);
const BARE_S = Number(process.env.BENCH_SOAK_BARE_S ?? 120);
const PEER_S = Number(process.env.BENCH_SOAK_PEER_S ?? 60);
/** Wall seconds between samples. */
const SAMPLE_S = 10;
/** ffmpeg `-readrate` (× real time) when set; unset means as fast as the server reads. */
const READRATE = process.env.BENCH_SOAK_READRATE;
const MIB = 2 ** 20;

/** A fast ffmpeg push and the media time it has sent so far (`-progress` out_time). */
interface FastPush {
  readonly child: ChildProcess;
  /** Seconds of media written so far. */
  mediaSeconds(): number;
  /** Why it exited early, when it did. */
  exited(): string | undefined;
}

function startFastPush(file: string, url: string): FastPush {
  const rate = READRATE ? ['-readrate', READRATE] : [];
  const child = spawn(
    'ffmpeg',
    [
      '-nostdin',
      '-v',
      'error',
      '-nostats',
      '-progress',
      'pipe:1',
      ...rate,
      '-stream_loop',
      '-1',
      '-i',
      file,
      '-c',
      'copy',
      '-f',
      'flv',
      url,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let media = 0;
  let stderr = '';
  let exit: string | undefined;
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    if (line.startsWith('out_time_us=')) {
      const us = Number(line.slice('out_time_us='.length));
      if (Number.isFinite(us)) {
        media = us / 1e6;
      }
    }
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-500);
  });
  child.once('exit', (code, signal) => {
    exit = `ffmpeg exited (${code ?? signal}) ${stderr.trim()}`;
  });
  return { child, mediaSeconds: () => media, exited: () => exit };
}

/** One sample of a run. */
interface Sample {
  readonly wallS: number;
  readonly mediaS: number;
  readonly rss: number;
  /** After a full GC (Airwave only). */
  readonly heapUsed?: number;
  readonly arrayBuffers?: number;
  /** Viewer deliveries since the previous sample. */
  readonly delivered?: string;
}

/** Least-squares slope of y over x, its standard error, and the number of points. */
function slope(points: readonly { x: number; y: number }[]): { slope: number; se: number; n: number } {
  const n = points.length;
  const mx = points.reduce((sum, p) => sum + p.x, 0) / n;
  const my = points.reduce((sum, p) => sum + p.y, 0) / n;
  const sxx = points.reduce((sum, p) => sum + (p.x - mx) ** 2, 0);
  const sxy = points.reduce((sum, p) => sum + (p.x - mx) * (p.y - my), 0);
  const b = sxx > 0 ? sxy / sxx : Number.NaN;
  const ssr = points.reduce((sum, p) => sum + (p.y - my - b * (p.x - mx)) ** 2, 0);
  const se = n > 2 && sxx > 0 ? Math.sqrt(ssr / (n - 2) / sxx) : Number.NaN;
  return { slope: b, se, n };
}

/** Slope in MiB per media hour over the second half of the samples, with a verdict against a flat line. */
function trend(samples: readonly Sample[], pick: (sample: Sample) => number | undefined, name: string): string {
  const half = samples.slice(Math.floor(samples.length / 2));
  const points = half.flatMap((s) => {
    const y = pick(s);
    return y === undefined ? [] : [{ x: s.mediaS / 3600, y: y / MIB }];
  });
  if (points.length < 3) {
    return `${name}: too few samples`;
  }
  const fit = slope(points);
  const first = points[0];
  const last = points.at(-1);
  const spanMin = first && last ? (last.x - first.x) * 60 : 0;
  const perDay = fit.slope * 24;
  const verdict =
    Math.abs(fit.slope) <= 2 * fit.se
      ? 'flat (slope within 2 standard errors of 0)'
      : Math.abs(perDay) < 1
        ? `flat for practice (${perDay.toFixed(2)} MiB per 24 media hours)`
        : `${fit.slope > 0 ? 'GROWS' : 'shrinks'}: ${perDay.toFixed(1)} MiB per 24 media hours`;
  return (
    `${name}: ${fit.slope.toFixed(2)} ± ${fit.se.toFixed(2)} MiB per media hour over the last ${fit.n} samples ` +
    `(${spanMin.toFixed(0)} media minutes) — ${verdict}`
  );
}

function mib(bytes: number | undefined): string {
  return bytes === undefined ? '—' : (bytes / MIB).toFixed(1);
}

function table(samples: readonly Sample[], withHeap: boolean, withViewers: boolean): string[] {
  const head = [
    'wall s',
    'media min pushed',
    'speed × real time',
    ...(withHeap ? ['heap used after GC MiB', 'ArrayBuffers after GC MiB'] : []),
    'RSS MiB',
    ...(withViewers ? ['delivered since last sample'] : []),
  ];
  const rows = samples.map((s, i) => {
    const before = samples[i - 1];
    const speed = before ? (s.mediaS - before.mediaS) / (s.wallS - before.wallS) : s.mediaS / Math.max(1, s.wallS);
    return [
      s.wallS.toFixed(0),
      (s.mediaS / 60).toFixed(1),
      speed.toFixed(1),
      ...(withHeap ? [mib(s.heapUsed), mib(s.arrayBuffers)] : []),
      mib(s.rss),
      ...(withViewers ? [s.delivered ?? ''] : []),
    ];
  });
  return [
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---:').join('|')}|`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ];
}

function sleepUntil(time: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, time - Date.now())));
}

/** Samples every SAMPLE_S until `seconds` have passed; `extra` reads per-sample values. */
async function sampleRun(
  seconds: number,
  push: FastPush,
  read: () => Promise<Omit<Sample, 'wallS' | 'mediaS'>>,
): Promise<Sample[]> {
  const startedAt = Date.now();
  const samples: Sample[] = [];
  for (let k = 1; k * SAMPLE_S <= seconds; k++) {
    await sleepUntil(startedAt + k * SAMPLE_S * 1000);
    const failed = push.exited();
    if (failed) {
      throw new Error(failed);
    }
    const mediaS = push.mediaSeconds();
    const values = await read();
    const sample = { wallS: (Date.now() - startedAt) / 1000, mediaS, ...values };
    samples.push(sample);
    console.log(
      `  ${sample.wallS.toFixed(0)} s: ${(mediaS / 60).toFixed(1)} media min, heap ${mib(sample.heapUsed)} MiB, ` +
        `ArrayBuffers ${mib(sample.arrayBuffers)} MiB, RSS ${mib(sample.rss)} MiB ${sample.delivered ?? ''}`,
    );
  }
  return samples;
}

/** What one Airwave run measured. */
interface AirwaveRun {
  readonly samples: Sample[];
  readonly idle: { heapUsed: number; arrayBuffers: number; rss: number };
  readonly errors: number;
  readonly errorSamples: string[];
}

/** Airwave with one fast-pushed stream for `seconds`, with or without the 2 + 1 viewers. */
async function airwaveRun(mp4: string, seconds: number, viewers: boolean): Promise<AirwaveRun> {
  const inspectPort = await freePort();
  const server = await startAirwave({}, [`--inspect=127.0.0.1:${inspectPort}`]);
  let probe: HeapProbe | undefined;
  let push: FastPush | undefined;
  const agent = new Agent({ keepAlive: true });
  const errorSamples: string[] = [];
  let errors = 0;
  const onError = (error: string): void => {
    errors++;
    if (errorSamples.length < 3) {
      errorSamples.push(error);
    }
  };
  const running: Promise<void>[] = [];
  try {
    const [stream] = await createStreams(server, 1);
    if (!stream) {
      throw new Error('no stream created');
    }
    const activeProbe = await openHeapProbe(inspectPort);
    probe = activeProbe;
    const idleUsage = await activeProbe.afterGc();
    const idle = { heapUsed: idleUsage.heapUsed, arrayBuffers: idleUsage.arrayBuffers, rss: rssBytes(server.pid) };
    push = startFastPush(mp4, stream.rtmpUrl);
    const base = `${server.baseUrl}/play/${stream.playbackId}`;
    await waitForLlHls(`${base}/cmaf/video.m3u8`, Date.now() + 30_000);
    const until = Date.now() + seconds * 1000 + 2000;
    const log = new PartLog();
    let fragments = 0;
    if (viewers) {
      const cache = new PartTimingCache();
      for (let i = 0; i < 2; i++) {
        running.push(runLlHlsViewer({ playlistUrl: `${base}/cmaf/video.m3u8`, agent, until, cache, log, onError }));
      }
      running.push(
        readLiveMp4(`${base}.mp4`, until, () => {
          fragments++;
        }).catch((error: unknown) => onError(`mp4: ${String(error)}`)),
      );
    }
    const samples = await sampleRun(seconds, push, async () => {
      const usage = await activeProbe.afterGc();
      const delivered = viewers ? `${log.count} parts, ${fragments} MP4 fragments` : undefined;
      log.clear();
      fragments = 0;
      return { heapUsed: usage.heapUsed, arrayBuffers: usage.arrayBuffers, rss: rssBytes(server.pid), delivered };
    });
    return { samples, idle, errors, errorSamples };
  } finally {
    if (push) {
      await stopChild(push.child);
    }
    await Promise.allSettled(running);
    agent.destroy();
    probe?.close();
    await server.stop();
  }
}

/** nginx-rtmp under the same fast push: RSS of its process tree. */
async function nginxRun(mp4: string, seconds: number): Promise<Sample[] | string> {
  const started = await startNginxRtmp();
  if (!started.ok) {
    return started.reason;
  }
  const { peer } = started;
  const push = startFastPush(mp4, peer.rtmpUrl(1));
  try {
    return await sampleRun(seconds, push, async () => ({
      rss: processTree(peer.pid).reduce((sum, pid) => sum + rssBytes(pid), 0),
    }));
  } finally {
    await stopChild(push.child);
    await peer.stop();
  }
}

/** Runs the three soaks and returns the Markdown. */
export async function run(): Promise<string> {
  const { mp4 } = benchMedia();
  console.log(`Airwave, 1 stream + 2 LL-HLS viewers + 1 MP4 viewer, ${SOAK_S} s`);
  const watched = await airwaveRun(mp4, SOAK_S, true);
  console.log(`Airwave, 1 stream, no viewer, ${BARE_S} s`);
  const bare = await airwaveRun(mp4, BARE_S, false);
  console.log(`nginx-rtmp, 1 stream, ${PEER_S} s`);
  const nginx = PEER_S > 0 ? await nginxRun(mp4, PEER_S) : 'not run (BENCH_SOAK_PEER_S=0)';
  const minutes = (samples: readonly Sample[]): string => ((samples.at(-1)?.mediaS ?? 0) / 60).toFixed(0);
  const trends = (result: AirwaveRun): string[] => [
    `- ${trend(result.samples, (s) => s.heapUsed, 'heap used after GC')}`,
    `- ${trend(result.samples, (s) => s.arrayBuffers, 'ArrayBuffers after GC')}`,
    `- ${trend(result.samples, (s) => s.rss, 'RSS')}`,
  ];
  const idleLine = (result: AirwaveRun): string =>
    `Before the push (stream created, after GC): heap ${mib(result.idle.heapUsed)} MiB, ArrayBuffers ` +
    `${mib(result.idle.arrayBuffers)} MiB, RSS ${mib(result.idle.rss)} MiB.`;
  return [
    `One stream, the benchmark file (720p30 H.264/AAC ~3 Mb/s, 20 s looped) pushed by \`ffmpeg -stream_loop -1 -i <mp4> ` +
      `-c copy -f flv\` ${READRATE ? `with \`-readrate ${READRATE}\`` : 'without `-re` (as fast as the server reads it)'}, ` +
      `so far more media than wall time flows through ingest, the GOP cache, the LL-HLS/DASH/HLS packagers and ` +
      `their playlist windows. The built server runs with \`--inspect=127.0.0.1:<port>\`; every ${SAMPLE_S} s the ` +
      `bench forces a full GC through the inspector (\`HeapProfiler.collectGarbage\`) and reads ` +
      `\`process.memoryUsage()\` (heap used; ArrayBuffers = media payload bytes held outside the JS heap) and the ` +
      `RSS from /proc. "media min pushed" is ffmpeg's \`-progress\` out_time. Slopes are least-squares fits over the ` +
      `second half of the samples (after warm-up) against media time: a bounded stream gives a flat line however ` +
      `long it runs.`,
    '',
    `### Airwave, 1 stream + 2 LL-HLS viewers (blocking reload, every new video part) + 1 progressive MP4 viewer — ${minutes(watched.samples)} media minutes in ${SOAK_S} s`,
    '',
    idleLine(watched),
    '',
    ...table(watched.samples, true, true),
    '',
    ...trends(watched),
    `- viewer errors: ${watched.errors}${watched.errorSamples.length > 0 ? ` (first: ${watched.errorSamples.join('; ')})` : ''} — ` +
      `at a push this fast the viewers cannot keep up, so a listed part can leave the playlist window before a viewer ` +
      `asks for it; what they did get is counted in the last column`,
    '',
    `### Airwave, 1 stream, no viewer — ${minutes(bare.samples)} media minutes in ${BARE_S} s`,
    '',
    idleLine(bare),
    '',
    ...table(bare.samples, true, false),
    '',
    ...trends(bare),
    '',
    typeof nginx === 'string'
      ? `### nginx-rtmp: ${nginx}`
      : [
          `### nginx-rtmp (HLS + DASH on), 1 stream, same fast push — ${minutes(nginx)} media minutes in ${PEER_S} s`,
          '',
          'RSS of its process tree (master + worker); no GC to force, so RSS only.',
          '',
          ...table(nginx, false, false),
          '',
          `- ${trend(nginx, (s) => s.rss, 'RSS')}`,
        ].join('\n'),
  ].join('\n');
}
