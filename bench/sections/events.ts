/**
 * Event latency from publish to subscriber over /graphql/ws with 1,000 open subscriptions.
 * The server runs in this process; the graphql-ws clients run in a child process (this same file,
 * started with AIRWAVE_BENCH_EVENTS_CHILD) so they do not share the server's event loop. Publish
 * and receipt are stamped with the system-wide monotonic clock (process.hrtime), so the two
 * processes' times compare directly. Cases: every subscription on one stream (fan-out of each
 * event to 1,000 subscribers), subscriptions spread over 100 streams, and — with
 * TEST_DATABASE_URL — publishing on one server and subscribing on another through PostgreSQL
 * LISTEN/NOTIFY.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { TestServer } from '@airwave/server/testing/test-server';
import { decodeJwt } from 'jose';
import { createStream, registerAccount } from '../../e2e/support/accounts.js';
import { wsUrl } from '../../e2e/support/subscriptions.js';
import { stopChild } from '../lib/child-process.js';
import { percentile } from '../lib/percentile.js';

/** Section title. */
export const title = 'Events: publish-to-subscriber latency with 1,000 subscriptions';

const SUBSCRIPTIONS = 1000;
const CONNECTIONS = 50;
/** Events published first and not measured (JIT warm-up of both processes). */
const WARMUP_EVENTS = 10;
const QUERY = `subscription ($id: ID!) { liveStreamEvents(streamId: $id) { state details } }`;

interface ChildPlan {
  readonly url: string;
  readonly token: string;
  /** Stream id of each subscription. */
  readonly streams: readonly string[];
  readonly connections: number;
}

type ChildMessage = { type: 'ready' } | { type: 'latencies'; micros: number[]; errors: number };

/** Runs the client side: opens the subscriptions, records latencies until told to report. */
async function runChild(plan: ChildPlan): Promise<void> {
  const { createClient } = await import('graphql-ws');
  const { default: WebSocket } = await import('ws');
  const micros: number[] = [];
  let errors = 0;
  const clients = Array.from({ length: plan.connections }, () =>
    createClient({
      url: plan.url,
      webSocketImpl: WebSocket,
      connectionParams: { authToken: plan.token },
      retryAttempts: 0,
      keepAlive: 0,
    }),
  );
  plan.streams.forEach((streamId, i) => {
    const client = clients[i % clients.length];
    client?.subscribe(
      { query: QUERY, variables: { id: streamId } },
      {
        next: (result) => {
          const now = process.hrtime.bigint();
          const details = (result.data as { liveStreamEvents?: { details?: { t?: string; warmup?: boolean } } } | null)
            ?.liveStreamEvents?.details;
          if (details?.warmup) {
            return;
          }
          if (details?.t) {
            micros.push(Number((now - BigInt(details.t)) / 1000n));
          } else {
            errors++;
          }
        },
        error: () => {
          errors++;
        },
        complete: () => undefined,
      },
    );
  });
  process.send?.({ type: 'ready' } satisfies ChildMessage);
  process.on('message', async (message: { type: string }) => {
    if (message.type === 'report') {
      process.send?.({ type: 'latencies', micros, errors } satisfies ChildMessage);
      await Promise.all(clients.map((client) => client.dispose()));
      process.exit(0);
    }
  });
}

if (process.env.AIRWAVE_BENCH_EVENTS_CHILD) {
  await runChild(JSON.parse(process.env.AIRWAVE_BENCH_EVENTS_CHILD) as ChildPlan);
}

