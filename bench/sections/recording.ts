/**
 * Recording (issue 14): (1) CPU and RSS per stream of Airwave with `record: true` against the same
 * streams not recorded — with the default on-demand packaging and with every stream packaged live
 * (`AIRWAVE_PACKAGING=always`) — and against nginx-rtmp `record all` (FLV files), one server after the
 * other, fed by the same `ffmpeg -re -stream_loop -1 -c copy` pushes of the 720p30 bench file, and
 * nginx-rtmp with `record off` (its own base, so its recording overhead is in the same run);
 * (2) time from createClip to a playable clip (HLS over CMAF answers at once; MP4 + MPEG-TS
 * renditions `ready`) for a 30 s and a 10 min clip of a 10-minute 720p recording made at full
 * speed; (3) poster + 10 × 10 sprite time of that recording (the sprite of anything ≥ 100 segments
 * decodes the keyframes of 100 segments, so an hour is the same work as ten minutes).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '@airwave/media';
import { readRecordingIndex } from '@airwave/server/domain/recordings/segment-index';
import { leaderSegments } from '@airwave/server/domain/recordings/segment-selection';
import { ThumbnailJobs } from '@airwave/server/jobs/thumbnails/thumbnail-jobs';
import { LocalStorage } from '@airwave/server/storage/local-storage';
import { type AirwaveProcess, graphql, registerBenchAccount, startAirwave } from '../lib/airwave-server.js';
import { benchMedia, startPublishers } from '../lib/media-file.js';
import { type MediaServerProcess, startNginxRtmpRecord } from '../lib/peers.js';
import { CLOCK_TICKS, processTree, reapedChildTicks, sampleWindow } from '../lib/proc-stats.js';

/** Section title. */
export const title = 'Recording: CPU per recorded stream, createClip to playable, sprite + poster time';

const STEPS = (process.env.BENCH_RECORDING_STREAMS ?? '1,10,50').split(',').map(Number);
const WARMUP_S = Number(process.env.BENCH_RECORDING_WARMUP_S ?? 8);
const WINDOW_S = Number(process.env.BENCH_RECORDING_WINDOW_S ?? 15);
const LOOPS = Number(process.env.BENCH_RECORDING_LOOPS ?? 30);
/** Packaging modes measured (`BENCH_RECORDING_PACKAGING=on-demand` skips the always-packaged pair). */
const PACKAGINGS = (process.env.BENCH_RECORDING_PACKAGING ?? 'on-demand,always').split(',') as Packaging[];
const MIB = 2 ** 20;

/** The Airwave configurations measured: default on-demand packaging, and every stream packaged live (`AIRWAVE_PACKAGING=always`). */
type Packaging = 'on-demand' | 'always';

/** Row name of an Airwave configuration. */
function airwaveName(record: boolean, packaging: Packaging): string {
  const suffix = packaging === 'always' ? ', packaging always' : '';
  return record ? `Airwave (record: true${suffix})` : `Airwave (not recorded${suffix})`;
}

async function airwaveStreams(
  record: boolean,
  packaging: Packaging,
  storageDir: string,
): Promise<MediaServerProcess & { server: AirwaveProcess }> {
  const server = await startAirwave({
    AIRWAVE_STORAGE_DIR: storageDir,
    ...(packaging === 'always' ? { AIRWAVE_PACKAGING: 'always' } : {}),
  });
  const token = await registerBenchAccount(server);
  const urls: string[] = [];
  for (let i = 0; i < Math.max(...STEPS); i++) {
    const created = (await graphql(
      server,
      'mutation ($record: Boolean) { createStream(input: { name: "rec bench", record: $record }) { ... on Stream { streamKey } } }',
      { record },
      token,
    )) as { createStream: { streamKey: string } };
    urls.push(`rtmp://127.0.0.1:${server.rtmpPort}/live/${created.createStream.streamKey}`);
  }
  return {
    server,
    name: airwaveName(record, packaging),
    pid: server.rootPid,
    rtmpUrl: (index) => urls[index - 1] as string,
    verify: async () => undefined,
    stop: () => server.stop(),
  };
}

interface CpuRow {
  readonly name: string;
  readonly streams: number;
  /** Total CPU (the tree's live processes and the children it reaped during the window), % of one core. */
  readonly cpu: number;
  /** Of which short-lived children (live poster ffmpeg jobs), % of one core. */
  readonly children: number;
  readonly rss: number;
}

