/**
 * GraphQL subscriptions end to end on the real server (both database backends): accounts and
 * streams through POST /graphql, a graphql-ws client on /graphql/ws, the media hub driven
 * directly (a publisher claims the stream, the ingest lifecycle sink persists LIVE / RECONNECTING
 * / OFFLINE and publishes after its commit), viewers opened on the hub.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { StreamDescription } from '@airwave/media';
import { testBackends } from '@airwave/server/testing/databases';
import { startTestServer, type TestServer } from '@airwave/server/testing/test-server';
import { testVideoTrack } from '@airwave/server/testing/tracks';
import { createDeveloperToken } from './support/accounts.js';
import {
  type Account,
  accountWithStream,
  record,
  subscribed,
  unsubscribedAll,
  wsUrl,
} from './support/subscriptions.js';

const description: StreamDescription = { tracks: [testVideoTrack] };

const LIFECYCLE = `subscription ($id: ID!) {
  liveStreamEvents(streamId: $id) { id eventId type source streamId state status timestamp nodeId reason details }
}`;
const CONNECTIONS = `subscription ($id: ID!) {
  liveConnectionEvents(streamId: $id) {
    eventId streamId sessionId protocol connector eventType sessionDurationSeconds timestamp
  }
}`;
const METRICS = `subscription ($id: ID!) {
  liveViewerMetrics(streamId: $id) { streamId currentViewers egressBytesPerSecond bytesIn timestamp }
}`;

const stateOf = (result: { data?: Record<string, Record<string, unknown>> | null }) =>
  result.data?.liveStreamEvents?.state;

for (const backend of testBackends()) {
  describe(`subscriptions over /graphql/ws (${backend.name})`, () => {
    let server: TestServer;
    let alice: Account;
    let bob: Account;
    before(async () => {
      server = await startTestServer(backend, { AIRWAVE_RECONNECT_WINDOW_SECONDS: '1' });
      alice = await accountWithStream(server);
      bob = await accountWithStream(server);
    });
    after(async () => {
      await server?.close();
    });

    it('a subscriber sees live when a publisher starts, then reconnecting and offline when it leaves', async () => {
      const sub = record(wsUrl(server), alice.token, LIFECYCLE, { id: alice.streamGlobalId });
      await subscribed(server, 1);
      const publisher = server.running.hub.publish({ streamId: alice.streamId, playbackId: alice.playbackId }, 'rtmp');
      publisher.setDescription(description);
      const live = await sub.waitFor((r) => stateOf(r) === 'live', 'live');
      assert.equal(live.data?.liveStreamEvents?.status, 'LIVE');
      assert.equal(live.data?.liveStreamEvents?.streamId, alice.streamId);
      assert.equal(live.data?.liveStreamEvents?.nodeId, server.running.node.nodeId);
      const details = live.data?.liveStreamEvents?.details as { tracks?: { codec: string }[] } | undefined;
      assert.equal(details?.tracks?.[0]?.codec, 'h264');
      const polled = await server.graphql<{ stream: { metrics: { status: string } } }>(
        `query ($id: ID!) { stream(id: $id) { metrics { status } } }`,
        { id: alice.streamGlobalId },
        alice.token,
      );
      assert.equal(polled.data?.stream.metrics.status, 'LIVE', 'the event follows the committed status');
      publisher.close('encoder left');
      const reconnecting = await sub.waitFor((r) => stateOf(r) === 'reconnecting', 'reconnecting');
      assert.equal(reconnecting.data?.liveStreamEvents?.status, 'RECONNECTING');
      const offline = await sub.waitFor((r) => stateOf(r) === 'offline', 'offline');
      assert.equal(offline.data?.liveStreamEvents?.status, 'OFFLINE');
      assert.match(String(offline.data?.liveStreamEvents?.reason), /reconnect window elapsed/);
      assert.deepEqual(
        sub.results.map((r) => [r.data?.liveStreamEvents?.type, r.data?.liveStreamEvents?.source]),
        [
          ['STREAM_START', 'LIVE'],
          ['STREAM_LIFECYCLE_UPDATE', 'LIVE'],
          ['STREAM_END', 'LIVE'],
        ],
      );
      assert.equal(
        Buffer.from(String(live.data?.liveStreamEvents?.id), 'base64').toString(),
        `StreamEvent:${live.data?.liveStreamEvents?.eventId}`,
      );
      assert.deepEqual(
        sub.results.map(stateOf),
        ['live', 'reconnecting', 'offline'],
        'each transition once, in order, no backfill',
      );
      await sub.close();
    });

    it("refuses another tenant's stream with NOT_FOUND and delivers none of its events", async () => {
      await unsubscribedAll(server);
      const sub = record(wsUrl(server), bob.token, LIFECYCLE, { id: alice.streamId });
      await sub.done;
      assert.equal(sub.results.length, 1);
      assert.equal(sub.results[0]?.errors?.[0]?.extensions?.code, 'NOT_FOUND');
      assert.equal(server.running.events.subscriberCount, 0, 'nothing was subscribed');
      const publisher = server.running.hub.publish({ streamId: alice.streamId, playbackId: alice.playbackId }, 'rtmp');
      publisher.setDescription(description);
      server.running.hub.stop(alice.streamId, 'test done');
      await server.running.ingest.lifecycle.flush();
      assert.equal(sub.results.length, 1);
      await sub.close();
    });

    it('closes with 4401 for a missing or invalid token', async () => {
      for (const token of [undefined, 'not-a-token']) {
        const sub = record(wsUrl(server), token, LIFECYCLE, { id: alice.streamId });
        await sub.done;
        assert.equal(sub.closeCode(), 4401, `token ${String(token)}`);
        assert.equal(sub.results.length, 0);
        await sub.close();
      }
    });

    it('accepts a developer token with streams:read and answers FORBIDDEN without it', async () => {
      await unsubscribedAll(server);
      const reader = (await createDeveloperToken(server, alice.token, 'streams:read')).value;
      const analyticsOnly = (await createDeveloperToken(server, alice.token, 'analytics:read')).value;
      const ok = record(wsUrl(server), reader, LIFECYCLE, { id: alice.streamId });
      const refused = record(wsUrl(server), analyticsOnly, LIFECYCLE, { id: alice.streamId });
      await refused.done;
      assert.equal(refused.results[0]?.errors?.[0]?.extensions?.code, 'FORBIDDEN');
      await subscribed(server, 1);
      const publisher = server.running.hub.publish({ streamId: alice.streamId, playbackId: alice.playbackId }, 'rtmp');
      publisher.setDescription(description);
      await ok.waitFor((r) => stateOf(r) === 'live', 'live with a developer token');
      server.running.hub.stop(alice.streamId, 'test done');
      await ok.waitFor((r) => stateOf(r) === 'offline', 'offline with a developer token');
      await ok.close();
      await refused.close();
    });

    it('reports viewer connects and disconnects and steady viewer metrics while live', async () => {
      await unsubscribedAll(server);
      const connections = record(wsUrl(server), alice.token, CONNECTIONS, { id: alice.streamId });
      const metrics = record(wsUrl(server), alice.token, METRICS, { id: alice.streamGlobalId });
      await subscribed(server, 2);
      const publisher = server.running.hub.publish({ streamId: alice.streamId, playbackId: alice.playbackId }, 'rtmp');
      publisher.setDescription(description);
      publisher.write({ trackId: 1, dts: 0, pts: 0, key: true, data: new Uint8Array(1000) });
      await server.running.ingest.lifecycle.flush();
      const leave = publisher.stream.viewers.open('viewer-1', 'mp4');
      const connect = await connections.waitFor(
        (r) => r.data?.liveConnectionEvents?.eventType === 'connect',
        'connect',
      );
      assert.deepEqual(
        { ...connect.data?.liveConnectionEvents, eventId: undefined, timestamp: undefined },
        {
          eventId: undefined,
          timestamp: undefined,
          streamId: alice.streamId,
          sessionId: 'viewer-1',
          protocol: 'mp4',
          connector: 'mp4',
          eventType: 'connect',
          sessionDurationSeconds: null,
        },
      );
      const sample = await metrics.waitFor(
        (r) => r.data?.liveViewerMetrics?.currentViewers === 1,
        'metrics with one viewer',
        8000,
      );
      assert.equal(sample.data?.liveViewerMetrics?.bytesIn, 1000);
      leave();
      const disconnect = await connections.waitFor(
        (r) => r.data?.liveConnectionEvents?.eventType === 'disconnect',
        'disconnect',
      );
      const duration = disconnect.data?.liveConnectionEvents?.sessionDurationSeconds;
      assert.ok(typeof duration === 'number' && duration >= 0, `session duration ${duration}`);
      server.running.hub.stop(alice.streamId, 'test done');
      await connections.close();
      await metrics.close();
    });
  });
}
