/**
 * Fan-out through edges (issue 20): 1,000 LL-HLS viewers on blocking reload spread over two
 * media-only edge processes that relay one origin (all three sharing one PostgreSQL database),
 * then the same 1,000 on the origin alone (one process), then through the shipped caches in front
 * of the origin: nginx (deploy/nginx-playback-cache.conf, proxy_cache_lock) and Varnish
 * (deploy/varnish-playback-cache.vcl, its waiting list); and the burst floor of the fan-out section
 * (the same bytes from Airwave, a bare node:http server and nginx). Same load generator, publisher
 * and delay measure as the fan-out section (media-fanout.ts).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AirwaveProcess, createStreams, startAirwave } from '../lib/airwave-server.js';
import { freePort, stopChild } from '../lib/child-process.js';
import { waitForLlHls } from '../lib/llhls-viewer.js';
import { benchMedia } from '../lib/media-file.js';
import { nginxMissing, startNginxCache } from '../lib/nginx-cache.js';
import { startPacedPublisher } from '../lib/paced-publisher.js';
import { ms, percentile } from '../lib/percentile.js';
import { postgresBase, withScratchDatabase } from '../lib/postgres.js';
import { machineCell, processTree, sampleWindow } from '../lib/proc-stats.js';
import { startVarnishCache, VARNISH_PARAMS, varnishMissing } from '../lib/varnish-cache.js';
import {
  burstFloor,
  delaysIn,
  floorVerdict,
  type LoaderReport,
  p50p99,
  RAMP_S,
  SETTLE_S,
  startLoader,
} from './media-fanout.js';

/** Section title. */
export const title = 'Media: fan-out through edges (origin → two edges, one process, nginx and Varnish caches)';

const VIEWERS = Number(process.env.BENCH_MEDIA_VIEWERS ?? 1000);
const WINDOW_S = Number(process.env.BENCH_MEDIA_FANOUT_WINDOW_S ?? 15);
const BURST_ROUNDS = Number(process.env.BENCH_MEDIA_BURST_ROUNDS ?? 16);
/** Phases to run (comma-separated: edges, one, nginx, varnish, varnish-2, varnish-hint, floor); all by default. */
const ONLY = process.env.BENCH_EDGE_PHASES?.split(',');
/**
 * varnishd -p parameter sets of the Varnish phase, `;` between sets (each space-separated
 * name=value), one phase per set; else the shipped ones (bench/lib/varnish-cache.ts).
 */
const VARNISH_RUNS: readonly (readonly string[])[] = process.env.BENCH_VARNISH_PARAMS?.split(';').map((set) =>
  set.split(' ').filter((param) => param !== ''),
) ?? [VARNISH_PARAMS];

/** varnishd -p parameters of the preload-hint and two-loader phases, else the first set above. */
const VARNISH_HINT_RUN: readonly string[] =
  process.env.BENCH_VARNISH_HINT_PARAMS?.split(' ').filter((param) => param !== '') ??
  VARNISH_RUNS[0] ??
  VARNISH_PARAMS;

/**
 * One nginx phase: its worker processes, config (a path; deploy/'s unless given), whether Airwave
 * warms parts through it and whether nginx reaches Airwave on its Unix socket (AIRWAVE_HTTP_SOCKET).
 */
interface NginxRun {
  readonly workers: number;
  readonly config: string | undefined;
  readonly warm: boolean;
  readonly unix: boolean;
}

/**
 * nginx phases, `;` between them (BENCH_NGINX_RUNS, each space-separated `workers=N`,
 * `config=<path>`, `cold` — Airwave does not warm parts through it, `unix` — nginx's upstream is
 * Airwave's Unix socket); else the shipped config with one worker, warmed (the target's row) and
 * then not warmed.
 */
const NGINX_RUNS: readonly NginxRun[] = process.env.BENCH_NGINX_RUNS?.split(';').map((set) => {
  const words = set.split(' ').filter((word) => word !== '');
  const value = (name: string): string | undefined =>
    words.find((word) => word.startsWith(`${name}=`))?.slice(name.length + 1);
  return {
    workers: Number(value('workers') ?? 1),
    config: value('config'),
    warm: !words.includes('cold'),
    unix: words.includes('unix'),
  };
}) ?? [
  { workers: 1, config: undefined, warm: true, unix: false },
  { workers: 1, config: undefined, warm: false, unix: false },
];

