import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ViewerSessions } from '@airwave/media';
import { testBackends } from '../../testing/databases.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { toGlobalId } from '../ids.js';
import { openStreamTestDatabase, type StreamTestDatabase } from '../streams/stream-test-support.js';
import { ViewerSessionRecorder } from './session-recorder.js';
import { daysOf, StreamAnalyticsService } from './stream-analytics.service.js';
import { ViewerAnalyticsStore } from './viewer-analytics.store.js';

const silent = { info() {}, error() {} };
const DAY = 86_400_000;

function validation(field: string, constraint: string) {
  return (error: unknown) =>
    error instanceof ValidationError && error.field === field && error.constraint === constraint;
}

describe('analytics time ranges', () => {
  it('need both bounds in order and at most a year', () => {
    assert.deepEqual(daysOf({ start: '2026-01-01T10:00:00Z', end: '2026-01-03T00:00:00Z' }), {
      from: '2026-01-01',
      to: '2026-01-03',
    });
    assert.throws(() => daysOf(undefined), validation('timeRange', 'required'));
    assert.throws(() => daysOf({ start: 'yesterday', end: '2026-01-01' }), validation('timeRange.start', 'format'));
    assert.throws(() => daysOf({ start: '2026-01-02', end: '2026-01-01' }), validation('timeRange.end', 'order'));
    assert.deepEqual(daysOf({ start: '2026-01-01', end: '2026-12-31T23:59:59Z' }).to, '2026-12-31');
    assert.throws(() => daysOf({ start: '2026-01-01', end: '2027-01-02' }), validation('timeRange', 'max_range'));
  });
});

