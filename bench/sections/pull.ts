/**
 * Pull ingest cost and start-up: CPU and memory per stream at 1 and 10 streams for the same media
 * pushed over RTMP (ffmpeg `-c copy -f flv` publishers) and pulled — over RTSP from the test RTSP
 * server (the in-process RTSP client, and with `AIRWAVE_PULL_RTSP=ffmpeg` the ffmpeg child behind
 * the guarded RTSP relay), over SRT from ffmpeg listeners (our in-process caller dialling the
 * checked address) and MPEG-TS over UDP (in process). `BENCH_PULL_MODES` picks modes
 * (rtmp,rtsp,rtsp-ffmpeg,srt,udp; all by default; `floor` and `floor-drained` add bare datagram
 * receivers of the UDP senders, with Node's events and with drained reads, as lower bounds). CPU is read over the Airwave service's whole process tree
 * (/proc), which includes the ffmpeg children of the pulls; the sources (publishers, listeners,
 * the RTSP server in this process) are outside it. Then the time from `createStream(PULL)` to the
 * first playable LL-HLS part of an RTSP source with a 2 s GOP (in process and through ffmpeg),
 * against the time from the start of an RTMP push to its first part.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { loadavg } from 'node:os';
import { encodeTestMedia } from '@airwave/media/testing/ffmpeg-media';
import { type RtspTestServer, startRtspTestServer } from '@airwave/media/testing/rtsp-server';
import { type AirwaveProcess, graphql, registerBenchAccount, startAirwave } from '../lib/airwave-server.js';
import { freePort, stopChild } from '../lib/child-process.js';
import { WORK_DIR } from '../lib/media-file.js';
import { percentile } from '../lib/percentile.js';
import { type CpuWindow, mainThread, processTree, sampleWindow } from '../lib/proc-stats.js';

/** Section title. */
export const title = 'Pull: CPU per pulled stream vs pushed, and time to the first LL-HLS part';

const STEPS = (process.env.BENCH_PULL_STREAMS ?? '1,10').split(',').map(Number);
const FIRST_WARMUP_S = Number(process.env.BENCH_PULL_FIRST_WARMUP_S ?? 45);
const WARMUP_S = Number(process.env.BENCH_PULL_WARMUP_S ?? 10);
const WINDOW_S = Number(process.env.BENCH_PULL_WINDOW_S ?? 30);
const STARTS = Number(process.env.BENCH_PULL_STARTS ?? 5);
/** Modes to measure by short name (`rtmp,rtsp,rtsp-ffmpeg,srt,udp`; default all); the push is always measured as the reference. */
const MODES = (process.env.BENCH_PULL_MODES ?? 'rtmp,rtsp,rtsp-ffmpeg,srt,udp').split(',');
/** The server setting that reads RTSP through an ffmpeg child (the path before the in-process client). */
const RTSP_THROUGH_FFMPEG = { AIRWAVE_PULL_RTSP: 'ffmpeg' };
const MIB = 2 ** 20;

/** The pull benchmark's source: 720p30 H.264 without B-frames (RTP has no DTS), GOP 60 (2 s), ~3 Mb/s, AAC. */
function pullMedia(): string {
  mkdirSync(WORK_DIR, { recursive: true });
  const file = `${WORK_DIR}source-720p30-nobf.mp4`;
  if (!existsSync(file)) {
    encodeTestMedia(
      WORK_DIR,
      [
        ...[
          '-f',
          'lavfi',
          '-i',
          'testsrc2=size=1280x720:rate=30',
          '-f',
          'lavfi',
          '-i',
          'sine=frequency=440:sample_rate=48000',
        ],
        ...[
          '-t',
          '20',
          '-c:v',
          'libx264',
          '-preset',
          'veryfast',
          '-profile:v',
          'main',
          '-bf',
          '0',
          '-pix_fmt',
          'yuv420p',
        ],
        ...['-b:v', '3M', '-maxrate', '3M', '-bufsize', '6M', '-g', '60', '-keyint_min', '60', '-sc_threshold', '0'],
        ...['-c:a', 'aac', '-b:a', '128k', '-ac', '2'],
      ],
      'source-720p30-nobf.tmp.mp4',
    );
    renameSync(`${WORK_DIR}source-720p30-nobf.tmp.mp4`, file);
  }
  return file;
}

