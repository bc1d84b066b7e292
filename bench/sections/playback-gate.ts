/**
 * Playback gate overhead: requests/s and p99 of one classic-HLS segment of a live stream served
 * publicly, through the ES256 JWT gate (`?jwt=`), and through a cached webhook decision, all in
 * one run against one server. The server runs in a child process (this file, started with
 * AIRWAVE_BENCH_GATE_CHILD) fed with real ffmpeg-encoded media; autocannon runs here.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

/** Section title. */
export const title = 'Playback gate: JWT and webhook vs public segment requests';

const DURATION_S = 6;
const WARMUP_S = 2;
const CONNECTIONS = 10;

/** What the child reports once the streams are live. */
interface ChildReady {
  readonly urls: { readonly public: string; readonly jwt: string; readonly webhook: string };
  readonly segmentBytes: number;
}

async function childMain(): Promise<void> {
  const { mkdtempSync } = await import('node:fs');
  const { createServer } = await import('node:http');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { encodeTestMedia } = await import('@airwave/media/testing/ffmpeg-media');
  const { unitsOfPass } = await import('@airwave/media/testing/live-feed');
  const { signPlaybackToken } = await import('@airwave/server/domain/playback-access/sign-playback-token');
  const { startTestServer } = await import('@airwave/server/testing/test-server');
  const support = await import('../../e2e/playback-access-support.js');
  const dir = mkdtempSync(join(tmpdir(), 'airwave-bench-gate-'));
  const media = encodeTestMedia(dir, [
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=640x360:rate=30',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440',
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-pix_fmt',
    'yuv420p',
    '-g',
    '60',
    '-c:a',
    'aac',
    '-t',
    '6',
  ]);
  const hookCalls = { count: 0 };
  const hook = createServer((request, response) => {
    hookCalls.count++;
    request.resume();
    request.on('end', () => response.writeHead(200).end());
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  const hookPort = (hook.address() as { port: number }).port;
  const server = await startTestServer({ name: 'pglite' }, { AIRWAVE_API_RATE_LIMIT: '0' });
  const plane = support.playbackPlane(server);
  const { registerAccount } = await import('../../e2e/support/accounts.js');
  const owner = (await registerAccount(server, 'bench')).token;
  const key = await support.createSigningKey(server, owner, 'bench');
  const streams = {
    public: await support.createStream(server, owner, 'public'),
    jwt: await support.createStream(server, owner, 'jwt'),
    webhook: await support.createStream(server, owner, 'webhook'),
  };
  await support.setPlaybackPolicy(server, owner, streams.jwt.id, { type: 'JWT', jwt: { allowedKids: [key.kid] } });
  await support.setPlaybackPolicy(server, owner, streams.webhook.id, {
    type: 'WEBHOOK',
    webhook: { url: `http://127.0.0.1:${hookPort}/hook`, secret: 'benchmark-webhook-secret-000000' },
  });
  for (const stream of Object.values(streams)) {
    const publisher = server.running.hub.publish({ streamId: stream.streamId, playbackId: stream.playbackId }, 'rtmp');
    publisher.setDescription({ tracks: media.tracks });
    for (let pass = 0; pass < 3; pass++) {
      for (const unit of unitsOfPass(media.tracks, media.units, pass)) {
        publisher.write(unit);
      }
    }
  }
  const token = signPlaybackToken(
    key.privateKeyPem,
    { sub: streams.jwt.playbackId, exp: Math.floor(Date.now() / 1000) + 3600 },
    { kid: key.kid },
  );
  const segmentOf = async (playbackId: string, query: string): Promise<string> => {
    const base = `${plane.playBase}/play/${playbackId}/hls/`;
    const multivariant = await (await fetch(`${base}index.m3u8${query}`)).text();
    const mediaUri = multivariant.split('\n').find((line) => line !== '' && !line.startsWith('#')) ?? '';
    const playlist = await (await fetch(new URL(mediaUri, base))).text();
    const segment = playlist.split('\n').find((line) => line.endsWith('.ts') || line.includes('.ts?')) ?? '';
    return new URL(segment, base).toString();
  };
  const urls = {
    public: await segmentOf(streams.public.playbackId, ''),
    jwt: await segmentOf(streams.jwt.playbackId, `?jwt=${token}`),
    webhook: await segmentOf(streams.webhook.playbackId, ''),
  };
  const sizes = await Promise.all(
    Object.values(urls).map(async (url) => {
      const response = await fetch(url);
      if (response.status !== 200) {
        throw new Error(`${url} answered ${response.status}`);
      }
      return (await response.arrayBuffer()).byteLength;
    }),
  );
  const denied = await fetch(urls.jwt.replace(/[?&]jwt=[^&]*/, ''));
  if (denied.status !== 401 || hookCalls.count !== 1) {
    throw new Error(`gate not in force: no-token status ${denied.status}, webhook calls ${hookCalls.count}`);
  }
  const ready: ChildReady = { urls, segmentBytes: sizes[0] ?? 0 };
  console.log(`BENCH_READY ${JSON.stringify(ready)}`);
  process.on('SIGTERM', () => {
    void Promise.all([server.close(), new Promise((resolve) => hook.close(resolve))]).finally(() => process.exit(0));
  });
}

function startChild(): Promise<{ child: ChildProcess; ready: ChildReady }> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', fileURLToPath(import.meta.url)], {
    env: { ...process.env, AIRWAVE_BENCH_GATE_CHILD: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.on('line', (line) => {
      if (line.startsWith('BENCH_READY ')) {
        resolve({ child, ready: JSON.parse(line.slice('BENCH_READY '.length)) as ChildReady });
      }
    });
    child.once('exit', (code) => reject(new Error(`benchmark server exited with ${code}`)));
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) {
    return;
  }
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

function load(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

async function measure(url: string): Promise<{ rps: number; p99: number; bad: number }> {
  const options: autocannon.Options = { url, connections: CONNECTIONS, headers: { 'user-agent': 'airwave-bench' } };
  await load({ ...options, duration: WARMUP_S });
  const result = await load({ ...options, duration: DURATION_S });
  return { rps: result.requests.average, p99: result.latency.p99, bad: result.non2xx + result.errors };
}

/** Measures the three cases and returns the Markdown table. */
export async function run(): Promise<string> {
  const { child, ready } = await startChild();
  try {
    const results = {
      public: await measure(ready.urls.public),
      jwt: await measure(ready.urls.jwt),
      webhook: await measure(ready.urls.webhook),
    };
    const rows = (
      [
        ['public (PUBLIC policy, gate consulted)', results.public],
        ['JWT policy, `?jwt=` ES256 token', results.jwt],
        ['WEBHOOK policy, cached session decision', results.webhook],
      ] as const
    ).map(
      ([label, m]) =>
        `| ${label} | ${Math.round(m.rps)} | ${m.p99} | **${(m.rps / results.public.rps).toFixed(2)}×**` +
        `${m.bad > 0 ? ` (${m.bad} failed)` : ''} |`,
    );
    return [
      `Same ${ready.segmentBytes}-byte MPEG-TS segment (640x360 H.264 + AAC, 2 s) of three live streams on one server ` +
        "(the server's own /play routes and access gate), " +
        `autocannon ${CONNECTIONS} connections, ${DURATION_S} s after ${WARMUP_S} s warm-up, server in a child process. ` +
        'Target: protected ≥ 0.8× public.',
      '',
      '| case | req/s | p99 ms | vs public |',
      '|---|---|---|---|',
      ...rows,
    ].join('\n');
  } finally {
    await stopChild(child);
  }
}

if (process.env.AIRWAVE_BENCH_GATE_CHILD === '1') {
  await childMain();
}
