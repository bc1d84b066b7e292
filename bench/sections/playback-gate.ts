/**
 * Playback gate overhead: requests/s and p99 of one classic-HLS segment of a live stream served
 * publicly, through the ES256 JWT gate (`?jwt=`), and through a cached webhook decision, all in
 * one run against one server. The server runs in a child process (this file, started with
 * AIRWAVE_BENCH_GATE_CHILD) fed with real ffmpeg-encoded media; autocannon runs here.
 */
import { signPlaybackToken } from '@airwave/server/domain/playback-access/sign-playback-token';
import type autocannon from 'autocannon';
import { announceReady, startReadyChild, stopChild } from '../lib/child-process.js';
import { load } from '../lib/load.js';

/** Section title. */
export const title = 'Playback gate: JWT and webhook vs public segment requests';

const ROUND_S = 2;
const ROUNDS = 5;
const WARMUP_S = 2;
const CONNECTIONS = 10;
const FRESH_TOKENS = 30_000;
const DECISIONS = 20_000;

/** What the child reports once the streams are live. */
interface ChildReady {
  readonly urls: { readonly public: string; readonly jwt: string; readonly webhook: string };
  readonly segmentBytes: number;
  /** Microseconds per access decision, measured in the server process (no HTTP). */
  readonly costs: { readonly public: number; readonly jwt: number; readonly webhook: number; readonly fresh: number };
  /** To sign a fresh token per request (uncached signature checks). */
  readonly signer: { readonly privateKeyPem: string; readonly kid: string; readonly playbackId: string };
}

