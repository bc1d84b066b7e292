/**
 * Push targets (issue 19): CPU per pushed target with 1, 10 and 50 targets spread over 10 live
 * streams, for Airwave's push runner and for nginx-rtmp's own `push` directive relaying the same
 * streams (the same file, the same ffmpeg `-c copy` publishers) to the same receiver — an
 * nginx-rtmp sink — in one run, both servers live side by side. CPU per target is the server's
 * CPU above its own 0-target baseline, divided by the targets. Then a stalled receiver (SIGSTOP)
 * under 10 targets: Airwave's CPU and one LL-HLS viewer's part delivery, before and during.
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
import { type CpuWindow, processTree, sampleWindow } from '../lib/proc-stats.js';

/** Section title. */
export const title = 'Push targets: CPU per pushed target vs nginx-rtmp push, and a stalled receiver';

const STREAMS = 10;
const STEPS = [0, 1, 10, 50];
const WARMUP_S = Number(process.env.BENCH_PUSH_WARMUP_S ?? 8);
const WINDOW_S = Number(process.env.BENCH_PUSH_WINDOW_S ?? 20);
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

/** How many push lines each stream's application has in the nginx relay, and which app stream i uses. */
function relayApp(targets: number, stream: number): string {
  if (targets === 0 || (targets === 1 && stream > 0)) {
    return 'plain';
  }
  return `p${Math.max(1, targets / STREAMS)}`;
}

function targetsOf(targets: number, stream: number): number {
  return targets === 1 ? (stream === 0 ? 1 : 0) : targets / STREAMS;
}

