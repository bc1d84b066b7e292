import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it, mock } from 'node:test';
import { Hub, silentLogger } from '@airwave/media';
import { MediaNodesStore } from '../domain/node-status/media-nodes.store.js';
import { loadNodeId } from '../domain/node-status/node-id.js';
import {
  HEARTBEAT_INTERVAL_MS,
  HEARTBEAT_STALE_MS,
  NodeStatusService,
} from '../domain/node-status/node-status.service.js';
import { StreamStatusStore } from '../domain/streams/stream-status.store.js';
import { openStreamTestDatabase, type StreamTestDatabase } from '../domain/streams/stream-test-support.js';
import { testBackends } from '../testing/databases.js';
import { testAudioTrack, testVideoTrack } from '../testing/tracks.js';
import { DatabaseLifecycleSink } from './lifecycle-sink.js';
import { StreamKeyPublishAuthorizer } from './publish-authorizer.js';

for (const backend of testBackends()) {
  describe(`ingest adapters on ${backend.name}`, () => {
    let t: StreamTestDatabase;
    let tenant: string;
    let authorizer: StreamKeyPublishAuthorizer;
    let statusStore: StreamStatusStore;
    const nodeId = randomUUID();

    before(async () => {
      t = await openStreamTestDatabase(backend);
      tenant = await t.tenant();
      authorizer = new StreamKeyPublishAuthorizer(t.keys, silentLogger);
      statusStore = new StreamStatusStore(t.database.db);
    });
    after(() => t.close());

    it('authorizes any active key of a stream, stamps lastUsedAt, and refuses deleted, rotated, unknown and wrong-mode keys', async () => {
      const stream = await t.streams.create(tenant, { name: 'auth' });
      const backup = await t.keys.create(tenant, stream.id, { name: 'backup' });
      const extra = await t.keys.create(tenant, stream.id, { name: 'extra' });
      const expected = { streamId: stream.id, playbackId: stream.playbackId };
      assert.deepEqual(await authorizer.authorize(stream.streamKey, 'rtmp'), expected);
      assert.deepEqual(await authorizer.authorize(backup.keyValue, 'srt'), expected);
      assert.deepEqual(await authorizer.authorize(extra.keyValue, 'whip'), expected);
      const keys = await t.keys.list(tenant, stream.id, {});
      for (const key of keys.nodes) {
        assert.ok(key.lastUsedAt instanceof Date, `${key.keyName} has lastUsedAt`);
      }

      await t.keys.delete(tenant, stream.id, extra.id);
      assert.equal(await authorizer.authorize(extra.keyValue, 'rtmp'), null);
      const rotated = await t.streams.refreshKey(tenant, stream.id);
      assert.equal(await authorizer.authorize(stream.streamKey, 'rtmp'), null);
      assert.deepEqual(await authorizer.authorize(rotated.streamKey, 'rtmp'), expected);
      assert.deepEqual(await authorizer.authorize(backup.keyValue, 'rtmp'), expected);

      const pulled = await t.streams.create(tenant, {
        name: 'pulled',
        ingestMode: 'PULL',
        pullSource: { sourceUri: 'rtsp://8.8.8.8:554/cam' },
      });
      assert.equal(await authorizer.authorize(pulled.streamKey, 'rtmp'), null, 'no push to a PULL stream');
      assert.equal(await authorizer.authorize(stream.streamKey, 'pull'), null, 'no pull of a PUSH stream');
      assert.deepEqual(await authorizer.authorize(pulled.streamKey, 'pull'), {
        streamId: pulled.id,
        playbackId: pulled.playbackId,
      });

      for (const bad of ['', 'sk_unknown', 'x'.repeat(10_000), "sk_' OR 1=1 --", 'sk_\u0000abc']) {
        assert.equal(await authorizer.authorize(bad, 'rtmp'), null, JSON.stringify(bad.slice(0, 20)));
      }
    });

    it('persists LIVE with tracks, viewers, RECONNECTING, new tracks and OFFLINE as the real hub reports them', async () => {
      const stream = await t.streams.create(tenant, { name: 'live' });
      let hub: Hub | undefined;
      const sink = new DatabaseLifecycleSink({
        store: statusStore,
        nodeId,
        log: silentLogger,
        liveStream: (id) => hub?.getByStreamId(id),
      });
      const live = new Hub({ log: silentLogger, reconnectWindowMs: 60_000, lifecycle: sink });
      hub = live;
      try {
        const grant = await authorizer.authorize(stream.streamKey, 'rtmp');
        assert.ok(grant);
        const publisher = live.publish(grant, 'rtmp');
        publisher.setDescription({ tracks: [testVideoTrack, testAudioTrack] });
        await sink.flush();
        let now = await t.streams.get(tenant, stream.id);
        assert.equal(now.metrics.status, 'LIVE');
        assert.equal(now.metrics.isLive, true);
        assert.equal(now.metrics.nodeId, nodeId);
        assert.equal(now.metrics.startedAt?.getTime(), publisher.stream.startedAt.getTime());
        assert.ok(now.metrics.updatedAt);
        assert.deepEqual(now.tracks, [
          {
            id: 1,
            kind: 'video',
            codec: 'h264',
            codecString: 'avc1.64001f',
            width: 1280,
            height: 720,
            fps: 30,
            bitrate: 2_500_000,
            channels: null,
            sampleRate: null,
          },
          {
            id: 2,
            kind: 'audio',
            codec: 'aac',
            codecString: 'mp4a.40.2',
            width: null,
            height: null,
            fps: null,
            bitrate: 128_000,
            channels: 2,
            sampleRate: 48_000,
          },
        ]);

        const closeA = publisher.stream.viewers.open('viewer-a', 'mp4');
        const closeB = publisher.stream.viewers.open('viewer-b', 'webrtc');
        await sink.flush();
        assert.equal((await t.streams.get(tenant, stream.id)).metrics.currentViewers, 2);
        closeA();
        await sink.flush();
        assert.equal((await t.streams.get(tenant, stream.id)).metrics.currentViewers, 1);
        closeB();

        publisher.close('encoder went away');
        await sink.flush();
        now = await t.streams.get(tenant, stream.id);
        assert.equal(now.metrics.status, 'RECONNECTING');
        assert.equal(now.metrics.isLive, false);

        const resumed = live.publish(grant, 'rtmp');
        resumed.setDescription({ tracks: [testVideoTrack, testAudioTrack] });
        await sink.flush();
        now = await t.streams.get(tenant, stream.id);
        assert.equal(now.metrics.status, 'LIVE');
        assert.equal(now.metrics.startedAt?.getTime(), publisher.stream.startedAt.getTime());

        resumed.setDescription({ tracks: [{ ...testVideoTrack, width: 640, height: 360 }] });
        await sink.flush();
        now = await t.streams.get(tenant, stream.id);
        assert.deepEqual(
          now.tracks.map((track) => [track.kind, track.width, track.height]),
          [['video', 640, 360]],
        );

        live.stop(stream.id, 'test over');
        await sink.flush();
        now = await t.streams.get(tenant, stream.id);
        assert.equal(now.metrics.status, 'OFFLINE');
        assert.equal(now.metrics.currentViewers, 0);
      } finally {
        live.close();
        sink.close();
        await sink.flush();
      }
    });

    it('sets OFFLINE at start what this node or a stale node left live, and leaves fresh nodes alone', async () => {
      const nodes = new MediaNodesStore(t.database.db);
      const now = Date.now();
      const own = randomUUID();
      const fresh = randomUUID();
      const stale = randomUUID();
      await nodes.upsert({
        id: fresh,
        baseUrl: 'http://a',
        version: '1',
        startedAt: new Date(now),
        heartbeatAt: new Date(now),
      });
      const old = new Date(now - HEARTBEAT_STALE_MS - 5_000);
      await nodes.upsert({ id: stale, baseUrl: 'http://b', version: '1', startedAt: old, heartbeatAt: old });
      await nodes.upsert({
        id: own,
        baseUrl: 'http://c',
        version: '1',
        startedAt: new Date(now),
        heartbeatAt: new Date(now),
      });
      const mark = async (name: string, reporter: string, status: 'LIVE' | 'RECONNECTING') => {
        const stream = await t.streams.create(tenant, { name });
        await statusStore.report(stream.id, {
          status,
          nodeId: reporter,
          startedAt: new Date(),
          tracks: [],
          at: new Date(),
        });
        return stream.id;
      };
      const byOwn = await mark('own', own, 'LIVE');
      const byFresh = await mark('fresh', fresh, 'LIVE');
      const byStale = await mark('stale', stale, 'RECONNECTING');
      const byUnknown = await mark('unknown', randomUUID(), 'LIVE');

      const service = new NodeStatusService(nodes, silentLogger);
      const reset = await service.start({ nodeId: own, baseUrl: 'http://c', version: '1', startedAt: new Date() });
      try {
        assert.deepEqual(new Set(reset), new Set([byOwn, byStale, byUnknown]));
        assert.equal((await t.streams.get(tenant, byOwn)).metrics.status, 'OFFLINE');
        assert.equal((await t.streams.get(tenant, byStale)).metrics.status, 'OFFLINE');
        assert.equal((await t.streams.get(tenant, byUnknown)).metrics.status, 'OFFLINE');
        assert.equal((await t.streams.get(tenant, byFresh)).metrics.status, 'LIVE');
        const listed = (await service.freshNodes()).map((node) => node.id);
        assert.ok(listed.includes(own) && listed.includes(fresh) && !listed.includes(stale));

        await nodes.heartbeat(fresh, new Date(now - HEARTBEAT_STALE_MS - 1_000));
        await service.beat(own);
        assert.equal((await t.streams.get(tenant, byFresh)).metrics.status, 'OFFLINE');
      } finally {
        await service.stop();
      }
    });

    it("judges every node by its own heartbeat period, not by the judging node's", async () => {
      const nodes = new MediaNodesStore(t.database.db);
      const now = Date.now();
      const slow = randomUUID();
      const quick = randomUUID();
      // `slow` beats every 10 s and was last heard 8 s ago (fresh); `quick` beats every second
      // and was last heard 8 s ago (stale). The judge beats every second.
      const heard = new Date(now - 8_000);
      await nodes.upsert({
        id: slow,
        baseUrl: 'http://slow',
        version: '1',
        startedAt: heard,
        heartbeatAt: heard,
        heartbeatMs: 10_000,
      });
      await nodes.upsert({
        id: quick,
        baseUrl: 'http://quick',
        version: '1',
        startedAt: heard,
        heartbeatAt: heard,
        heartbeatMs: 1_000,
      });
      const live = async (name: string, reporter: string) => {
        const stream = await t.streams.create(tenant, { name });
        await statusStore.report(stream.id, {
          status: 'LIVE',
          nodeId: reporter,
          startedAt: new Date(),
          tracks: [],
          at: new Date(),
        });
        return stream.id;
      };
      const bySlow = await live('slow', slow);
      const byQuick = await live('quick', quick);
      const judge = new NodeStatusService(nodes, silentLogger, { heartbeats: false, intervalMs: 1_000 });
      const own = randomUUID();
      const reset = await judge.start({ nodeId: own, baseUrl: 'http://judge', version: '1', startedAt: new Date() });
      try {
        assert.ok(!reset.includes(bySlow) && reset.includes(byQuick), 'only the stale node’s stream is reset');
        assert.equal((await t.streams.get(tenant, bySlow)).metrics.status, 'LIVE');
        const health = new Map((await judge.nodes()).map((node) => [node.id, node.health]));
        assert.equal(health.get(slow), 'HEALTHY');
        assert.equal(health.get(quick), 'UNHEALTHY');
        const fresh = (await judge.freshNodes()).map((node) => node.id);
        assert.ok(fresh.includes(slow) && !fresh.includes(quick) && fresh.includes(own));
        assert.equal((await nodes.listAll(new Date(0))).find((node) => node.id === own)?.heartbeatMs, 1_000);
      } finally {
        await judge.stop();
      }
    });

    // Nodes share a database server only on PostgreSQL (PGlite's clock is the process's own).
    it('writes and judges heartbeats on the database clock, so a node whose clock is a minute behind stays healthy', {
      skip: backend.name !== 'postgres',
    }, async () => {
      const nodes = new MediaNodesStore(t.database.db);
      const behind = randomUUID();
      // The node's machine clock runs a minute late while it registers and reports a stream.
      mock.timers.enable({ apis: ['Date'], now: Date.now() - 60_000 });
      const late = new NodeStatusService(nodes, silentLogger, { heartbeats: false, intervalMs: 1_000 });
      let stream: string;
      try {
        await late.start({ nodeId: behind, baseUrl: 'http://behind', version: '1', startedAt: new Date() });
        assert.ok(Math.abs(late.now() - (Date.now() + 60_000)) < 5_000, 'corrected to the database clock');
        stream = (await t.streams.create(tenant, { name: 'behind' })).id;
        await statusStore.report(stream, {
          status: 'LIVE',
          nodeId: behind,
          startedAt: new Date(),
          tracks: [],
          at: new Date(),
        });
      } finally {
        mock.timers.reset();
      }
      const judge = new NodeStatusService(nodes, silentLogger, { heartbeats: false, intervalMs: 1_000 });
      const reset = await judge.start({
        nodeId: randomUUID(),
        baseUrl: 'http://judge',
        version: '1',
        startedAt: new Date(),
      });
      try {
        assert.ok(!reset.includes(stream), 'the late node’s stream is not taken for orphaned');
        assert.equal((await t.streams.get(tenant, stream)).metrics.status, 'LIVE');
        assert.equal((await judge.nodes()).find((node) => node.id === behind)?.health, 'HEALTHY');
      } finally {
        await judge.stop();
        await late.stop();
      }
    });

    it('beats only where other nodes share the database, and lists itself as fresh while running either way', async () => {
      const nodes = new MediaNodesStore(t.database.db);
      assert.equal(nodes.shared, backend.name === 'postgres', 'PGlite has one process per data directory');
      const own = randomUUID();
      const startedAt = new Date();
      // Timers are mocked so that one heartbeat interval can be stepped through without waiting.
      mock.timers.enable({ apis: ['setInterval'] });
      const service = new NodeStatusService(nodes, silentLogger);
      try {
        assert.equal(service.heartbeats, nodes.shared);
        await service.start({ nodeId: own, baseUrl: 'http://own', version: '1', startedAt });
        const stale = new Date(Date.now() - HEARTBEAT_STALE_MS - 1_000);
        await nodes.heartbeat(own, stale);
        mock.timers.tick(HEARTBEAT_INTERVAL_MS);
        await service.stop();
        const stored = (await nodes.listFresh(new Date(0))).find((node) => node.id === own);
        assert.equal(stored?.heartbeatAt.getTime() !== stale.getTime(), service.heartbeats, 'a heartbeat was written');
      } finally {
        mock.timers.reset();
        await service.stop();
      }

      const quiet = new NodeStatusService(nodes, silentLogger, { heartbeats: false });
      await quiet.start({ nodeId: own, baseUrl: 'http://own', version: '1', startedAt });
      try {
        await nodes.heartbeat(own, new Date(Date.now() - HEARTBEAT_STALE_MS - 1_000));
        assert.ok(
          (await quiet.freshNodes()).some((node) => node.id === own),
          'running node is fresh',
        );
      } finally {
        await quiet.stop();
      }
      assert.ok(!(await quiet.freshNodes()).some((node) => node.id === own), 'stopped node with a stale heartbeat');
    });
  });
}

describe('node id', () => {
  it('is created once per data directory and survives restarts', () => {
    const dir = mkdtempSync(join(tmpdir(), 'airwave-node-id-'));
    try {
      const first = loadNodeId(dir);
      assert.match(first, /^[0-9a-f-]{36}$/);
      assert.equal(loadNodeId(dir), first);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