for (const backend of testBackends()) {
  describe(`viewer session recorder on ${backend.name}`, () => {
    let t: StreamTestDatabase;
    let tenant: string;
    let other: string;
    let store: ViewerAnalyticsStore;
    let service: StreamAnalyticsService;

    before(async () => {
      t = await openStreamTestDatabase(backend);
      tenant = await t.tenant('a');
      other = await t.tenant('b');
      store = new ViewerAnalyticsStore(t.database.db);
      service = new StreamAnalyticsService({ store, streams: t.streams });
    });
    after(() => t.close());

    const range = {
      start: new Date(Date.now() - 3 * DAY).toISOString(),
      end: new Date(Date.now() + DAY).toISOString(),
    };

    it('rolls sessions of two nodes up into views, unique viewers, egress, seconds and the peak', async () => {
      const stream = await t.streams.create(tenant, { name: 'watched' });
      let clock = Date.now();
      const now = () => clock;
      const nodeA = new ViewerSessionRecorder({ store, nodeId: 'a', flushMs: 1000, log: silent, now });
      const nodeB = new ViewerSessionRecorder({ store, nodeId: 'b', flushMs: 1000, log: silent, now });
      const onA = new ViewerSessions(60_000);
      const onB = new ViewerSessions(60_000);
      const content = { streamId: stream.id, contentType: 'live' as const, contentId: stream.playbackId };
      nodeA.follow(content, onA);
      nodeB.follow(content, onB);
      const alice = { ip: '81.2.69.142', userAgent: 'Firefox' };
      const bob = { ip: '203.0.113.5', userAgent: 'Safari' };
      onA.touch('s1', 'llhls');
      nodeA.served(stream.playbackId, 's1', 'llhls', 1000, alice);
      onA.touch('s2', 'hls');
      nodeA.served(stream.playbackId, 's2', 'hls', 500, bob);
      // Alice again, from another node: a second view, the same viewer.
      onB.touch('s3', 'dash');
      nodeB.served(stream.playbackId, 's3', 'dash', 250, alice);
      nodeB.served(stream.playbackId, 'unknown-session', 'dash', 99, alice);
      await Promise.all([nodeA.flush(), nodeB.flush()]);
      clock += 10_000;
      nodeA.served(stream.playbackId, 's1', 'llhls', 2000, alice);
      onA.sweep(clock + 120_000);
      await Promise.all([nodeA.flush(), nodeB.flush()]);
      const page = await service.daily(tenant, toGlobalId('Stream', stream.id), range, { first: 10 });
      assert.equal(page.totalCount, 1);
      const day = page.nodes[0];
      assert.ok(day);
      assert.equal(day.totalViews, 3);
      assert.equal(day.uniqueViewers, 2);
      assert.equal(day.egressBytes, 3750, 'unknown sessions are not counted');
      assert.equal(day.peakConcurrent, 3);
      // s1 and s2 ended at once (their sessions' own clock); s3 stayed open for the 10 s the recorder's clock moved.
      assert.ok(day.viewerSeconds >= 10 && day.viewerSeconds < 11, `viewer seconds ${day.viewerSeconds}`);
      assert.equal(nodeA.egressByProtocol().get('llhls'), 3000);
      assert.equal(nodeA.openSessions, 0);
      assert.equal(nodeB.openSessions, 1);
      // Written again unchanged: nothing is counted twice.
      await Promise.all([nodeA.flush(), nodeB.flush()]);
      const again = await service.daily(tenant, stream.id, range, null);
      assert.equal(again.nodes[0]?.totalViews, 3);
      assert.equal(again.nodes[0]?.egressBytes, 3750);
    });

    it('keeps what a failed write held and writes it with the next flush', async () => {
      const stream = await t.streams.create(tenant, { name: 'retried' });
      let failing = true;
      const flaky = Object.create(store) as ViewerAnalyticsStore;
      flaky.write = async (batch) => {
        if (failing) {
          throw new Error('database down');
        }
        await store.write(batch);
      };
      const recorder = new ViewerSessionRecorder({ store: flaky, nodeId: 'a', flushMs: 1000, log: silent });
      const sessions = new ViewerSessions(60_000);
      recorder.follow({ streamId: stream.id, contentType: 'live', contentId: stream.playbackId }, sessions);
      sessions.touch('s', 'hls');
      recorder.served(stream.playbackId, 's', 'hls', 700, { ip: '198.51.100.1', userAgent: undefined });
      await recorder.flush();
      failing = false;
      recorder.served(stream.playbackId, 's', 'hls', 300, { ip: '198.51.100.1', userAgent: undefined });
      await recorder.flush();
      const day = (await service.daily(tenant, stream.id, range, null)).nodes[0];
      assert.deepEqual([day?.totalViews, day?.uniqueViewers, day?.egressBytes], [1, 1, 1000]);
    });

    it('answers another tenant NOT_FOUND and pages days oldest first', async () => {
      const stream = await t.streams.create(tenant, { name: 'paged' });
      await assert.rejects(service.daily(other, stream.id, range, null), (error) => error instanceof NotFoundError);
      const today = new Date().toISOString().slice(0, 10);
      const yesterday = new Date(Date.now() - DAY).toISOString().slice(0, 10);
      for (const day of [yesterday, today]) {
        await store.write({
          nodeId: 'a',
          sessions: [],
          daily: [{ streamId: stream.id, day, views: 1, egressBytes: 10, viewerSeconds: 1 }],
          viewers: [],
          concurrency: [],
        });
      }
      const first = await service.daily(tenant, stream.id, range, { first: 1 });
      assert.deepEqual(
        first.nodes.map((node) => node.day),
        [yesterday],
      );
      assert.equal(first.pageInfo.hasNextPage, true);
      assert.equal(first.totalCount, 2);
      const second = await service.daily(tenant, stream.id, range, { first: 1, after: first.pageInfo.endCursor });
      assert.deepEqual(
        second.nodes.map((node) => node.day),
        [today],
      );
      assert.equal(second.pageInfo.hasNextPage, false);
      const narrow = await service.daily(
        tenant,
        stream.id,
        { start: `${today}T00:00:00Z`, end: `${today}T01:00:00Z` },
        null,
      );
      assert.deepEqual(
        narrow.nodes.map((node) => node.day),
        [today],
      );
    });

    it('closes sessions a crashed node left open', async () => {
      const stream = await t.streams.create(tenant, { name: 'crashed' });
      const long = new Date(Date.now() - 3_600_000);
      const row = {
        id: '00000000-0000-4000-8000-000000000001',
        streamId: stream.id,
        contentType: 'live',
        contentId: stream.playbackId,
        nodeId: 'gone',
        protocol: 'hls',
        viewerKey: 'k',
        startedAt: long,
        lastSeenAt: long,
        endedAt: null,
        bytesSent: 1,
      };
      await store.write({ nodeId: 'gone', sessions: [row], daily: [], viewers: [], concurrency: [] });
      assert.equal(await store.closeAbandoned(new Date(Date.now() - 300_000)), 1);
      assert.equal(await store.closeAbandoned(new Date(Date.now() - 300_000)), 0);
    });
  });
}