/** Creates a stream (PULL when `sourceUri` is given); returns its key and playback ID. */
async function createStream(
  server: AirwaveProcess,
  token: string,
  sourceUri?: string,
): Promise<{ id: string; streamKey: string; playbackId: string }> {
  const input = sourceUri
    ? { name: 'bench pull', ingestMode: 'PULL', pullSource: { sourceUri } }
    : { name: 'bench push' };
  const data = (await graphql(
    server,
    'mutation ($input: CreateStreamInput!) { createStream(input: $input) { __typename ... on Stream { id streamKey playbackId } ... on ValidationError { message } } }',
    { input },
    token,
  )) as Record<string, unknown>;
  const created = data.createStream as {
    __typename: string;
    id: string;
    streamKey: string;
    playbackId: string;
    message?: string;
  };
  if (created.__typename !== 'Stream') {
    throw new Error(`createStream: ${created.message}`);
  }
  return created;
}

async function liveCount(server: AirwaveProcess, token: string): Promise<number> {
  const data = (await graphql(
    server,
    'query { streamsConnection(page: { first: 100 }) { nodes { metrics { isLive } } } }',
    {},
    token,
  )) as Record<string, unknown>;
  const nodes = (data.streamsConnection as { nodes: { metrics: { isLive: boolean } }[] }).nodes;
  return nodes.filter((node) => node.metrics.isLive).length;
}

function ffmpeg(args: readonly string[]): ChildProcess {
  return spawn('ffmpeg', ['-nostdin', '-v', 'error', ...args], { stdio: 'ignore' });
}

function stop(children: readonly ChildProcess[]): Promise<void> {
  return Promise.all(children.map((child) => stopChild(child, 3000))).then(() => undefined);
}

