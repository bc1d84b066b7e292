/**
 * Viewer routing: GraphQL `resolveViewerEndpoint(contentId)` (public; the viewer address from a
 * trusted proxy's X-Forwarded-For, geolocated with geoip-lite, three nodes ranked by distance
 * and load, the gate asked) against GraphQL `stream(id)` (developer token, one stream read), on
 * PostgreSQL (PGlite when none answers). The server runs in a child process (this file, started
 * with AIRWAVE_BENCH_ROUTING_CHILD); two more nodes are registered in its database with fresh
 * heartbeats, so routing ranks three. autocannon runs here.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { measureAlternating } from '../lib/ab-load.js';
import { startApiServer } from '../lib/api-server.js';
import { announceReady, startReadyChild, stopChild } from '../lib/child-process.js';
import { postgresBase, withScratchDatabase } from '../lib/postgres.js';

/** Section title. */
export const title = 'API: resolveViewerEndpoint vs stream(id)';

const DURATION_S = 5;
const WARMUP_S = 2;
const CONNECTIONS = 10;
/** A viewer address geoip-lite places in St Albans, England. */
const VIEWER_IP = '81.2.69.142';

const RESOLVE = `query ($id: String!) { resolveViewerEndpoint(contentId: $id) {
  primary { nodeId baseUrl protocol url geoDistance loadScore outputs }
  fallbacks { nodeId baseUrl protocol url geoDistance loadScore outputs }
  metadata { status isLive viewers title description contentId contentType tracks { type codec width height } } } }`;
const STREAM = `query ($id: ID!) { stream(id: $id) { id streamId name description playbackId record ingestMode createdAt
  metrics { status isLive currentViewers startedAt updatedAt nodeId trackCount }
  tracks { trackId trackType codec codecString width height fps bitrateKbps channels sampleRate } } }`;

interface ChildReady {
  readonly graphqlUrl: string;
  readonly token: string;
  readonly streamId: string;
  readonly playbackId: string;
}

async function childMain(): Promise<void> {
  const { MediaNodesStore } = await import('@airwave/server/domain/node-status/media-nodes.store');
  const { running, graphqlUrl, call, session, token } = await startApiServer({
    AIRWAVE_TRUSTED_PROXIES: '127.0.0.1',
    AIRWAVE_NODE_ID: 'bench-fra',
    AIRWAVE_NODE_LATITUDE: '50.11',
    AIRWAVE_NODE_LONGITUDE: '8.68',
  });
  const created = (
    await call(
      'mutation { createStream(input: { name: "routed", description: "benchmark" }) { ... on Stream { id playbackId } } }',
      {},
      session,
    )
  ).data.createStream as { id: string; playbackId: string };
  const nodes = new MediaNodesStore(running.database.db);
  const others = [
    { id: 'bench-lon', latitude: 51.51, longitude: -0.13 },
    { id: 'bench-nyc', latitude: 40.71, longitude: -74.01 },
  ];
  const beat = async () => {
    for (const other of others) {
      await nodes.upsert(
        {
          id: other.id,
          baseUrl: `http://${other.id}.invalid:8080`,
          version: 'bench',
          startedAt: new Date(),
          heartbeatAt: new Date(),
        },
        {
          role: 'media',
          region: null,
          latitude: other.latitude,
          longitude: other.longitude,
          capacityMbps: 1000,
          mode: 'NORMAL',
          services: [],
          outputs: ['hls', 'llhls', 'dash', 'mp4'],
        },
      );
    }
  };
  await beat();
  const timer = setInterval(() => void beat(), 1000);
  const ready: ChildReady = { graphqlUrl, token, streamId: created.id, playbackId: created.playbackId };
  announceReady(ready, async () => {
    clearInterval(timer);
    await running.close();
  });
}

async function benchBackend(name: string, databaseUrl: string | undefined): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'airwave-bench-routing-'));
  const { child, ready } = await startReadyChild<ChildReady>(import.meta.url, {
    AIRWAVE_BENCH_DATA_DIR: dataDir,
    ...(databaseUrl ? { AIRWAVE_BENCH_DATABASE_URL: databaseUrl } : {}),
    AIRWAVE_BENCH_ROUTING_CHILD: '1',
  });
  try {
    const resolveBody = JSON.stringify({ query: RESOLVE, variables: { id: ready.playbackId } });
    const streamBody = JSON.stringify({ query: STREAM, variables: { id: ready.streamId } });
    const resolveHeaders = { 'content-type': 'application/json', 'x-forwarded-for': VIEWER_IP };
    const check = (await (
      await fetch(ready.graphqlUrl, { method: 'POST', headers: resolveHeaders, body: resolveBody })
    ).json()) as { data?: { resolveViewerEndpoint?: { primary?: { nodeId?: string } } }; errors?: unknown };
    if (check.data?.resolveViewerEndpoint?.primary?.nodeId !== 'bench-lon') {
      throw new Error(`resolveViewerEndpoint did not route to the nearest node: ${JSON.stringify(check)}`);
    }
    const [resolve, stream] = await measureAlternating(
      () => ({
        url: ready.graphqlUrl,
        method: 'POST',
        headers: resolveHeaders,
        body: resolveBody,
        connections: CONNECTIONS,
      }),
      () => ({
        url: ready.graphqlUrl,
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${ready.token}` },
        body: streamBody,
        connections: CONNECTIONS,
      }),
      { warmupS: WARMUP_S, durationS: DURATION_S },
    );
    const bad = resolve.non2xx + resolve.errors + stream.non2xx + stream.errors;
    const ratio = resolve.rps / stream.rps;
    return (
      `| ${name} | ${Math.round(resolve.rps)} | ${resolve.p99.toFixed(1)} | ${Math.round(stream.rps)} | ${stream.p99.toFixed(1)} | ` +
      `**${ratio.toFixed(2)}×** (${ratio >= 1 ? 'met' : 'missed'})${bad > 0 ? ` (${bad} failed requests)` : ''} |`
    );
  } finally {
    await stopChild(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Runs the comparison and returns the Markdown table. */
export async function run(): Promise<string> {
  const loadBefore = loadavg()[0] ?? 0;
  const base = await postgresBase();
  const row = base
    ? await withScratchDatabase(base, (url) => benchBackend('PostgreSQL', url))
    : await benchBackend('PGlite (no PostgreSQL answered)', undefined);
  return [
    `${CONNECTIONS} connections, GraphQL over HTTP on one server process; per row a ${WARMUP_S} s warm-up of each ` +
      `query, then ${DURATION_S} s runs in resolve-stream-stream-resolve order, each figure the mean of its two runs ` +
      `(p99 in ms). \`resolveViewerEndpoint\` answers the primary and both fallbacks with every output URL and the ` +
      `metadata (three registered nodes, the viewer ${VIEWER_IP} from X-Forwarded-For, geoip-lite lookup; the ` +
      `content lookup and the node list are reused for 1 s, as when the viewers of one stream arrive together); ` +
      `\`stream(id)\` reads one stream with a developer token. Target: ≥ 1.0×. Measured on a shared, loaded ` +
      `2-core machine: 1-minute load average ${loadBefore.toFixed(1)} before, ${(loadavg()[0] ?? 0).toFixed(1)} after.`,
    '',
    '| database | resolveViewerEndpoint req/s | p99 ms | stream(id) req/s | p99 ms | resolve / stream |',
    '|---|---:|---:|---:|---:|---:|',
    row,
  ].join('\n');
}

if (process.env.AIRWAVE_BENCH_ROUTING_CHILD) {
  childMain().catch((error: unknown) => {
    console.error('benchmark server failed:', error);
    process.exit(1);
  });
}