interface CaseResult {
  readonly name: string;
  readonly events: number;
  readonly deliveries: number;
  readonly expected: number;
  readonly errors: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

function startChild(plan: ChildPlan): ChildProcess {
  return fork(fileURLToPath(import.meta.url), [], {
    execArgv: ['--conditions=source', '--import', 'tsx'],
    env: { ...process.env, AIRWAVE_BENCH_EVENTS_CHILD: JSON.stringify(plan) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

async function nextMessage(child: ChildProcess, type: ChildMessage['type']): Promise<ChildMessage> {
  for (;;) {
    const [message] = (await once(child, 'message')) as [ChildMessage];
    if (message.type === type) {
      return message;
    }
  }
}

/** One measured case: subscribers on `subscribeOn`, events published on `publishOn`. */
async function measure(options: {
  name: string;
  publishOn: TestServer;
  subscribeOn: TestServer;
  tenantId: string;
  token: string;
  streams: readonly string[];
  events: number;
  intervalMs: number;
}): Promise<CaseResult> {
  const perStream = new Map<string, number>();
  const plan: ChildPlan = {
    url: wsUrl(options.subscribeOn),
    token: options.token,
    streams: Array.from({ length: SUBSCRIPTIONS }, (_, i) => {
      const streamId = options.streams[i % options.streams.length] as string;
      perStream.set(streamId, (perStream.get(streamId) ?? 0) + 1);
      return streamId;
    }),
    connections: CONNECTIONS,
  };
  const child = startChild(plan);
  try {
    await nextMessage(child, 'ready');
    const bus = options.subscribeOn.running.events;
    const deadline = Date.now() + 60_000;
    while (bus.subscriberCount < SUBSCRIPTIONS) {
      if (Date.now() > deadline) {
        throw new Error(`only ${bus.subscriberCount} of ${SUBSCRIPTIONS} subscriptions opened`);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    for (let i = 0; i < WARMUP_EVENTS; i++) {
      const streamId = options.streams[i % options.streams.length] as string;
      options.publishOn.running.events.publish('stream.live', {
        tenantId: options.tenantId,
        streamId,
        details: { t: String(process.hrtime.bigint()), warmup: true },
      });
      await new Promise((resolve) => setTimeout(resolve, options.intervalMs));
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    let expected = 0;
    for (let i = 0; i < options.events; i++) {
      const streamId = options.streams[i % options.streams.length] as string;
      options.publishOn.running.events.publish('stream.live', {
        tenantId: options.tenantId,
        streamId,
        details: { t: String(process.hrtime.bigint()) },
      });
      expected += perStream.get(streamId) ?? 0;
      await new Promise((resolve) => setTimeout(resolve, options.intervalMs));
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
    child.send({ type: 'report' });
    const report = await nextMessage(child, 'latencies');
    if (report.type !== 'latencies') {
      throw new Error('unexpected message from the client process');
    }
    const sorted = [...report.micros].sort((a, b) => a - b);
    return {
      name: options.name,
      events: options.events,
      deliveries: sorted.length,
      expected,
      errors: report.errors,
      p50: percentile(sorted, 50) / 1000,
      p99: percentile(sorted, 99) / 1000,
      max: (sorted.at(-1) ?? Number.NaN) / 1000,
    };
  } finally {
    await stopChild(child);
  }
}

async function signUp(server: TestServer, streams: number) {
  const { token } = await registerAccount(server, 'bench');
  const ids: string[] = [];
  for (let i = 0; i < streams; i++) {
    ids.push((await createStream(server, token, `bench-${i}`)).streamId);
  }
  const tenantId = decodeJwt(token).tenant;
  if (typeof tenantId !== 'string') {
    throw new Error('the session token names no tenant');
  }
  return { token, tenantId, streams: ids };
}

function table(results: readonly CaseResult[]): string {
  const rows = results.map(
    (r) =>
      `| ${r.name} | ${r.events} | ${r.deliveries} / ${r.expected} | ${r.errors} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.max.toFixed(2)} |`,
  );
  return [
    '| case | events published | deliveries received / expected | errors | p50 ms | p99 ms | max ms |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows,
  ].join('\n');
}

/** Runs every case and answers the Markdown table. */
export async function run(): Promise<string> {
  const { startTestServer } = await import('@airwave/server/testing/test-server');
  const results: CaseResult[] = [];
  const server = await startTestServer({ name: 'pglite' });
  try {
    const account = await signUp(server, 100);
    const tenantId = account.tenantId;
    const first = account.streams.slice(0, 1);
    results.push(
      await measure({
        name: `in-process bus (PGlite), ${SUBSCRIPTIONS} subscriptions on 1 stream, 10 events/s`,
        publishOn: server,
        subscribeOn: server,
        tenantId,
        token: account.token,
        streams: first,
        events: 30,
        intervalMs: 100,
      }),
    );
    results.push(
      await measure({
        name: `in-process bus (PGlite), ${SUBSCRIPTIONS} subscriptions over 100 streams, 100 events/s`,
        publishOn: server,
        subscribeOn: server,
        tenantId,
        token: account.token,
        streams: account.streams,
        events: 300,
        intervalMs: 10,
      }),
    );
  } finally {
    await server.close();
  }
  const databaseUrl = process.env.TEST_DATABASE_URL;
  let note = 'PostgreSQL case skipped: TEST_DATABASE_URL is not set.';
  if (databaseUrl) {
    const { createScratchDatabase } = await import('@airwave/server/testing/databases');
    const scratch = await createScratchDatabase();
    const a = await startTestServer({ name: 'postgres' }, { DATABASE_URL: scratch.url });
    const b = await startTestServer({ name: 'postgres' }, { DATABASE_URL: scratch.url });
    try {
      const account = await signUp(a, 1);
      const tenantId = account.tenantId;
      results.push(
        await measure({
          name: `published on server A, ${SUBSCRIPTIONS} subscriptions on server B via LISTEN/NOTIFY, 1 stream, 10 events/s`,
          publishOn: a,
          subscribeOn: b,
          tenantId,
          token: account.token,
          streams: account.streams,
          events: 30,
          intervalMs: 100,
        }),
      );
      note = '';
    } finally {
      await b.close();
      await a.close();
      await scratch.drop();
    }
  }
  return [
    `${SUBSCRIPTIONS} graphql-ws subscriptions over ${CONNECTIONS} connections in a separate client process; ` +
      'latency = receipt in the client minus publish on the server (system monotonic clock), per delivery, ' +
      `after ${WARMUP_EVENTS} unmeasured warm-up events. Load average at the end: ${loadavg()[0]?.toFixed(1)} on ${cpus().length} cores.`,
    '',
    table(results),
    ...(note ? ['', note] : []),
  ].join('\n');
}