async function measure(peer: MediaServerProcess, file: string): Promise<CpuRow[]> {
  const rows: CpuRow[] = [];
  const publishers = startPublishers(file);
  try {
    let running = 0;
    for (const streams of STEPS) {
      publishers.add(Array.from({ length: streams - running }, (_, i) => peer.rtmpUrl(running + i + 1)));
      running = streams;
      await new Promise((resolve) => setTimeout(resolve, WARMUP_S * 1000));
      const reapedBefore = reapedChildTicks(peer.pid);
      const window = await sampleWindow({ server: () => processTree(peer.pid) }, WINDOW_S);
      const reaped = ((reapedChildTicks(peer.pid) - reapedBefore) / CLOCK_TICKS / window.seconds) * 100;
      rows.push({
        name: peer.name,
        streams,
        cpu: (window.percent.server ?? 0) + reaped,
        children: reaped,
        rss: window.rss.server ?? 0,
      });
    }
  } finally {
    await publishers.stop();
  }
  return rows;
}

async function waitUntil<T>(check: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error('timed out');
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function clipsAndSprites(file: string, storageDir: string): Promise<string[]> {
  const server = await startAirwave({ AIRWAVE_STORAGE_DIR: storageDir, AIRWAVE_RECONNECT_WINDOW_SECONDS: '1' });
  try {
    const token = await registerBenchAccount(server);
    const created = (await graphql(
      server,
      'mutation { createStream(input: { name: "long", record: true }) { ... on Stream { id streamKey } } }',
      {},
      token,
    )) as { createStream: { id: string; streamKey: string } };
    const { id, streamKey } = created.createStream;
    const pushStart = Date.now();
    const push = spawn(
      'ffmpeg',
      [
        '-nostdin',
        '-v',
        'error',
        '-stream_loop',
        String(LOOPS - 1),
        '-i',
        file,
        '-c',
        'copy',
        '-f',
        'flv',
        `rtmp://127.0.0.1:${server.rtmpPort}/live/${streamKey}`,
      ],
      { stdio: 'ignore' },
    );
    await once(push, 'exit');
    const pushSeconds = (Date.now() - pushStart) / 1000;
    const dvr = await waitUntil(async () => {
      const data = (await graphql(
        server,
        'query ($id: ID) { storageArtifactsConnection(input: { kinds: [DVR], streamId: $id }) { nodes { id status durationSeconds } } }',
        { id },
        token,
      )) as { storageArtifactsConnection: { nodes: { id: string; status: string; durationSeconds: number }[] } };
      return data.storageArtifactsConnection.nodes.find((node) => node.status === 'completed');
    }, 120_000);
    const lines = [
      `A ${dvr.durationSeconds.toFixed(0)} s 720p30 recording was pushed at full speed in ${pushSeconds.toFixed(1)} s (${(dvr.durationSeconds / pushSeconds).toFixed(1)}× real time).`,
      '',
      '| clip | createClip answered ms | HLS (CMAF) playlist 200 ms | MP4 + TS renditions ready ms | target |',
      '|---|---:|---:|---:|---|',
    ];
    for (const [label, seconds, target] of [
      ['30 s', 30, 1000],
      ['10 min', Math.min(590, Math.floor(dvr.durationSeconds) - 5), 3000],
    ] as const) {
      const started = performance.now();
      const clip = (
        (await graphql(
          server,
          'mutation ($input: CreateClipInput!) { createClip(input: $input) { __typename ... on Clip { id playbackId duration } } }',
          { input: { streamId: id, title: label, mode: 'CLIP_NOW', duration: seconds } },
          token,
        )) as { createClip: { id: string; playbackId: string; duration: number } }
      ).createClip;
      const answered = performance.now() - started;
      await waitUntil(async () => {
        const response = await fetch(`${server.baseUrl}/play/${clip.playbackId}/cmaf/index.m3u8`);
        await response.arrayBuffer();
        return response.status === 200 ? true : undefined;
      }, 10_000);
      const playable = performance.now() - started;
      await waitUntil(async () => {
        const data = (await graphql(
          server,
          'query ($id: ID!) { clip(id: $id) { status } }',
          { id: clip.id },
          token,
        )) as {
          clip: { status: string };
        };
        return data.clip.status === 'ready' ? true : undefined;
      }, 120_000);
      const ready = performance.now() - started;
      lines.push(
        `| ${label} (snapped ${clip.duration.toFixed(1)} s) | ${answered.toFixed(0)} | **${playable.toFixed(0)}** | ${ready.toFixed(0)} | playable < ${target} ms: ${playable < target ? 'met' : 'missed'} |`,
      );
    }
    const storage = new LocalStorage(storageDir);
    const recordingId = Buffer.from(dvr.id, 'base64').toString('utf8').split(':')[1] as string;
    const prefix = `recordings/${recordingId}/`;
    const video = leaderSegments(await readRecordingIndex(storage, prefix));
    const thumbnails = new ThumbnailJobs({ storage, log: silentLogger });
    const timing = await thumbnails.images(prefix, video, 'bench-sprite/');
    const total = timing.posterMs + timing.spriteMs;
    lines.push(
      '',
      `Poster + sprite of the ${dvr.durationSeconds.toFixed(0)} s recording (${video.length} segments): poster ${timing.posterMs} ms, sprite sheet + VTT ${timing.spriteMs} ms, **${(total / 1000).toFixed(2)} s** in all. An hour is ${Math.round(3600 / 2)} segments; the sprite reads 100 of them either way, so per hour of 720p it is the same work (target ≤ 10 s per hour: ${total <= 10_000 ? 'met' : 'missed'}).`,
    );
    return lines;
  } finally {
    await server.stop();
  }
}

/** Runs the section. */
export async function run(): Promise<string> {
  const file = benchMedia().flv;
  const rows: CpuRow[] = [];
  const skipped: string[] = [];
  for (const packaging of PACKAGINGS) {
    for (const record of [false, true]) {
      const storageDir = mkdtempSync(join(tmpdir(), 'airwave-bench-rec-'));
      const peer = await airwaveStreams(record, packaging, storageDir);
      try {
        rows.push(...(await measure(peer, file)));
      } finally {
        await peer.stop();
        rmSync(storageDir, { recursive: true, force: true });
      }
    }
  }
  for (const record of [false, true]) {
    const nginx = await startNginxRtmpRecord(record);
    if (!nginx.ok) {
      skipped.push(nginx.reason);
      continue;
    }
    try {
      rows.push(...(await measure(nginx.peer, file)));
      const problem = await nginx.peer.verify(1);
      if (problem) {
        skipped.push(problem);
      }
    } finally {
      await nginx.peer.stop();
    }
  }
  const storageDir = mkdtempSync(join(tmpdir(), 'airwave-bench-clips-'));
  let clipLines: string[];
  try {
    clipLines = await clipsAndSprites(file, storageDir);
  } finally {
    rmSync(storageDir, { recursive: true, force: true });
  }
  const perStream = (name: string, streams: number) => {
    const row = rows.find((entry) => entry.name === name && entry.streams === streams);
    return row ? row.cpu / streams : undefined;
  };
  const lines = [
    `Loaded machine: load average ${loadavg()
      .map((value) => value.toFixed(1))
      .join(
        ' / ',
      )} at the end (2 cores, shared); ${WARMUP_S} s warm-up, ${WINDOW_S} s window per step. CPU = the server's process tree (/proc) plus the children it reaped during the window (Airwave's live-poster ffmpeg jobs), % of one core; RSS at the end of the window.`,
    '',
    '| server | streams | CPU % | of which short-lived children % | CPU % per stream | RSS MiB |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows.map(
      (row) =>
        `| ${row.name} | ${row.streams} | ${row.cpu.toFixed(1)} | ${row.children.toFixed(1)} | **${(row.cpu / row.streams).toFixed(2)}** | ${(row.rss / MIB).toFixed(1)} |`,
    ),
    '',
    'Recording overhead per stream = recorded / not recorded − 1 of the same server (in the same packaging mode), each measured alone with the same pushes. The target (≤ 10 %) is judged on the default, on-demand packaging (an unwatched stream is only ingested, so recording is most of what it costs); with every stream packaged live the same recorder is set against a larger base. nginx-rtmp `record all` against `record off` is the peer’s own recording overhead in the same run.',
    '',
    '| streams | recording overhead, on-demand packaging (default) | recording overhead, packaging always | nginx-rtmp recording overhead | Airwave recorded (default) / nginx-rtmp record all |',
    '|---:|---:|---:|---:|---:|',
    ...STEPS.map((streams) => {
      const overhead = (recordedName: string, plainName: string) => {
        const recorded = perStream(recordedName, streams);
        const plain = perStream(plainName, streams);
        return recorded !== undefined && plain ? `${((recorded / plain - 1) * 100).toFixed(0)} %` : '—';
      };
      const airwave = (packaging: Packaging) => overhead(airwaveName(true, packaging), airwaveName(false, packaging));
      const recorded = perStream(airwaveName(true, 'on-demand'), streams);
      const nginxCpu = perStream('nginx-rtmp record all', streams);
      const ratio = recorded !== undefined && nginxCpu ? `${(recorded / nginxCpu).toFixed(2)}×` : '—';
      const nginx = overhead('nginx-rtmp record all', 'nginx-rtmp not recorded');
      return `| ${streams} | **${airwave('on-demand')}** | ${airwave('always')} | ${nginx} | ${ratio} |`;
    }),
    ...(skipped.length > 0 ? ['', `Notes: ${skipped.join('; ')}`] : []),
    '',
    ...clipLines,
  ];
  return lines.join('\n');
}