function runs(key: string): boolean {
  return ONLY === undefined || ONLY.includes(key);
}

/** What a phase's viewers ask and whose CPU is sampled, while its servers run. */
interface Opened {
  readonly playlistUrls: readonly string[];
  /** Processes whose CPU is reported, by name. */
  readonly groups: Record<string, () => number[]>;
  close(): Promise<void>;
}

interface Phase {
  readonly key: string;
  readonly name: string;
  /** The viewers also request the preload-hinted part with each blocking reload. */
  readonly preloadHint?: boolean;
  /** Load-generator processes the viewers are split over (1 unless given). */
  readonly loaders?: number;
  open(): Promise<Opened>;
}

/** Runs the phases and returns the Markdown. */
export async function run(): Promise<string> {
  const base = await postgresBase();
  if (!base) {
    return 'Not run: no PostgreSQL answered (TEST_DATABASE_URL or postgres://root@127.0.0.1:5432/test); the edges share its database.';
  }
  const { flv } = benchMedia();
  return withScratchDatabase(base, async (databaseUrl) => {
    const common = { DATABASE_URL: databaseUrl, AIRWAVE_HEARTBEAT_SECONDS: '1' };
    const servers: AirwaveProcess[] = [];
    let loaders: ChildProcess[] = [];
    let opened: Opened | undefined;
    // nginx phases marked `unix` reach the origin on this socket (ADR 0088).
    const socketDir = mkdtempSync(join(tmpdir(), 'airwave-bench-socket-'));
    const socket = join(socketDir, 'http.sock');
    try {
      // The origin fetches each new part through the nginx cache once before answering the
      // blocking reloads that list it (ADR 0083); in the other phases nothing listens there.
      const nginxPort = await freePort();
      const origin = await startAirwave({
        ...common,
        AIRWAVE_NODE_ID: 'origin',
        ...(runs('nginx')
          ? { AIRWAVE_PLAYBACK_CACHE_URL: `http://127.0.0.1:${nginxPort}`, AIRWAVE_HTTP_SOCKET: socket }
          : {}),
      });
      servers.push(origin);
      const edges = runs('edges')
        ? [
            await startAirwave({ ...common, AIRWAVE_NODE_ID: 'edge-1', AIRWAVE_ROLE: 'media' }),
            await startAirwave({ ...common, AIRWAVE_NODE_ID: 'edge-2', AIRWAVE_ROLE: 'media' }),
          ]
        : [];
      servers.push(...edges);
      const [stream] = await createStreams(origin, 1);
      if (!stream) {
        throw new Error('no stream created');
      }
      const publisher = await startPacedPublisher(stream.rtmpUrl, flv);
      try {
        const path = `/play/${stream.playbackId}/cmaf/video.m3u8`;
        const originBase = `${origin.baseUrl}/play/${stream.playbackId}`;
        const playlist = await waitForLlHls(`${origin.baseUrl}${path}`, Date.now() + 30_000);
        for (const edge of edges) {
          await waitForLlHls(`${edge.baseUrl}${path}`, Date.now() + 30_000);
        }
        const skipped: string[] = [];
        const direct = (urls: readonly string[], groups: Opened['groups']) => async (): Promise<Opened> => ({
          playlistUrls: urls,
          groups,
          close: async () => undefined,
        });
        const throughVarnish = (params: readonly string[]) => async (): Promise<Opened> => {
          const varnish = await startVarnishCache(origin.httpPort, params);
          await waitForLlHls(`${varnish.baseUrl}${path}`, Date.now() + 30_000);
          return {
            playlistUrls: [`${varnish.baseUrl}${path}`],
            groups: { origin: () => [origin.pid], varnish: () => processTree(varnish.pid) },
            close: () => varnish.stop(),
          };
        };
        const all: Phase[] = [
          {
            key: 'edges',
            name: `${VIEWERS} viewers over two edges (${VIEWERS / 2} each) relaying the origin`,
            open: direct(
              edges.map((edge) => `${edge.baseUrl}${path}`),
              {
                origin: () => [origin.pid],
                'edge-1': () => [edges[0]?.pid ?? 0],
                'edge-2': () => [edges[1]?.pid ?? 0],
              },
            ),
          },
          {
            key: 'one',
            name: `${VIEWERS} viewers on one process (the origin)`,
            open: direct([`${origin.baseUrl}${path}`], { origin: () => [origin.pid] }),
          },
        ];
        if (runs('nginx') && nginxMissing) {
          skipped.push(nginxMissing);
        } else {
          for (const each of NGINX_RUNS) {
            const config = each.config ?? 'deploy/nginx-playback-cache.conf';
            all.push({
              key: 'nginx',
              name: `${VIEWERS} viewers through nginx (${config}, ${each.workers} worker${each.workers > 1 ? 's' : ''}${each.warm ? ', parts warmed by Airwave' : ', not warmed'}${each.unix ? ', upstream on a Unix socket' : ''}) in front of the origin`,
              open: async () => {
                const nginx = await startNginxCache(origin.httpPort, {
                  workers: each.workers,
                  ...(each.warm ? { port: nginxPort } : {}),
                  ...(each.config ? { config: each.config } : {}),
                  ...(each.unix ? { socket } : {}),
                });
                await waitForLlHls(`${nginx.baseUrl}${path}`, Date.now() + 30_000);
                return {
                  playlistUrls: [`${nginx.baseUrl}${path}`],
                  groups: { origin: () => [origin.pid], nginx: () => processTree(nginx.pid) },
                  close: () => nginx.stop(),
                };
              },
            });
          }
        }
        if ((runs('varnish') || runs('varnish-hint')) && varnishMissing) {
          skipped.push(varnishMissing);
        } else {
          for (const params of VARNISH_RUNS) {
            all.push({
              key: 'varnish',
              name: `${VIEWERS} viewers through Varnish (deploy/varnish-playback-cache.vcl, ${params.length > 0 ? `\`${params.join(' ')}\`` : "varnishd's default parameters"}) in front of the origin`,
              open: throughVarnish(params),
            });
          }
          all.push({
            key: 'varnish-2',
            name: `${VIEWERS} viewers through Varnish (\`${VARNISH_HINT_RUN.join(' ')}\`) from two load-generator processes (${VIEWERS / 2} each)`,
            loaders: 2,
            open: throughVarnish(VARNISH_HINT_RUN),
          });
          all.push({
            key: 'varnish-hint',
            name: `${VIEWERS} viewers requesting the preload hint too, through Varnish (\`${VARNISH_HINT_RUN.join(' ')}\`)`,
            preloadHint: true,
            open: throughVarnish(VARNISH_HINT_RUN),
          });
        }
        const phases = all.filter((phase) => runs(phase.key));
        const rows: string[] = [];
        const p99s = new Map<string, number>();
        for (const phase of phases) {
          opened = await phase.open();
          const { groups, playlistUrls } = opened;
          const startAt = Date.now() + 2000;
          const from = startAt + (RAMP_S + SETTLE_S) * 1000;
          const until = from + WINDOW_S * 1000 + 500;
          const count = phase.loaders ?? 1;
          const started = Array.from({ length: count }, () =>
            startLoader({
              playlistUrl: playlistUrls[0] ?? '',
              playlistUrls,
              mp4Url: `${originBase}.mp4`,
              stages: [{ viewers: VIEWERS / count, startAt, until, preloadHint: phase.preloadHint ?? false }],
              mp4: 0,
              until,
            }),
          );
          loaders = started.map((each) => each.child);
          await new Promise((resolve) => setTimeout(resolve, Math.max(0, from - Date.now())));
          const cpu = await sampleWindow(
            { ...groups, loader: () => loaders.flatMap((child) => (child.pid ? [child.pid] : [])) },
            WINDOW_S,
          );
          const reports = await Promise.all(started.map((each) => each.reported));
          const report: LoaderReport = {
            parts: reports.flatMap((each) => each.parts),
            mp4: [],
            errors: reports.reduce((sum, each) => sum + each.errors, 0),
            errorSamples: reports.flatMap((each) => each.errorSamples),
          };
          for (const child of loaders) {
            await stopChild(child);
          }
          loaders = [];
          await opened.close();
          opened = undefined;
          const delays = delaysIn(report, publisher.videoSent, publisher.keyframes, from, from + WINDOW_S * 1000);
          if (!p99s.has(phase.key)) {
            p99s.set(phase.key, percentile(delays.part, 99));
          }
          const cpuText = Object.entries(cpu.percent)
            .map(([name, percent]) => `${name} ${percent.toFixed(0)} %`)
            .join(', ');
          rows.push(
            `| ${phase.name} | ${delays.viewersServed} (${((100 * delays.viewersServed) / (VIEWERS * WINDOW_S * 2)).toFixed(0)} %) | ` +
              `${p50p99(delays.playlist)} | ${p50p99(delays.part)} | ${cpuText} | ${machineCell(cpu, loadavg()[0] ?? 0)} | ` +
              `${report.errors}${report.errorSamples.length > 0 ? ` (${report.errorSamples.slice(0, 2).join('; ')})` : ''} |`,
          );
          console.log(rows.at(-1));
        }
        const floor = runs('floor')
          ? await burstFloor({ server: origin, stream, publisher, base: originBase, playlist })
          : undefined;
        const bare = percentile(floor?.results[1]?.delays ?? [], 99);
        const floorRows = (floor?.results ?? []).map(
          (result) =>
            `| ${result.name} | ${result.delays.length} | ${p50p99(result.delays)} | ${result.serverMs.toFixed(3)} | ${result.errors}${result.errorSamples.length > 0 ? ` (${result.errorSamples.slice(0, 2).join('; ')})` : ''} |`,
        );
        const edgeP99 = p99s.get('edges') ?? Number.NaN;
        const oneP99 = p99s.get('one') ?? Number.NaN;
        const cacheVerdict = (key: string): string => {
          const p99 = p99s.get(key);
          return p99 === undefined ? 'not run' : `${ms(p99)} ms (${p99 < 100 ? 'met' : 'missed'} < 100 ms)`;
        };
        return [
          `One stream (the benchmark file, 720p30 ~3 Mb/s, 0.5 s parts) published to the origin by our paced RTMP ` +
            `publisher; two media-only edges (\`--role media\`, same PostgreSQL) relay it. ${VIEWERS} LL-HLS viewers ` +
            `(blocking reload of \`video.m3u8\` with \`_HLS_msn\`/\`_HLS_part\`, then each new video part), from one ` +
            `load-generator process, join over ${RAMP_S} s; after ${SETTLE_S} s a ${WINDOW_S} s window is measured. Delay ` +
            `= arrival at the viewer − send time of the frame that closed the part (fan-out section). CPU in % of one core ` +
            `over the window; machine busy in % of all ${cpus().length} cores (in brackets: of it, time the hypervisor ran other guests instead — /proc/stat steal) / 1-minute load. Measured on a shared, loaded ` +
            `2-core machine (other engineers' jobs ran meanwhile): ratios within the run are what counts. ` +
            `${skipped.length > 0 ? `Not run: ${skipped.join('; ')}.` : ''}`,
          '',
          '| phase | parts delivered | playlist delay p50 / p99 ms | part delay p50 / p99 ms | CPU | machine busy % (stolen) / load1 | errors |',
          '|---|---:|---:|---:|---|---:|---:|',
          ...rows,
          '',
          ...(floor
            ? [
                `**Burst floor** (the fan-out section's: the newest part and its playlist to ${VIEWERS} viewers released at once, ` +
                  `${BURST_ROUNDS} rounds, each with the part newest at that moment, ${(floor.partBytes / 1024).toFixed(0)} KiB on average).`,
                '',
                '| server | deliveries | delay p50 / p99 ms | server CPU ms per viewer | errors |',
                '|---|---:|---:|---:|---:|',
                ...floorRows,
                '',
                floorVerdict(floor.results),
                '',
              ]
            : []),
          `Targets: part p99 per edge process ≤ 1.1× the bare node:http floor — ${ms(edgeP99)} ms against ${ms(bare)} ms ` +
            `(${(edgeP99 / bare).toFixed(2)}×, ${edgeP99 <= 1.1 * bare ? 'met' : 'missed'}); one process: ${ms(oneP99)} ms ` +
            `(${(oneP99 / bare).toFixed(2)}×). Through a cache, part p99: nginx ${cacheVerdict('nginx')}; Varnish ${cacheVerdict('varnish')}.`,
        ].join('\n');
      } finally {
        await publisher.stop();
      }
    } finally {
      for (const child of loaders) {
        await stopChild(child);
      }
      await opened?.close();
      for (const server of servers.reverse()) {
        await server.stop();
      }
      rmSync(socketDir, { recursive: true, force: true });
    }
  });
}
