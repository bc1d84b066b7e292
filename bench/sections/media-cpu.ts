/**
 * Media CPU and memory per passthrough stream at 1, 10 and 50 streams: Airwave (TS-HLS + CMAF for
 * LL-HLS/DASH, every packager on), nginx-rtmp (HLS + DASH) and Node-Media-Server (RTMP/FLV), one
 * after the other in the same run, each fed by the same `ffmpeg -re -stream_loop -1 -c copy`
 * pushes of one pre-encoded 720p30 file. CPU is read from /proc/<pid>/stat over the server's
 * process tree (nginx master + worker), excluding the ffmpeg publishers, which are measured apart.
 */
import { loadavg } from 'node:os';
import { startAirwaveMedia } from '../lib/airwave-server.js';
import { benchMedia, startPublishers } from '../lib/media-file.js';
import { type MediaServerProcess, type PeerStart, startNginxRtmp, startNodeMediaServer } from '../lib/peers.js';
import { type CpuWindow, processTree, sampleWindow } from '../lib/proc-stats.js';

/** Section title. */
export const title = 'Media: CPU and memory per passthrough stream (Airwave vs nginx-rtmp vs Node-Media-Server)';

const STEPS = (process.env.BENCH_MEDIA_STREAMS ?? '1,10,50').split(',').map(Number);
const WARMUP_S = Number(process.env.BENCH_MEDIA_WARMUP_S ?? 8);
const WINDOW_S = Number(process.env.BENCH_MEDIA_WINDOW_S ?? 12);

/** One measured step of one server. */
interface Step {
  readonly streams: number;
  readonly window: CpuWindow;
  readonly load1: number;
  readonly failedPublishers: number;
  readonly problems: readonly string[];
}

/** Everything measured for one server. */
interface ServerResult {
  readonly name: string;
  readonly idleRss: number;
  /** CPU % of the server with no stream (timers, database). */
  readonly idleCpu: number;
  readonly steps: readonly Step[];
  readonly skipped?: string;
}

const MIB = 2 ** 20;

async function measureServer(name: string, start: () => Promise<PeerStart>, file: string): Promise<ServerResult> {
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
    for (const streams of STEPS) {
      const have = steps.at(-1)?.streams ?? 0;
      publishers.add(Array.from({ length: streams - have }, (_, i) => server.rtmpUrl(have + i + 1)));
      await sleep(WARMUP_S * 1000);
      const window = await sampleWindow(
        { server: () => processTree(server.pid), publishers: () => publishers.pids() },
        WINDOW_S,
      );
      const problems = (await Promise.all([server.verify(1), server.verify(streams)])).filter(
        (problem): problem is string => problem !== undefined,
      );
      const step: Step = {
        streams,
        window,
        load1: loadavg()[0] ?? 0,
        failedPublishers: publishers.failed(),
        problems: [...new Set(problems)],
      };
      steps.push(step);
      console.log(
        `${server.name} ${streams} streams: server ${fmt(window.percent.server)} % CPU, ` +
          `${fmt((window.rss.server ?? 0) / MIB)} MiB; publishers ${fmt(window.percent.publishers)} %; ` +
          `machine ${fmt(window.machinePercent)} %; ${problems.join('; ')}`,
      );
    }
    return { name: server.name, idleRss: idle.rss.server ?? 0, idleCpu: idle.percent.server ?? 0, steps };
  } finally {
    await publishers.stop();
    await server.stop();
  }
}

