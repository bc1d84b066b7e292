/**
 * API overhead: GraphQL `stream(id)` and `streamsConnection(page {first 50})` against a bare
 * Fastify route returning the same JSON (same service call, same token check, same mapping),
 * on PGlite and on PostgreSQL. Both servers run in one child process (this same file, started
 * with AIRWAVE_BENCH_API_CHILD); the load generator (autocannon) runs here, in the parent, so it
 * does not share the servers' event loop. Measurements run one after another.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type autocannon from 'autocannon';
import { type Measured, measureAlternating } from '../lib/ab-load.js';
import { startApiServer } from '../lib/api-server.js';
import { announceReady, startReadyChild, stopChild } from '../lib/child-process.js';
import { postgresBase, withScratchDatabase } from '../lib/postgres.js';

/** Section title. */
export const title = 'API: GraphQL vs bare Fastify';

const DURATION_S = 5;
const WARMUP_S = 2;
const CONNECTIONS = 10;
const STREAMS = 60;

const STREAM_FIELDS = `id streamId name description streamKey playbackId record ingestMode sourceLocation createdAt updatedAt
  pullSource { sourceUriRedacted class enabled }
  metrics { status isLive currentViewers startedAt updatedAt nodeId trackCount }
  tracks { trackId trackType codec codecString width height fps bitrateKbps channels sampleRate }
  pushTargets { id status platform name targetUri }`;
const STREAM_QUERY = `query ($id: ID!) { stream(id: $id) { ${STREAM_FIELDS} } }`;
const LIST_QUERY = `query { streamsConnection(page: { first: 50 }) {
  totalCount pageInfo { startCursor endCursor hasNextPage hasPreviousPage }
  edges { cursor node { ${STREAM_FIELDS} } } } }`;

/** What the child reports once both servers listen. */
interface ChildReady {
  readonly graphqlUrl: string;
  readonly bareUrl: string;
  readonly token: string;
  readonly streamId: string;
}

async function childMain(): Promise<void> {
  const { Authenticator } = await import('@airwave/server/auth/authenticator');
  const { SessionTokens, generateSessionSecret } = await import('@airwave/server/auth/session-tokens');
  const { streamToGraphQL } = await import('@airwave/server/graphql/modules/streams');
  const { default: Fastify } = await import('fastify');
  const { running, graphqlUrl, call, session, token } = await startApiServer();
  let streamId = '';
  for (let i = 0; i < STREAMS; i++) {
    const created = await call(
      'mutation ($name: String!) { createStream(input: { name: $name, description: "benchmark stream" }) { ... on Stream { id } } }',
      { name: `bench stream ${i}` },
      session,
    );
    streamId = String(created.data.createStream?.id);
  }

  const { services } = running;
  const authenticator = new Authenticator(
    new SessionTokens(generateSessionSecret()),
    services.accounts,
    services.developerTokens,
  );
  const tenantOf = async (authorization: string | undefined) => {
    const { principal } = await authenticator.authenticate({ headers: { authorization } });
    if (!principal) {
      throw new Error('unauthorized');
    }
    return principal.tenantId;
  };
  const bare = Fastify({ logger: false });
  bare.get<{ Params: { id: string } }>('/stream/:id', async (request) => {
    const tenantId = await tenantOf(request.headers.authorization);
    return { data: { stream: streamToGraphQL(await services.streams.get(tenantId, request.params.id)) } };
  });
  bare.get('/streams', async (request) => {
    const tenantId = await tenantOf(request.headers.authorization);
    const connection = await services.streams.list(tenantId, { first: 50 });
    return {
      data: {
        streamsConnection: {
          totalCount: connection.totalCount,
          pageInfo: connection.pageInfo,
          edges: connection.edges.map((edge) => ({ cursor: edge.cursor, node: streamToGraphQL(edge.node) })),
        },
      },
    };
  });
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const address = bare.server.address();
  const barePort = typeof address === 'object' && address ? address.port : 0;
  const ready: ChildReady = { graphqlUrl, bareUrl: `http://127.0.0.1:${barePort}`, token, streamId };
  announceReady(ready, () => Promise.all([bare.close(), running.close()]));
}

/** One target of the load generator. */
interface Target {
  readonly url: string;
  readonly method: 'GET' | 'POST';
  readonly body?: string;
  readonly token: string;
}

function optionsOf(target: Target): autocannon.Options {
  return {
    url: target.url,
    method: target.method,
    headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json' },
    connections: CONNECTIONS,
    ...(target.body ? { body: target.body } : {}),
  };
}