/** ffmpeg sending `file` in a loop, in real time, copied as `format` to `url` (an RTMP push, an SRT listener). */
function loopCopy(file: string, format: 'flv' | 'mpegts', url: string): ChildProcess {
  return ffmpeg(['-re', '-stream_loop', '-1', '-i', file, '-c', 'copy', '-f', format, url]);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** One ingest mode: how to add a stream's source and stream. */
interface Mode {
  readonly name: string;
  /** Server environment of this mode. */
  readonly env?: Record<string, string>;
  /** Starts the source of stream `index` and creates the stream; returns the processes to stop. */
  add(server: AirwaveProcess, token: string, index: number): Promise<ChildProcess[]>;
}

interface Step {
  readonly streams: number;
  readonly window: CpuWindow;
  readonly ffmpegChildren: number;
  readonly load1: number;
}

async function measureMode(mode: Mode): Promise<{ name: string; idleRss: number; steps: Step[] }> {
  const server = await startAirwave({ AIRWAVE_ALLOW_PRIVATE_PULL_SOURCES: 'true', ...mode.env });
  const children: ChildProcess[] = [];
  const steps: Step[] = [];
  try {
    const token = await registerBenchAccount(server);
    const idle = await sampleWindow({ server: () => processTree(server.pid) }, 3);
    for (const streams of STEPS) {
      const have = steps.at(-1)?.streams ?? 0;
      for (let i = have; i < streams; i++) {
        children.push(...(await mode.add(server, token, i + 1)));
      }
      const deadline = Date.now() + 60_000;
      while ((await liveCount(server, token)) < streams) {
        if (Date.now() > deadline) {
          throw new Error(`${mode.name}: only ${await liveCount(server, token)} of ${streams} streams went live`);
        }
        await sleep(500);
      }
      await sleep((have === 0 ? FIRST_WARMUP_S : WARMUP_S) * 1000);
      const window = await sampleWindow(
        {
          server: () => processTree(server.pid),
          main: () => mainThread(server.pid),
          ffmpeg: () => processTree(server.pid).filter((pid) => pid !== server.pid),
        },
        WINDOW_S,
      );
      const live = await liveCount(server, token);
      if (live < streams) {
        throw new Error(`${mode.name}: ${live} of ${streams} streams live after the window`);
      }
      const ffmpegChildren = processTree(server.pid).length - 1;
      steps.push({ streams, window, ffmpegChildren, load1: loadavg()[0] ?? 0 });
      console.log(
        `${mode.name} ${streams}: tree ${window.percent.server?.toFixed(1)} % (main ${window.percent.main?.toFixed(1)}, ` +
          `children ${window.percent.ffmpeg?.toFixed(1)}), ${((window.rss.server ?? 0) / MIB).toFixed(0)} MiB`,
      );
    }
    return { name: mode.name, idleRss: idle.rss.server ?? 0, steps };
  } finally {
    await stop(children);
    await server.stop();
  }
}

/**
 * The floor of any in-process datagram reader: one node process with a node:dgram socket per
 * stream, fed by the same ffmpeg UDP senders as the UDP pull, doing nothing with what it receives
 * (Node's own work per datagram: buffer, address object, callback). Not Airwave: a lower bound.
 */
async function measureDatagramFloor(
  file: string,
  drained: boolean,
): Promise<{ name: string; idleRss: number; steps: Step[] }> {
  const ports: number[] = [];
  for (const _ of Array.from({ length: Math.max(...STEPS) })) {
    ports.push(await freePort());
  }
  const sink = spawn(
    process.execPath,
    [
      '-e',
      `const dgram = require('node:dgram');
       const fs = require('node:fs');
       const buffer = Buffer.allocUnsafe(65536);
       const fds = [];
       for (const port of ${JSON.stringify(ports)}) {
         const socket = dgram.createSocket({ type: 'udp4', recvBufferSize: 4 * 1024 * 1024 });
         socket.on('message', () => {});
         socket.bind(port, '127.0.0.1', () => {
           if (${drained}) {
             const state = Object.getOwnPropertySymbols(socket).find((s) => s.description === 'state symbol');
             socket[state].handle.recvStop();
             fds.push(socket[state].handle.fd);
           }
         });
       }
       setInterval(() => {
         Error.stackTraceLimit = 0;
         for (const fd of fds) {
           try { for (;;) fs.readSync(fd, buffer, 0, 65536, null); } catch {}
         }
       }, 20);`,
    ],
    { stdio: 'ignore' },
  );
  const senders: ChildProcess[] = [];
  const steps: Step[] = [];
  try {
    await sleep(500);
    const pid = sink.pid ?? 0;
    const idle = await sampleWindow({ server: () => [pid] }, 3);
    for (const streams of STEPS) {
      const have = steps.at(-1)?.streams ?? 0;
      for (let i = have; i < streams; i++) {
        senders.push(loopCopy(file, 'mpegts', `udp://127.0.0.1:${ports[i]}?pkt_size=1316`));
      }
      await sleep(WARMUP_S * 1000);
      const window = await sampleWindow({ server: () => [pid], main: () => mainThread(pid) }, WINDOW_S);
      steps.push({ streams, window, ffmpegChildren: 0, load1: loadavg()[0] ?? 0 });
      console.log(`datagram floor ${streams}: ${window.percent.server?.toFixed(1)} %`);
    }
    return {
      name: drained
        ? 'floor: bare receiver of the same UDP senders, drained every 20 ms with read(2) (no demux, no hub; not Airwave)'
        : 'floor: bare node:dgram receiver of the same UDP senders (no demux, no hub; not Airwave)',
      idleRss: idle.rss.server ?? 0,
      steps,
    };
  } finally {
    await stop([...senders, sink]);
  }
}

/** Milliseconds from `start()` until the stream's LL-HLS video playlist lists a part that answers 200. */
async function timeToFirstPart(server: AirwaveProcess, start: () => Promise<string>): Promise<number> {
  const began = performance.now();
  const playbackId = await start();
  const base = `${server.baseUrl}/play/${playbackId}/cmaf`;
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const response = await fetch(`${base}/video.m3u8`).catch(() => undefined);
    const text = response?.status === 200 ? await response.text() : '';
    const part = /#EXT-X-PART:[^\n]*URI="([^"]+)"/.exec(text)?.[1];
    if (part) {
      const bytes = await fetch(`${base}/${part}`);
      if (bytes.status === 200 && (await bytes.arrayBuffer()).byteLength > 0) {
        return performance.now() - began;
      }
    }
    await sleep(20);
  }
  throw new Error('no LL-HLS part within 30 s');
}