function fmt(value: number | undefined, digits = 1): string {
  return value === undefined || !Number.isFinite(value) ? '—' : value.toFixed(digits);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function perStream(step: Step | undefined): number | undefined {
  return step ? (step.window.percent.server ?? 0) / step.streams : undefined;
}

/** Runs the three servers one after the other and returns the Markdown tables. */
export async function run(): Promise<string> {
  const { mp4 } = benchMedia();
  const results = [
    await measureServer('Airwave', async () => ({ ok: true, peer: await startAirwaveMedia(Math.max(...STEPS)) }), mp4),
    await measureServer('nginx-rtmp', startNginxRtmp, mp4),
    await measureServer('Node-Media-Server', startNodeMediaServer, mp4),
  ];
  const [ours, nginx, nms] = results;
  const rows: string[] = [];
  for (const result of results) {
    if (result.skipped) {
      rows.push(`| ${result.name} | not measured: ${result.skipped} | | | | | | | | |`);
      continue;
    }
    for (const step of result.steps) {
      const notes = [
        ...(step.failedPublishers > 0 ? [`${step.failedPublishers} ffmpeg publishers exited`] : []),
        ...step.problems,
      ];
      rows.push(
        `| ${result.name} | ${step.streams} | ${fmt(step.window.percent.server)} | **${fmt(perStream(step), 2)}** | ` +
          `${fmt((step.window.rss.server ?? 0) / MIB)} (idle ${fmt(result.idleRss / MIB)}) | ${fmt(result.idleCpu)} | ` +
          `${fmt(step.window.percent.publishers)} | ${fmt(step.window.waitPercent.server, 0)} | ` +
          `${fmt(step.window.machinePercent)} / ${fmt(step.load1, 1)} | ` +
          `${notes.join('; ') || 'outputs checked'} |`,
      );
    }
  }
  const ratioRows = STEPS.map((streams) => {
    const at = (result: ServerResult | undefined) => perStream(result?.steps.find((step) => step.streams === streams));
    const mine = at(ours);
    const ratio = (peer: ServerResult | undefined, target: number): string => {
      const theirs = at(peer);
      if (mine === undefined || theirs === undefined || theirs === 0) {
        return `— (${peer?.skipped ? 'peer not measured' : 'no data'})`;
      }
      const value = mine / theirs;
      return `**${fmt(value, 2)}×** ${value <= target ? '(target met)' : `(target ≤ ${target}× missed)`}`;
    };
    return `| ${streams} | ${ratio(nginx, 1)} | ${ratio(nms, 0.5)} |`;
  });
  return [
    `Same file for every server: 720p30 H.264 High (GOP 60, ~3 Mb/s) + AAC 128 kb/s, 20 s, pushed in a loop by ` +
      `\`ffmpeg -re -stream_loop -1 -i file -c copy -f flv rtmp://…\` per stream. Servers run one after the other; ` +
      `streams are added in steps (${STEPS.join(' → ')}), each step measured over ${WINDOW_S} s after ${WARMUP_S} s of ` +
      `warm-up. CPU = user + system time of the server's process tree from /proc/<pid>/stat (nginx: master + worker; ` +
      `Airwave: the built \`dist/main/cli.js start\` Node process), in % of one core; RSS = VmRSS summed over the tree at the end of ` +
      `the window. Airwave packages every stream into TS-HLS and CMAF (LL-HLS parts + DASH) with no viewer; nginx-rtmp ` +
      `writes HLS + DASH files (2 s fragments); Node-Media-Server only relays RTMP/FLV. After each window one stream's ` +
      `outputs are fetched (Airwave playlists, nginx files, NMS HTTP-FLV) — "outputs checked" means they were there.`,
    '',
    '| server | streams | server CPU % | CPU % per stream | RSS MiB | idle CPU % (no stream) | ffmpeg publishers CPU % | server waiting for a CPU % | machine busy % / load1 | notes |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...rows,
    '',
    'CPU per stream, Airwave relative to each peer (targets: ≤ 1.0× nginx-rtmp, ≤ 0.5× Node-Media-Server):',
    '',
    '| streams | Airwave / nginx-rtmp | Airwave / Node-Media-Server |',
    '|---:|---:|---:|',
    ...ratioRows,
    '',
    `"machine busy" is all CPU used on the machine during the window (200 % = both cores), including the ffmpeg ` +
      `publishers and other engineers' jobs sharing these 2 cores; "server waiting for a CPU" is the run-queue delay of ` +
      `the server's main thread (/proc/<pid>/schedstat) in % of the window. CPU time is what the server consumed, so ` +
      `it is comparable under load, but a starved server also batches more work per wake-up, which flatters it.`,
  ].join('\n');
}
