/**
 * The pull scheduler against a migrated database and a DTSC source on loopback: a host that
 * resolved to a public address at creation but to 127.0.0.1 at connect time (DNS rebinding) is
 * refused at connect without being dialled; allowed, the pull runs, reports its state and events;
 * on-demand sources start when a viewer asks and stop when nobody watches; a second node takes a
 * pull over only once the first gave its lease up.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Hub, silentLogger } from '@airwave/media';
import { openDtscInput } from '@airwave/media/protocols/pull/dtsc-input';
import { type DtscTestServer, startDtscTestServer } from '@airwave/media/testing/dtsc-server';
import { encodeTestMedia, ffmpegSkip } from '@airwave/media/testing/ffmpeg-media';
import { suiteTempDir } from '@airwave/media/testing/temp-dir';
import { testSourceArgs } from '@airwave/media/testing/test-source';
import { until } from '@airwave/media/testing/until';
import { PullSourcesStore } from '../domain/pull-sources/pull-sources.store.js';
import { openStreamTestDatabase, type StreamTestDatabase } from '../domain/streams/stream-test-support.js';
import { testBackends } from '../testing/databases.js';
import { pullAddressGuard } from './pull-guard.js';
import { PullScheduler, type PullSchedulerOptions } from './pull-scheduler.js';

/** Polls an async check until it answers something (then returned), failing after 15 s. */
async function eventually<T>(what: string, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const value = await check();
    if (value !== undefined) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

for (const backend of testBackends()) {
  describe(`pull scheduler on ${backend.name}`, { skip: ffmpegSkip() }, () => {
    const dir = suiteTempDir('airwave-pull-scheduler-');
    let source: DtscTestServer;
    let t: StreamTestDatabase;
    let store: PullSourcesStore;
    let tenant: string;
    /** What camera.example resolves to right now. */
    let cameraAddress = '8.8.8.8';
    const resolveHost = async (host: string) => (host === 'camera.example' ? [cameraAddress] : ['127.0.0.1']);
    const schedulers: PullScheduler[] = [];
    const hubs: Hub[] = [];

    before(async () => {
      const media = encodeTestMedia(dir.path, testSourceArgs({ seconds: 2, size: '160x90' }));
      source = await startDtscTestServer({ tracks: media.tracks, units: media.units, streamName: 'cam' });
      t = await openStreamTestDatabase(backend, { allowPrivatePullSources: true, resolveHost });
      store = new PullSourcesStore(t.database.db);
      tenant = await t.tenant();
    });

    after(async () => {
      for (const scheduler of schedulers) {
        await scheduler.close();
      }
      for (const hub of hubs) {
        hub.close();
      }
      await t?.close();
      await source?.close();
    });

    function scheduler(options: Partial<PullSchedulerOptions> & { allowPrivate: boolean }): {
      pulls: PullScheduler;
      hub: Hub;
    } {
      const hub = new Hub({ log: silentLogger, reconnectWindowMs: 1_000 });
      const pulls = new PullScheduler({
        store,
        hub,
        nodeId: 'node-a',
        guard: pullAddressGuard({ allowPrivate: options.allowPrivate, resolve: resolveHost }),
        open: openDtscInput,
        log: silentLogger,
        maxPulls: 10,
        retry: { baseMs: 100, maxMs: 300 },
        syncIntervalMs: 100,
        ...options,
      });
      hubs.push(hub);
      schedulers.push(pulls);
      return { pulls, hub };
    }

    it('refuses at connect a host that now resolves to a private address (DNS rebinding), without dialling it', async () => {
      cameraAddress = '8.8.8.8';
      const stream = await t.streams.create(tenant, {
        name: 'rebinding',
        ingestMode: 'PULL',
        pullSource: { sourceUri: `dtsc://camera.example:${source.port}/cam` },
      });
      assert.equal(stream.pullSource?.class, 'public', 'public when created');
      cameraAddress = '127.0.0.1';
      const plays = source.plays.length;
      const { pulls } = scheduler({ allowPrivate: false });
      pulls.start();
      const events = await eventually('two refused attempts', async () => {
        const found = await store.recentEvents(tenant, stream.id, 10);
        return found.length >= 2 ? found : undefined;
      });
      await pulls.close();
      assert.ok(events.every((event) => event.eventKind === 'private_not_allowed'));
      assert.match(events[0]?.message ?? '', /camera\.example .*AIRWAVE_ALLOW_PRIVATE_PULL_SOURCES=false/);
      assert.equal(source.plays.length, plays, 'the source was never dialled');
      const read = await t.streams.get(tenant, stream.id);
      assert.equal(read.metrics.pull?.phase, 'STOPPED');
      assert.match(read.metrics.pull?.lastError ?? '', /private/);
      await t.streams.delete(tenant, stream.id);
    });

    it('pulls an allowed source, reports PULLING and the connection, and stops when the stream is deleted', async () => {
      const stream = await t.streams.create(tenant, {
        name: 'allowed',
        ingestMode: 'PULL',
        pullSource: { sourceUri: `dtsc://127.0.0.1:${source.port}/cam` },
      });
      const { pulls, hub } = scheduler({ allowPrivate: true });
      pulls.start();
      await until(() => hub.getByStreamId(stream.id)?.description !== undefined, 'the pulled stream described');
      const read = await eventually('PULLING reported', async () => {
        const now = await t.streams.get(tenant, stream.id);
        return now.metrics.pull?.phase === 'PULLING' ? now : undefined;
      });
      assert.equal(read.metrics.pull?.nodeId, 'node-a');
      const events = await eventually('the connection recorded', async () => {
        const found = await store.recentEvents(tenant, stream.id, 10);
        return found.length > 0 ? found : undefined;
      });
      assert.equal(events[0]?.eventKind, 'connected');
      assert.equal(events[0]?.address, '127.0.0.1');
      await t.streams.delete(tenant, stream.id);
      pulls.forget(stream.id);
      await until(() => pulls.size === 0, 'the pull stopped');
      await pulls.close();
    });

    it('pulls an on-demand source when a viewer asks, and stops it when nobody watches', async () => {
      const stream = await t.streams.create(tenant, {
        name: 'on demand',
        ingestMode: 'PULL',
        pullSource: { sourceUri: `dtsc://127.0.0.1:${source.port}/cam`, onDemand: true },
      });
      const { pulls, hub } = scheduler({ allowPrivate: true, idleMs: 300 });
      pulls.start();
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(pulls.size, 0, 'not pulled before anyone asks');
      assert.equal(await pulls.wake(stream.playbackId), true, 'live for the first viewer');
      assert.ok(hub.getByPlaybackId(stream.playbackId)?.description);
      await until(() => pulls.size === 0, 'the idle on-demand pull stopped');
      assert.equal(hub.getByPlaybackId(stream.playbackId), undefined, 'the stream ended');
      assert.equal(await pulls.wake('no-such-playback-id'), false);
      await pulls.close();
      await t.streams.delete(tenant, stream.id);
    });

    it('a second node takes a pull over only after the first gave its lease up', async () => {
      const stream = await t.streams.create(tenant, {
        name: 'leased',
        ingestMode: 'PULL',
        pullSource: { sourceUri: `dtsc://127.0.0.1:${source.port}/cam` },
      });
      const a = scheduler({ allowPrivate: true, nodeId: 'node-a' });
      const b = scheduler({ allowPrivate: true, nodeId: 'node-b' });
      a.pulls.start();
      await until(() => a.pulls.size === 1, 'node A pulling');
      b.pulls.start();
      await new Promise((resolve) => setTimeout(resolve, 400));
      assert.equal(b.pulls.size, 0, 'node B leaves a held lease alone');
      await a.pulls.close();
      await until(() => b.pulls.size === 1, 'node B took the pull over');
      const read = await eventually('node B reported', async () => {
        const now = await t.streams.get(tenant, stream.id);
        return now.metrics.pull?.nodeId === 'node-b' ? now : undefined;
      });
      assert.ok(read.metrics.pull);
      await b.pulls.close();
      await t.streams.delete(tenant, stream.id);
    });
  });
}