async function childMain(): Promise<void> {
  const { mkdtempSync } = await import('node:fs');
  const { createServer } = await import('node:http');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { encodeTestMedia } = await import('@airwave/media/testing/ffmpeg-media');
  const { testSourceArgs } = await import('@airwave/media/testing/test-source');
  const { unitsOfPass } = await import('@airwave/media/testing/live-feed');
  const { startTestServer } = await import('@airwave/server/testing/test-server');
  const support = await import('../../e2e/support/playback-access.js');
  const dir = mkdtempSync(join(tmpdir(), 'airwave-bench-gate-'));
  const media = encodeTestMedia(
    dir,
    testSourceArgs({ seconds: 6, gop: 60, video: ['-c:v', 'libx264', '-preset', 'veryfast', '-b:v', '200k'] }),
  );
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
  const { createStream, registerAccount } = await import('../../e2e/support/accounts.js');
  const owner = (await registerAccount(server, 'bench')).token;
  const key = await support.createSigningKey(server, owner, 'bench');
  const streams = {
    public: await createStream(server, owner, 'public'),
    jwt: await createStream(server, owner, 'jwt'),
    webhook: await createStream(server, owner, 'webhook'),
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
  const access = server.running.services.playbackAccess;
  const decisionCost = async (playbackId: string, tokenOf: (i: number) => string | undefined): Promise<number> => {
    const started = performance.now();
    for (let i = 0; i < DECISIONS; i++) {
      const decision = await access.decide({
        playbackId,
        token: tokenOf(i),
        viewerIp: '127.0.0.1',
        requestUrl: '/play/x/hls/seg-1.ts',
        protocol: 'hls',
        sessionId: 'bench-session',
      });
      if (!decision.allowed) {
        throw new Error(`decision cost: ${playbackId} refused (${decision.reason})`);
      }
    }
    return ((performance.now() - started) * 1000) / DECISIONS;
  };
  const exp = Math.floor(Date.now() / 1000) + 3600;
  const fresh = Array.from({ length: 2000 }, (_, jti) =>
    signPlaybackToken(key.privateKeyPem, { sub: streams.jwt.playbackId, exp, jti }, { kid: key.kid }),
  );
  const costs = {
    public: await decisionCost(streams.public.playbackId, () => undefined),
    jwt: await decisionCost(streams.jwt.playbackId, () => token),
    webhook: await decisionCost(streams.webhook.playbackId, () => undefined),
    fresh: await decisionCost(streams.jwt.playbackId, (i) => fresh[i % fresh.length]),
  };
  const ready: ChildReady = {
    costs,
    urls,
    segmentBytes: sizes[0] ?? 0,
    signer: { privateKeyPem: key.privateKeyPem, kid: key.kid, playbackId: streams.jwt.playbackId },
  };
  announceReady(ready, () => Promise.all([server.close(), new Promise((resolve) => hook.close(resolve))]));
}

/** One autocannon run of a case. */
interface Sample {
  readonly rps: number;
  readonly p99: number;
  readonly bytesPerRequest: number;
  readonly bad: number;
}

/** A case: its URL and, for per-request tokens, the path of each request. */
interface Case {
  readonly label: string;
  readonly url: string;
  /** Microseconds per access decision in the server process. */
  readonly cost: number;
  readonly pathOf?: () => string;
}

function options(c: Case, duration: number): autocannon.Options {
  const pathOf = c.pathOf;
  return {
    url: c.url,
    duration,
    connections: CONNECTIONS,
    headers: { 'user-agent': 'airwave-bench' },
    ...(pathOf ? { requests: [{ setupRequest: (request) => ({ ...request, path: pathOf() }) }] } : {}),
  };
}

async function sample(c: Case): Promise<Sample> {
  const result = await load(options(c, ROUND_S));
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    bytesPerRequest: result.requests.total > 0 ? Math.round(result.throughput.total / result.requests.total) : 0,
    bad: result.non2xx + result.errors,
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** Paths of the JWT segment, each with a token of its own (more tokens than the verifier caches). */
function freshTokenPaths(ready: ChildReady): () => string {
  const url = new URL(ready.urls.jwt);
  url.searchParams.delete('jwt');
  const exp = Math.floor(Date.now() / 1000) + 3600;
  const tokens = Array.from({ length: FRESH_TOKENS }, (_, jti) =>
    signPlaybackToken(
      ready.signer.privateKeyPem,
      { sub: ready.signer.playbackId, exp, jti },
      { kid: ready.signer.kid },
    ),
  );
  let next = 0;
  return () => `${url.pathname}?jwt=${tokens[next++ % tokens.length]}`;
}

/** Measures the three cases and returns the Markdown table. */
export async function run(): Promise<string> {
  const { child, ready } = await startReadyChild<ChildReady>(import.meta.url, { AIRWAVE_BENCH_GATE_CHILD: '1' });
  try {
    const cases: Case[] = [
      { label: 'public (PUBLIC policy, gate consulted)', url: ready.urls.public, cost: ready.costs.public },
      { label: 'JWT policy, `?jwt=` ES256 token', url: ready.urls.jwt, cost: ready.costs.jwt },
      { label: 'WEBHOOK policy, cached session decision', url: ready.urls.webhook, cost: ready.costs.webhook },
      {
        label: `JWT policy, a new token on every request (${FRESH_TOKENS} tokens: signature checked each time)`,
        url: ready.urls.jwt,
        pathOf: freshTokenPaths(ready),
        cost: ready.costs.fresh,
      },
    ];
    for (const c of cases) {
      await load(options(c, WARMUP_S));
    }
    const samples = new Map<Case, Sample[]>(cases.map((c) => [c, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const c of cases) {
        samples.get(c)?.push(await sample(c));
      }
    }
    const summary = cases.map((c) => {
      const list = samples.get(c) ?? [];
      return {
        label: c.label,
        cost: c.cost,
        rps: median(list.map((s) => s.rps)),
        p99: median(list.map((s) => s.p99)),
        bytes: median(list.map((s) => s.bytesPerRequest)),
        bad: list.reduce((sum, s) => sum + s.bad, 0),
      };
    });
    const publicRps = summary[0]?.rps ?? 1;
    return [
      `Same ${ready.segmentBytes}-byte MPEG-TS segment (320x180 H.264 at 200 kb/s + AAC, 2 s) of three live streams on one server ` +
        "(the server's own /play routes and access gate), server in a child process, autocannon " +
        `${CONNECTIONS} connections here. Cases interleaved: ${ROUNDS} rounds of ${ROUND_S} s after a ${WARMUP_S} s ` +
        'warm-up each; medians. Target: protected ≥ 0.8× public. "decision µs": mean cost of one access ' +
        `decision (PlaybackAccessService.decide, ${DECISIONS} calls, in the server process, no HTTP).`,
      '',
      '| case | req/s | p99 ms | bytes/req | vs public | decision µs |',
      '|---|---|---|---|---|---|',
      ...summary.map(
        (m) =>
          `| ${m.label} | ${Math.round(m.rps)} | ${m.p99} | ${m.bytes} | **${(m.rps / publicRps).toFixed(2)}×**` +
          `${m.bad > 0 ? ` (${m.bad} failed)` : ''} | ${m.cost.toFixed(1)} |`,
      ),
    ].join('\n');
  } finally {
    await stopChild(child);
  }
}

if (process.env.AIRWAVE_BENCH_GATE_CHILD === '1') {
  await childMain();
}
