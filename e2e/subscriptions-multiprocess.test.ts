/**
 * Two Airwave servers on one PostgreSQL database (the machine's, through TEST_DATABASE_URL): a
 * subscriber connected to B sees a stream go live, get a viewer and end on A. Events cross
 * between the servers only through PostgreSQL LISTEN/NOTIFY (each server has its own bus, pool,
 * data directory and node id). B is first a second in-process server, then `airwave start` in a
 * separate OS process.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { StreamDescription } from '@airwave/media';
import { createScratchDatabase, postgresMissing, type ScratchDatabase } from '@airwave/server/testing/databases';
import { localServerEnv, startTestServer, type TestServer } from '@airwave/server/testing/test-server';
import { testAudioTrack } from '@airwave/server/testing/tracks';
import { airwaveReady, spawnAirwave } from './support/airwave-cli.js';
import { type Account, accountWithStream, record, subscribed, wsUrl } from './support/subscriptions.js';

const skip = postgresMissing;

const description: StreamDescription = { tracks: [testAudioTrack] };

describe('subscriptions across two servers sharing PostgreSQL', { skip }, () => {
  let scratch: ScratchDatabase;
  let a: TestServer;
  let b: TestServer;
  let account: Account;
  before(async () => {
    scratch = await createScratchDatabase();
    a = await startTestServer(
      { name: 'postgres' },
      { DATABASE_URL: scratch.url, AIRWAVE_RECONNECT_WINDOW_SECONDS: '0' },
    );
    b = await startTestServer({ name: 'postgres' }, { DATABASE_URL: scratch.url });
    account = await accountWithStream(a);
  });
  after(async () => {
    await b?.close();
    await a?.close();
    await scratch?.drop();
  });

  it('a subscriber on B sees the stream go live, get a viewer and go offline on A', async () => {
    assert.notEqual(a.running.node.nodeId, b.running.node.nodeId);
    const lifecycle = record(
      wsUrl(b),
      account.token,
      `subscription ($id: ID!) { liveStreamEvents(streamId: $id) { streamId state status nodeId } }`,
      { id: account.streamGlobalId },
    );
    const connections = record(
      wsUrl(b),
      account.token,
      `subscription ($id: ID!) { liveConnectionEvents(streamId: $id) { sessionId protocol eventType } }`,
      { id: account.streamId },
    );
    await subscribed(b, 2);
    assert.equal(a.running.events.subscriberCount, 0, 'nobody subscribes on A');

    const publisher = a.running.hub.publish({ streamId: account.streamId, playbackId: account.playbackId }, 'srt');
    publisher.setDescription(description);
    const live = await lifecycle.waitFor((r) => r.data?.liveStreamEvents?.state === 'live', 'live from A on B');
    assert.equal(live.data?.liveStreamEvents?.nodeId, a.running.node.nodeId);
    assert.equal(b.running.hub.getByStreamId(account.streamId), undefined, 'the stream lives on A only');

    const leave = publisher.stream.viewers.open('viewer-on-a', 'webrtc');
    await connections.waitFor(
      (r) =>
        r.data?.liveConnectionEvents?.eventType === 'connect' &&
        r.data.liveConnectionEvents.sessionId === 'viewer-on-a',
      'a viewer connect from A on B',
    );
    leave();
    publisher.close('encoder stopped');
    await lifecycle.waitFor((r) => r.data?.liveStreamEvents?.state === 'offline', 'offline from A on B');
    assert.deepEqual(
      lifecycle.results.map((r) => r.data?.liveStreamEvents?.state),
      ['live', 'offline'],
    );
    await connections.waitFor((r) => r.data?.liveConnectionEvents?.eventType === 'disconnect', 'a disconnect');
    await lifecycle.close();
    await connections.close();
  });

  it('a subscriber on `airwave start` in another OS process sees the stream go live and offline here', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'airwave-sub-child-'));
    const child = spawnAirwave([], {
      ...process.env,
      DATABASE_URL: scratch.url,
      ...localServerEnv(dataDir),
      AIRWAVE_LOG_LEVEL: 'warn',
    });
    try {
      const ready = await airwaveReady(child, 60_000);
      assert.ok(ready, `the child server did not start: ${child.stderr()}`);
      const sub = record(
        `ws://127.0.0.1:${ready.ports.http}/graphql/ws`,
        account.token,
        `subscription ($id: ID!) { liveStreamEvents(streamId: $id) { state nodeId } }`,
        { id: account.streamId },
      );
      // No backfill and no subscribe acknowledgement in the protocol: until the child has
      // subscribed, announce the (true) offline state from A every 200 ms; the first one that
      // arrives proves the subscription and the LISTEN/NOTIFY path are up.
      const tenantId = await tenantOf(a, account);
      let probing = true;
      const probe = (async () => {
        while (probing) {
          a.running.events.publish('stream.offline', { tenantId, streamId: account.streamId, reason: 'probe' });
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      })();
      await sub.waitFor((r) => r.data?.liveStreamEvents?.state === 'offline', 'a probe in the child process', 60_000);
      probing = false;
      await probe;
      const publisher = a.running.hub.publish({ streamId: account.streamId, playbackId: account.playbackId }, 'rtmp');
      publisher.setDescription(description);
      const live = await sub.waitFor(
        (r) => r.data?.liveStreamEvents?.state === 'live',
        'live in the child process',
        20_000,
      );
      assert.equal(live.data?.liveStreamEvents?.nodeId, a.running.node.nodeId);
      assert.notEqual(ready.nodeId, a.running.node.nodeId);
      publisher.close('encoder stopped');
      await sub.waitFor(
        (r) => r.data?.liveStreamEvents?.state === 'offline' && sub.results.indexOf(r) > sub.results.indexOf(live),
        'offline in the child process',
        20_000,
      );
      await sub.close();
    } finally {
      await child.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/** The tenant the session token names, checked against the stream through the streams service. */
async function tenantOf(server: TestServer, account: Account): Promise<string> {
  const decoded = JSON.parse(Buffer.from(account.token.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
    tenant?: unknown;
  };
  assert.equal(typeof decoded.tenant, 'string', 'the session token names its tenant');
  const tenantId = String(decoded.tenant);
  await server.running.services.streams.get(tenantId, account.streamId);
  return tenantId;
}