function fmt(value: number | undefined, digits = 1): string {
  return value === undefined || !Number.isFinite(value) ? '—' : value.toFixed(digits);
}

/** Runs the section. */
export async function run(): Promise<string> {
  const file = pullMedia();
  const camera = encodeTestMedia(WORK_DIR, ['-i', file, '-c', 'copy'], 'source-720p30-nobf-units.mp4');
  const rtsp: RtspTestServer = await startRtspTestServer({ tracks: camera.tracks, units: camera.units });
  try {
    const allModes: (Mode & { readonly key: string })[] = [
      {
        key: 'rtmp',
        name: 'pushed over RTMP (ffmpeg -c copy -f flv)',
        async add(server, token) {
          const stream = await createStream(server, token);
          return [loopCopy(file, 'flv', `rtmp://127.0.0.1:${server.rtmpPort}/live/${stream.streamKey}`)];
        },
      },
      {
        key: 'rtsp',
        name: 'pulled over RTSP (test RTSP server → in-process RTSP client, no child)',
        async add(server, token) {
          await createStream(server, token, `rtsp://127.0.0.1:${rtsp.port}/live`);
          return [];
        },
      },
      {
        key: 'rtsp-ffmpeg',
        name: 'pulled over RTSP with AIRWAVE_PULL_RTSP=ffmpeg (test RTSP server → relay → ffmpeg)',
        env: RTSP_THROUGH_FFMPEG,
        async add(server, token) {
          await createStream(server, token, `rtsp://127.0.0.1:${rtsp.port}/live`);
          return [];
        },
      },
      {
        key: 'srt',
        name: 'pulled over SRT (ffmpeg listener → in-process caller, no child)',
        async add(server, token) {
          const port = await freePort();
          const source = loopCopy(file, 'mpegts', `srt://127.0.0.1:${port}?mode=listener`);
          await sleep(300);
          await createStream(server, token, `srt://127.0.0.1:${port}`);
          return [source];
        },
      },
      {
        key: 'udp',
        name: 'pulled over UDP (ffmpeg MPEG-TS sender → in-process reader, no child)',
        async add(server, token) {
          const port = await freePort();
          await createStream(server, token, `udp://127.0.0.1:${port}`);
          return [loopCopy(file, 'mpegts', `udp://127.0.0.1:${port}?pkt_size=1316`)];
        },
      },
    ];
    const modes = allModes.filter((mode) => mode.key === 'rtmp' || MODES.includes(mode.key));
    const results = [];
    for (const mode of modes) {
      results.push(await measureMode(mode));
    }
    if (MODES.includes('floor')) {
      results.push(await measureDatagramFloor(file, false));
    }
    if (MODES.includes('floor-drained')) {
      results.push(await measureDatagramFloor(file, true));
    }

    const pulledThroughFfmpeg: number[] = [];
    const viaFfmpeg = await startAirwave({ AIRWAVE_ALLOW_PRIVATE_PULL_SOURCES: 'true', ...RTSP_THROUGH_FFMPEG });
    try {
      const token = await registerBenchAccount(viaFfmpeg);
      for (let i = 0; i < STARTS; i++) {
        pulledThroughFfmpeg.push(
          await timeToFirstPart(
            viaFfmpeg,
            async () => (await createStream(viaFfmpeg, token, `rtsp://127.0.0.1:${rtsp.port}/live`)).playbackId,
          ),
        );
        console.log(`start ${i + 1}: pulled RTSP through ffmpeg ${pulledThroughFfmpeg.at(-1)?.toFixed(0)} ms`);
      }
    } finally {
      await viaFfmpeg.stop();
    }
    const server = await startAirwave({ AIRWAVE_ALLOW_PRIVATE_PULL_SOURCES: 'true' });
    const pulled: number[] = [];
    const pushed: number[] = [];
    const pushers: ChildProcess[] = [];
    try {
      const token = await registerBenchAccount(server);
      for (let i = 0; i < STARTS; i++) {
        pulled.push(
          await timeToFirstPart(
            server,
            async () => (await createStream(server, token, `rtsp://127.0.0.1:${rtsp.port}/live`)).playbackId,
          ),
        );
        pushed.push(
          await timeToFirstPart(server, async () => {
            const stream = await createStream(server, token);
            pushers.push(
              ffmpeg([
                '-re',
                '-i',
                file,
                '-c',
                'copy',
                '-f',
                'flv',
                `rtmp://127.0.0.1:${server.rtmpPort}/live/${stream.streamKey}`,
              ]),
            );
            return stream.playbackId;
          }),
        );
        console.log(
          `start ${i + 1}: pulled RTSP ${pulled.at(-1)?.toFixed(0)} ms, pushed RTMP ${pushed.at(-1)?.toFixed(0)} ms`,
        );
      }
    } finally {
      await stop(pushers);
      await server.stop();
    }

    const push = results.find((result) => result.name.startsWith('pushed'));
    const perStream = (step: Step | undefined) => (step ? (step.window.percent.server ?? 0) / step.streams : undefined);
    const rows = results.flatMap((result) =>
      result.steps.map((step, index) => {
        const ratio = (perStream(step) ?? 0) / (perStream(push?.steps[index]) ?? Number.NaN);
        return `| ${result.name} | ${step.streams} | ${fmt(step.window.percent.server)} | **${fmt(perStream(step), 2)}** | ${fmt(step.window.percent.main)} / ${fmt(step.window.percent.ffmpeg)} | ${step.ffmpegChildren} | ${fmt((step.window.rss.server ?? 0) / MIB, 0)} (idle ${fmt(result.idleRss / MIB, 0)}) | ${result === push ? '1.00×' : `**${fmt(ratio, 2)}×**`} | ${fmt(step.window.machinePercent)} / ${fmt(step.load1)} |`;
      }),
    );
    const median = (values: number[]) => percentile(values, 50);
    return [
      `Source: 720p30 H.264 Main without B-frames (RTP carries no DTS), GOP 60 (2 s), ~3 Mb/s, AAC 128 kb/s, 20 s looped; the same file for every mode. Each mode on a fresh built server (\`dist/main/cli.js start\`, default on-demand packaging, no viewer), streams added in steps, ${FIRST_WARMUP_S} s warm-up before the first window (${WARMUP_S} s later), ${WINDOW_S} s windows. CPU = user + system of the server's process tree from /proc, in % of one core: for RTSP pulls with \`AIRWAVE_PULL_RTSP=ffmpeg\` it includes the ffmpeg child of each stream (\`-c copy\` to MPEG-TS) and the relay; RTSP pulls by the in-process client (the default), SRT pulls (our caller) and UDP pulls have no child; sources are outside it (RTMP publishers, SRT listeners and UDP senders are separate ffmpeg processes, the RTSP server runs in the benchmark process). Target: pulled ≤ 1.5× pushed per stream.`,
      '',
      '| mode | streams | server tree CPU % | CPU % per stream | Node main thread / ffmpeg children % | ffmpeg children | RSS MiB (tree) | vs pushed per stream | machine busy % / load1 |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...rows,
      '',
      `Time to the first playable LL-HLS part (${STARTS} starts, new stream each; one server, and one with \`AIRWAVE_PULL_RTSP=ffmpeg\` for the ffmpeg row): from \`createStream(PULL)\` of an RTSP source already live (2 s GOP) until \`video.m3u8\` lists a part that answers 200, polled every 20 ms; pushed: from \`createStream\` + spawning \`ffmpeg -re … -f flv rtmp://…\` of the same file. Target: RTSP ≤ 3 s.`,
      '',
      '| source | median ms | min ms | max ms |',
      '|---|---:|---:|---:|',
      `| pulled RTSP (2 s GOP), in-process client | **${fmt(median(pulled), 0)}** | ${fmt(Math.min(...pulled), 0)} | ${fmt(Math.max(...pulled), 0)} |`,
      `| pulled RTSP (2 s GOP), through ffmpeg | ${fmt(median(pulledThroughFfmpeg), 0)} | ${fmt(Math.min(...pulledThroughFfmpeg), 0)} | ${fmt(Math.max(...pulledThroughFfmpeg), 0)} |`,
      `| pushed RTMP (same file) | ${fmt(median(pushed), 0)} | ${fmt(Math.min(...pushed), 0)} | ${fmt(Math.max(...pushed), 0)} |`,
    ].join('\n');
  } finally {
    await rtsp.close();
  }
}
