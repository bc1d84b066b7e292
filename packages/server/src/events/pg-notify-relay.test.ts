import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { silentLogger } from '@airwave/media';
import { until } from '@airwave/media/testing/until';
import pg from 'pg';
import { createScratchDatabase, postgresMissing, type ScratchDatabase } from '../testing/databases.js';
import { EventBus } from './event-bus.js';
import type { AnyBusEvent } from './event-map.js';
import { EVENTS_CHANNEL, PgNotifyRelay } from './pg-notify-relay.js';

const skip = postgresMissing;

interface Node {
  bus: EventBus;
  relay: PgNotifyRelay;
  pool: pg.Pool;
  seen: AnyBusEvent[];
}

async function startNode(url: string, lease?: { renewMs: number; leaseMs: number; channel: string }): Promise<Node> {
  const pool = new pg.Pool({ connectionString: url, max: 3 });
  // As the service's pool does (db/database.ts): an idle client ended by pg_terminate_backend in
  // the reconnect test emits 'error' on the pool, which must not end the test process.
  pool.on('error', () => undefined);
  const bus = new EventBus();
  const relay = new PgNotifyRelay({
    pool,
    bus,
    log: silentLogger,
    minBackoffMs: 20,
    maxBackoffMs: 200,
    ...(lease ? { interestRenewMs: lease.renewMs, interestLeaseMs: lease.leaseMs, channel: lease.channel } : {}),
  });
  bus.useTransport(relay);
  await relay.start();
  const seen: AnyBusEvent[] = [];
  bus.subscribe({ tenantId: 't-1', names: lease ? ['stream.live'] : undefined }, (event) => seen.push(event));
  return { bus, relay, pool, seen };
}

describe('PgNotifyRelay (PostgreSQL LISTEN/NOTIFY)', { skip }, () => {
  let scratch: ScratchDatabase;
  let a: Node;
  let b: Node;
  before(async () => {
    scratch = await createScratchDatabase();
    a = await startNode(scratch.url);
    b = await startNode(scratch.url);
  });
  after(async () => {
    for (const node of [a, b]) {
      await node?.bus.close();
      await node?.pool.end();
    }
    await scratch?.drop();
  });

  it('carries events to the other process in publish order, once, without echo to the sender', async () => {
    const published = [
      a.bus.publish('stream.live', { tenantId: 't-1', streamId: 's-1', details: { protocol: 'rtmp' } }),
      a.bus.publish('stream.reconnecting', { tenantId: 't-1', streamId: 's-1', reason: 'dropped' }),
      a.bus.publish('stream.offline', { tenantId: 't-1', streamId: 's-1' }),
    ];
    await until(() => b.seen.length >= 3, 'three events on B');
    assert.deepEqual(
      b.seen.map((e) => e.id),
      published.map((e) => e.id),
    );
    assert.deepEqual(b.seen[0], published[0]);
    await a.relay.flushed();
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(a.seen.length, 3, 'A saw its own events once (locally), not again from NOTIFY');
    assert.equal(b.seen.length, 3);
  });

  it('carries a burst of events queued together (more than one query holds) in publish order, each once', async () => {
    const count = b.seen.length;
    const published = Array.from({ length: 250 }, (_, i) =>
      a.bus.publish('viewer.metrics', {
        tenantId: 't-1',
        streamId: `s-burst-${i}`,
        nodeId: 'n-1',
        currentViewers: i,
        egressBytesPerSecond: null,
        bytesIn: i,
      }),
    );
    await until(() => b.seen.length >= count + 250, '250 events on B');
    await a.relay.flushed();
    assert.deepEqual(
      b.seen.slice(count).map((e) => e.id),
      published.map((e) => e.id),
    );
    assert.deepEqual(b.seen.at(-1), published.at(-1));
  });

  it('ignores invalid notifications on the channel', async () => {
    const before = b.relay.stats.invalid;
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    try {
      for (const payload of ['not json', '{"v":1}', JSON.stringify({ v: 1, id: 'x', name: 'nope', data: {} })]) {
        await client.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, payload]);
      }
    } finally {
      await client.end();
    }
    await until(() => b.relay.stats.invalid >= before + 3, 'three invalid notifications counted');
    assert.equal(b.seen.filter((e) => e.data.streamId === undefined).length, 0);
  });

  it('sends oversized details truncated so the event still crosses', async () => {
    const count = b.seen.length;
    const event = a.bus.publish('stream.live', {
      tenantId: 't-1',
      streamId: 's-2',
      details: { blob: 'x'.repeat(10_000) },
    });
    await until(() => b.seen.length > count, 'the large event on B');
    const received = b.seen.at(-1);
    assert.equal(received?.id, event.id);
    assert.ok(received?.name === 'stream.live');
    assert.deepEqual(received.data.details, { truncated: true });
  });

  it('reconnects after its listening connection is killed and carries events again', async () => {
    const admin = new pg.Client({ connectionString: scratch.url });
    await admin.connect();
    try {
      const reconnects = b.relay.stats.reconnects;
      const killed = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE 'LISTEN%'`,
      );
      assert.ok((killed.rowCount ?? 0) >= 1, 'a listening backend was terminated');
      await until(() => b.relay.stats.reconnects > reconnects && b.relay.listening, 'B listening again');
      await until(() => a.relay.listening, 'A listening again');
    } finally {
      await admin.end();
    }
    const count = b.seen.length;
    const event = a.bus.publish('stream.live', { tenantId: 't-1', streamId: 's-3' });
    await until(() => b.seen.length > count, 'an event after the reconnect');
    assert.equal(b.seen.at(-1)?.id, event.id);
  });

  it('sends viewer.metrics to other processes only while one of them has a subscriber for it', async () => {
    // A channel of their own: A and B above want every event, and would be heard on the shared one.
    const lease = { renewMs: 100, leaseMs: 300, channel: 'airwave_events_lease_test' };
    const c = await startNode(scratch.url, lease);
    const d = await startNode(scratch.url, lease);
    try {
      const metrics = (viewers: number) =>
        c.bus.publish('viewer.metrics', {
          tenantId: 't-1',
          streamId: 's-metrics',
          nodeId: 'n-c',
          currentViewers: viewers,
          egressBytesPerSecond: null,
          bytesIn: viewers,
        });
      await new Promise((resolve) => setTimeout(resolve, 400));
      const sent = c.relay.stats.sent;
      metrics(1);
      await c.relay.flushed();
      assert.equal(c.relay.stats.sent, sent, 'nobody elsewhere wants viewer.metrics: not sent');
      assert.equal(c.relay.stats.unwanted, 1);
      const onD: AnyBusEvent[] = [];
      const stop = d.bus.subscribe({ tenantId: 't-1', streamId: 's-metrics', names: ['viewer.metrics'] }, (event) =>
        onD.push(event),
      );
      await until(() => {
        metrics(2);
        return onD.length > 0;
      }, 'viewer.metrics reach the process that subscribed');
      await new Promise((resolve) => setTimeout(resolve, 400));
      const before = onD.length;
      metrics(3);
      await until(() => onD.length > before, 'still sent while the subscriber stays (leases renewed)');
      const unwanted = c.relay.stats.unwanted;
      stop();
      await until(() => {
        metrics(4);
        return c.relay.stats.unwanted > unwanted;
      }, 'not sent once the lease of the gone subscriber ran out');
    } finally {
      for (const node of [c, d]) {
        await node.bus.close();
        await node.pool.end();
      }
    }
  });
});
