/**
 * The acceptance test for subscriptions: real ffmpeg publishes over RTMP to the real
 * server, and a graphql-ws subscriber sees `live` when it starts and the end when it stops
 * (both database backends). How long `live` took is reported, never asserted.
 */
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { after, before, describe, it } from 'node:test';
import { testBackends } from '@airwave/server/testing/databases';
import { startTestServer, type TestServer } from '@airwave/server/testing/test-server';
import { ffmpegMissing, publishPattern } from './support/ffmpeg.js';
import { type Account, accountWithStream, record, subscribed, wsUrl } from './support/subscriptions.js';

const LIFECYCLE = `subscription ($id: ID!) {
  liveStreamEvents(streamId: $id) { streamId state status timestamp details }
}`;

for (const backend of testBackends()) {
  describe(`ffmpeg over RTMP drives liveStreamEvents (${backend.name})`, { skip: ffmpegMissing }, () => {
    let server: TestServer;
    let account: Account;
    before(async () => {
      server = await startTestServer(backend, { AIRWAVE_RECONNECT_WINDOW_SECONDS: '1' });
      account = await accountWithStream(server);
    });
    after(async () => {
      await server?.close();
    });

    it('a subscriber sees live when ffmpeg starts publishing, then reconnecting and offline when it stops', async (t) => {
      const sub = record(wsUrl(server), account.token, LIFECYCLE, { id: account.streamGlobalId });
      await subscribed(server, 1);
      const url = `rtmp://127.0.0.1:${server.running.ports.rtmp}/live/${account.streamKey}`;
      const started = performance.now();
      const ffmpeg = publishPattern(url, { width: 320, height: 180, fps: 25, gop: 25 });
      try {
        const live = await sub.waitFor((r) => r.data?.liveStreamEvents?.state === 'live', 'live', 30_000);
        t.diagnostic(`live arrived ${Math.round(performance.now() - started)} ms after ffmpeg started`);
        assert.equal(live.data?.liveStreamEvents?.status, 'LIVE');
        assert.equal(live.data?.liveStreamEvents?.streamId, account.streamId);
        const details = live.data?.liveStreamEvents?.details as { tracks?: { kind: string; codec: string }[] };
        assert.deepEqual(details.tracks?.map((track) => `${track.kind}:${track.codec}`).sort(), [
          'audio:aac',
          'video:h264',
        ]);
      } finally {
        await ffmpeg.stop();
      }
      await sub.waitFor((r) => r.data?.liveStreamEvents?.state === 'offline', 'offline after ffmpeg stopped', 30_000);
      assert.deepEqual(
        sub.results.map((r) => r.data?.liveStreamEvents?.state),
        ['live', 'reconnecting', 'offline'],
      );
      await sub.close();
    });
  });
}