/** Section body: on a scratch PostgreSQL database when one answers (a faster start on a loaded machine), else PGlite. */
export async function run(): Promise<string> {
  const base = await postgresBase();
  return base ? withScratchDatabase(base, (url) => measure({ DATABASE_URL: url })) : measure({});
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
  const rows: string[] = [];
  const out: string[] = [];
  try {
    const token = await registerBenchAccount(airwave);
    const streams: { id: string; streamKey: string; playbackId: string }[] = [];
    for (let i = 0; i < STREAMS; i++) {
      const created = (await graphql(
        airwave,
        'mutation ($n: String!) { createStream(input: { name: $n }) { ... on Stream { id streamKey playbackId } } }',
        { n: `push bench ${i}` },
        token,
      )) as { createStream: { id: string; streamKey: string; playbackId: string } };
      streams.push(created.createStream);
    }
    airwavePublishers = startPublishers(
      media.flv,
      streams.map((s) => `rtmp://127.0.0.1:${airwave.rtmpPort}/live/${s.streamKey}`),
    );
    const made = new Array<number>(STREAMS).fill(0);
    const baseline: Record<string, CpuWindow> = {};
    for (const targets of STEPS) {
      for (let i = 0; i < STREAMS; i++) {
        while (made[i] !== undefined && (made[i] ?? 0) < targetsOf(targets, i)) {
          await graphql(
            airwave,
            'mutation ($s: ID!, $u: String!) { createPushTarget(streamId: $s, input: { name: "bench", targetUri: $u }) { __typename } }',
            { s: streams[i]?.id, u: `rtmp://127.0.0.1:${receiver.port}/live/a${i}_${made[i]}` },
            token,
          );
          made[i] = (made[i] ?? 0) + 1;
        }
      }
      await nginxPublishers?.stop();
      const published = publishesLogged(receiver, 's');
      nginxPublishers = startPublishers(
        media.flv,
        streams.map((_, i) => `rtmp://127.0.0.1:${relay.port}/${relayApp(targets, i)}/s${i}`),
      );
      await new Promise((resolve) => setTimeout(resolve, WARMUP_S * 1000));
      const window = await sampleWindow(
        { airwave: () => processTree(airwave.pid), nginx: () => processTree(relay.child.pid ?? 0) },
        WINDOW_S,
      );
      const pushing = (await graphql(
        airwave,
        'query { streamsConnection(page: { first: 50 }) { nodes { pushTargets { status } } } }',
        {},
        token,
      )) as { streamsConnection: { nodes: { pushTargets: { status: string }[] }[] } };
      const airwavePushing = pushing.streamsConnection.nodes
        .flatMap((n) => n.pushTargets)
        .filter((t) => t.status === 'pushing').length;
      const nginxPushes = publishesLogged(receiver, 's') - published;
      if (targets === 0) {
        baseline.value = window;
      }
      const base = baseline.value ?? window;
      const per = (name: 'airwave' | 'nginx') =>
        targets === 0 ? 0 : ((window.percent[name] ?? 0) - (base.percent[name] ?? 0)) / targets;
      const ratio = per('nginx') > 0 ? (per('airwave') / per('nginx')).toFixed(2) : 'n/a';
      rows.push(
        `| ${targets} | ${airwavePushing} | ${(window.percent.airwave ?? 0).toFixed(1)} % | ${per('airwave').toFixed(2)} % | ${((window.rss.airwave ?? 0) / MIB).toFixed(0)} MiB | ${Math.max(0, nginxPushes)} | ${(window.percent.nginx ?? 0).toFixed(1)} % | ${per('nginx').toFixed(2)} % | ${((window.rss.nginx ?? 0) / MIB).toFixed(0)} MiB | ${ratio} | ${window.machinePercent.toFixed(0)} % |`,
      );
    }
    out.push(
      `${STREAMS} streams (bench/.work source-720p30, ~3 Mb/s, \`ffmpeg -re -stream_loop -1 -c copy\`) published to Airwave and, in the same run, to an nginx-rtmp relay whose applications carry 0, 1 or 5 \`push\` lines; both push to one nginx-rtmp sink. CPU is each server's process over ${WINDOW_S} s after ${WARMUP_S} s warm-up, percent of one core; "per target" is the CPU above that server's 0-target baseline divided by the targets. Airwave "pushing" is what \`stream.pushTargets.status\` reports; nginx "pushed" counts the receiver's new \`publish:\` log lines (the 1-target step re-publishes all relay streams, so it counts every stream's reconnect too).`,
      '',
      '| targets | Airwave pushing | Airwave CPU | Airwave CPU per target | Airwave RSS | nginx pushed | nginx CPU | nginx CPU per target | nginx RSS | Airwave/nginx per target | machine busy |',
      '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...rows,
    );
    await nginxPublishers?.stop();
    nginxPublishers = undefined;
    out.push(
      '',
      ...(await stalledReceiver(airwave, receiver, streams, made).catch((error: unknown) => [
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

/** Airwave with 50 targets: CPU and one LL-HLS viewer's parts, receiver running vs stopped (SIGSTOP). */
async function stalledReceiver(
  airwave: AirwaveProcess,
  receiver: Nginx,
  streams: readonly { playbackId: string }[],
  made: readonly number[],
): Promise<string[]> {
  const playbackId = streams[0]?.playbackId ?? '';
  const mediaUrl = `${airwave.baseUrl}/play/${playbackId}/cmaf/video.m3u8`;
  await waitForLlHls(mediaUrl, Date.now() + 60_000);
  const phase = async (label: string) => {
    const log = new PartLog();
    const errors: string[] = [];
    const until = Date.now() + WINDOW_S * 1000;
    const [window] = await Promise.all([
      sampleWindow({ airwave: () => processTree(airwave.pid) }, WINDOW_S),
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
    return `| ${label} | ${(window.percent.airwave ?? 0).toFixed(1)} % | ${((window.rss.airwave ?? 0) / MIB).toFixed(0)} MiB | ${log.count} | ${percentile(gaps, 50).toFixed(0)} ms | ${percentile(gaps, 95).toFixed(0)} ms | ${errors.length} |`;
  };
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const running = await phase('receiver running');
  receiver.child.kill('SIGSTOP');
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const stalled = await phase('receiver stopped (SIGSTOP)');
  receiver.child.kill('SIGCONT');
  const total = made.reduce((sum, count) => sum + count, 0);
  return [
    `Stalled receiver: Airwave keeps its ${STREAMS} streams and ${total} targets; one LL-HLS viewer (blocking reload) of stream 0 for ${WINDOW_S} s with the receiver running, then with it stopped by SIGSTOP (its sockets stop reading: TCP backpressure on every push, then write stalls and reconnect attempts).`,
    '',
    '| phase | Airwave CPU | Airwave RSS | parts delivered | part gap p50 | part gap p95 | viewer errors |',
    '|---|---:|---:|---:|---:|---:|---:|',
    running,
    stalled,
  ];
}
