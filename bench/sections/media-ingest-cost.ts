/**
 * Media ingest cost: server CPU milliseconds per second of media for a passthrough stream, measured
 * by pushing the benchmark FLV through our own `RtmpPublisher` as fast as the socket takes it (no
 * pacing, timestamps continuing pass after pass) into the built Airwave server, with every packager
 * on (TS-HLS, CMAF for LL-HLS and DASH). CPU is the server process's user + system time from
 * /proc/<pid>/stat, minus its idle rate; no viewer is attached. Quick and repeatable, it is the
 * number to watch when changing the media hot path (RTMP chunking → hub → packagers).
 */
import { readFileSync } from 'node:fs';
import { type FlvTag, FlvTagType, readFlvTags } from '@airwave/media/formats/flv/flv-tag';
import { RtmpPublisher } from '@airwave/media/protocols/rtmp/client';
import { type AirwaveProcess, createStreams, startAirwave } from '../lib/airwave-server.js';
import { benchMedia } from '../lib/media-file.js';
import { CLOCK_TICKS, cpuTicks, rssBytes } from '../lib/proc-stats.js';

/** Section title. */
export const title = 'Media: server CPU per second of ingested media (Airwave, RTMP at full speed, every packager on)';

const STREAMS = (process.env.BENCH_INGEST_STREAMS ?? '1,4').split(',').map(Number);
const PASSES = Number(process.env.BENCH_INGEST_PASSES ?? 6);
/** Extra node flags for the server, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` or `--trace-gc`. */
const NODE_ARGS = (process.env.BENCH_INGEST_NODE_ARGS ?? '').split(' ').filter((arg) => arg.length > 0);

/** One measured run. */
interface Run {
  readonly streams: number;
  readonly mediaSeconds: number;
  readonly wallSeconds: number;
  readonly cpuMs: number;
  readonly rssMiB: number;
  readonly problems: readonly string[];
}

/** True for the sequence headers and script data: sent once, before the media tags. */
function isHeader(tag: FlvTag): boolean {
  if (tag.type === FlvTagType.script) {
    return true;
  }
  return (tag.type === FlvTagType.video || tag.type === FlvTagType.audio) && tag.data[1] === 0;
}

/** Publishes `passes` passes of the tags at full speed with continuing timestamps. */
async function pushFile(url: string, tags: readonly FlvTag[], passes: number): Promise<number> {
  const headers = tags.filter(isHeader);
  const media = tags.filter((tag) => !isHeader(tag) && !(tag.type === FlvTagType.video && tag.data[1] === 2));
  const passMs = media.reduce((max, tag) => Math.max(max, tag.timestampMs), 0) + Math.round(1000 / 30);
  const publisher = new RtmpPublisher();
  await publisher.connect(url);
  try {
    for (const tag of headers) {
      await publisher.writeTag(tag);
    }
    for (let pass = 0; pass < passes; pass++) {
      for (const tag of media) {
        await publisher.writeTag({ ...tag, timestampMs: tag.timestampMs + pass * passMs });
      }
    }
  } finally {
    await publisher.close().catch(() => undefined);
  }
  return (passes * passMs) / 1000;
}

function serverTicks(server: AirwaveProcess): number {
  const ticks = cpuTicks(server.pid);
  if (ticks === undefined) {
    throw new Error('the Airwave server exited during the run');
  }
  return ticks;
}

/** Waits until the server used no CPU for two 250 ms polls in a row (it finished what it was sent). */
async function settle(server: AirwaveProcess): Promise<void> {
  let last = serverTicks(server);
  let quiet = 0;
  for (let i = 0; i < 40 && quiet < 2; i++) {
    await sleep(250);
    const now = serverTicks(server);
    quiet = now - last <= 1 ? quiet + 1 : 0;
    last = now;
  }
}

async function checkOutputs(server: AirwaveProcess, playbackId: string): Promise<string[]> {
  const problems: string[] = [];
  for (const path of ['/hls/index.m3u8', '/cmaf/video.m3u8', '/cmaf/index.mpd']) {
    const response = await fetch(`${server.baseUrl}/play/${playbackId}${path}`);
    await response.arrayBuffer();
    if (response.status !== 200) {
      problems.push(`${path} answered ${response.status}`);
    }
  }
  return problems;
}

async function measure(streams: number, tags: readonly FlvTag[]): Promise<Run> {
  const server = await startAirwave({}, NODE_ARGS);
  try {
    const created = await createStreams(server, streams);
    const idleStart = serverTicks(server);
    const idleFrom = performance.now();
    await sleep(2000);
    const idlePerMs = (serverTicks(server) - idleStart) / (performance.now() - idleFrom);
    const startTicks = serverTicks(server);
    const startedAt = performance.now();
    const seconds = await Promise.all(created.map((stream) => pushFile(stream.rtmpUrl, tags, PASSES)));
    const problems = (await Promise.all(created.map((stream) => checkOutputs(server, stream.playbackId)))).flat();
    await settle(server);
    const elapsed = performance.now() - startedAt;
    const ticks = serverTicks(server) - startTicks - idlePerMs * elapsed;
    return {
      streams,
      mediaSeconds: seconds.reduce((sum, s) => sum + s, 0),
      wallSeconds: elapsed / 1000,
      cpuMs: (Math.max(0, ticks) * 1000) / CLOCK_TICKS,
      rssMiB: rssBytes(server.pid) / 2 ** 20,
      problems: [...new Set(problems)],
    };
  } finally {
    await server.stop();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Pushes the file through 1 and 4 concurrent streams and returns the Markdown table. */
export async function run(): Promise<string> {
  const tags = readFlvTags(readFileSync(benchMedia().flv));
  const rows: string[] = [];
  for (const streams of STREAMS) {
    const result = await measure(streams, tags);
    const perMediaSecond = result.cpuMs / result.mediaSeconds;
    const line =
      `| ${streams} | ${result.mediaSeconds.toFixed(0)} | ${result.wallSeconds.toFixed(1)} | ${result.cpuMs.toFixed(0)} | ` +
      `**${perMediaSecond.toFixed(2)}** | ${(perMediaSecond / 10).toFixed(2)} | ${result.rssMiB.toFixed(0)} | ` +
      `${result.problems.join('; ') || 'outputs checked'} |`;
    console.log(line);
    rows.push(line);
  }
  return [
    `The benchmark FLV (720p30 H.264 + AAC, ~3.2 Mb/s, 20 s) pushed ${PASSES} times per stream by \`RtmpPublisher\` ` +
      `as fast as the socket accepts it, into the built server (\`dist/main/cli.js start\`) with every packager on and ` +
      `no viewer. Server CPU = user + system time of the server process (/proc/<pid>/stat, 10 ms ticks) from the first ` +
      `byte until it is idle again, minus its idle rate. "% of a core per live stream" is the same cost at real time ` +
      `(ms per media second ÷ 10). Other engineers' jobs share the machine; CPU time is what the server consumed.`,
    '',
    '| streams | media seconds | wall s | server CPU ms | **CPU ms per media second** | % of a core per live stream | RSS MiB | notes |',
    '|---:|---:|---:|---:|---:|---:|---:|---|',
    ...rows,
  ].join('\n');
}