/** Measures two targets in A-B-B-A order (ab-load.ts). */
function measurePair(a: Target, b: Target): Promise<[Measured, Measured]> {
  return measureAlternating(
    () => optionsOf(a),
    () => optionsOf(b),
    { warmupS: WARMUP_S, durationS: DURATION_S },
  );
}

async function sameJson(ready: ChildReady, graphqlBody: string, barePath: string): Promise<void> {
  const headers = { authorization: `Bearer ${ready.token}`, 'content-type': 'application/json' };
  const viaGraphql = await (await fetch(ready.graphqlUrl, { method: 'POST', headers, body: graphqlBody })).json();
  const viaBare = await (await fetch(`${ready.bareUrl}${barePath}`, { headers })).json();
  const canonical = (value: unknown): string =>
    JSON.stringify(value, (_key, v: unknown) =>
      v && typeof v === 'object' && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
        : v,
    );
  if (canonical(viaGraphql) !== canonical(viaBare)) {
    throw new Error(`bare route and GraphQL answer differ for ${barePath}`);
  }
}

async function benchBackend(name: string, databaseUrl: string | undefined): Promise<string[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'airwave-bench-api-'));
  const { child, ready } = await startReadyChild<ChildReady>(import.meta.url, {
    AIRWAVE_BENCH_DATA_DIR: dataDir,
    ...(databaseUrl ? { AIRWAVE_BENCH_DATABASE_URL: databaseUrl } : {}),
    AIRWAVE_BENCH_API_CHILD: '1',
  });
  try {
    const streamBody = JSON.stringify({ query: STREAM_QUERY, variables: { id: ready.streamId } });
    const listBody = JSON.stringify({ query: LIST_QUERY });
    await sameJson(ready, streamBody, `/stream/${encodeURIComponent(ready.streamId)}`);
    await sameJson(ready, listBody, '/streams');
    const rows: string[] = [];
    for (const [label, body, path] of [
      ['`stream(id)`', streamBody, `/stream/${encodeURIComponent(ready.streamId)}`],
      ['`streamsConnection(page {first 50})`', listBody, '/streams'],
    ] as const) {
      const [graphql, bare] = await measurePair(
        { url: ready.graphqlUrl, method: 'POST', body, token: ready.token },
        { url: `${ready.bareUrl}${path}`, method: 'GET', token: ready.token },
      );
      const bad = graphql.non2xx + graphql.errors + bare.non2xx + bare.errors;
      rows.push(
        `| ${name} | ${label} | ${Math.round(graphql.rps)} | ${graphql.p99.toFixed(1)} | ${Math.round(bare.rps)} | ${bare.p99.toFixed(1)} | ` +
          `**${(graphql.rps / bare.rps).toFixed(2)}×**${bad > 0 ? ` (${bad} failed requests)` : ''} |`,
      );
      console.log(rows.at(-1));
    }
    return rows;
  } finally {
    await stopChild(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Runs both backends and returns the Markdown table. */
export async function run(): Promise<string> {
  const loadBefore = loadavg()[0] ?? 0;
  const rows: string[] = [];
  rows.push(...(await benchBackend('PGlite', undefined)));
  const base = await postgresBase();
  if (base) {
    rows.push(...(await withScratchDatabase(base, (url) => benchBackend('PostgreSQL', url))));
  } else {
    rows.push(
      '| PostgreSQL | skipped: no server at TEST_DATABASE_URL or postgres://root@127.0.0.1:5432/test | | | | | |',
    );
  }
  return [
    `${CONNECTIONS} connections; per row a ${WARMUP_S} s warm-up of each server, then ${DURATION_S} s runs in ` +
      `GraphQL-bare-bare-GraphQL order, each figure the mean of its two runs (p99 in ms). autocannon runs in the parent ` +
      `process, both servers in one child process, measured one after the other. The bare route does the same token ` +
      `check (Authenticator with its cache), service call and mapping, and returns JSON equal to the GraphQL answer ` +
      `(checked before measuring). Target: \`stream(id)\` ≥ 0.5× bare. 1-minute load average ` +
      `${loadBefore.toFixed(1)} before, ${(loadavg()[0] ?? 0).toFixed(1)} after (2 cores shared with other work).`,
    '',
    '| database | query | GraphQL req/s | GraphQL p99 ms | bare req/s | bare p99 ms | GraphQL / bare |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...rows,
  ].join('\n');
}

if (process.env.AIRWAVE_BENCH_API_CHILD) {
  childMain().catch((error: unknown) => {
    console.error('benchmark server failed:', error);
    process.exit(1);
  });
}
