/**
 * Two Airwave servers on one PostgreSQL database (the machine's, through TEST_DATABASE_URL): a
 * subscriber connected to B sees a stream go live, get a viewer and end on A. Events cross
 * between the servers only through PostgreSQL LISTEN/NOTIFY (each server has its own bus, pool,
 * data directory and node id).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { StreamDescription } from '@airwave/media';
import { createScratchDatabase, type ScratchDatabase } from '@airwave/server/testing/databases';
import { startTestServer, type TestServer } from '@airwave/server/testing/test-server';
import { type Account, accountWithStream, record, subscribed, wsUrl } from './subscriptions-support.js';

const skip = process.env.TEST_DATABASE_URL ? false : 'TEST_DATABASE_URL is not set (needs PostgreSQL)';

const description: StreamDescription = {
  tracks: [
    {
      kind: 'audio',
      id: 1,
      codec: 'aac',
      timescale: 48_000,
      config: new Uint8Array([0x11, 0x90]),
      codecString: 'mp4a.40.2',
      sampleRate: 48_000,
      channels: 2,
    },
  ],
};

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
});
