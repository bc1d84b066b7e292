import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testBackends } from '../../testing/databases.js';
import { openStreamTestDatabase, type StreamTestDatabase } from '../streams/stream-test-support.js';
import { ViewerSessionRecorder } from './session-recorder.js';
import { StoredViewers } from './stored-viewers.js';
import { StreamAnalyticsService } from './stream-analytics.service.js';
import { ViewerAnalyticsStore } from './viewer-analytics.store.js';

const silent = { info() {}, error() {} };
const DAY = 86_400_000;

for (const backend of testBackends()) {
  describe(`stored content viewer sessions on ${backend.name}`, () => {
    let t: StreamTestDatabase;
    let tenant: string;
    let store: ViewerAnalyticsStore;
    let service: StreamAnalyticsService;

    before(async () => {
      t = await openStreamTestDatabase(backend);
      tenant = await t.tenant('a');
      store = new ViewerAnalyticsStore(t.database.db);
      service = new StreamAnalyticsService({ store, streams: t.streams });
    });
    after(() => t.close());

    const range = {
      start: new Date(Date.now() - 3 * DAY).toISOString(),
      end: new Date(Date.now() + DAY).toISOString(),
    };

    it("counts a recording's and a clip's viewers in their stream's day, and forgets content whose sessions ended", async () => {
      const stream = await t.streams.create(tenant, { name: 'recorded' });
      const recorder = new ViewerSessionRecorder({ store, nodeId: 'a', flushMs: 1000, log: silent });
      const viewers = new StoredViewers(recorder, 30_000);
      const dvr = { streamId: stream.id, contentType: 'dvr' as const, contentId: 'recording-playback-id' };
      const clip = { streamId: stream.id, contentType: 'clip' as const, contentId: 'clip-playback-id' };
      const alice = { ip: '81.2.69.142', userAgent: 'Firefox' };
      const bob = { ip: '203.0.113.5', userAgent: 'Safari' };
      viewers.touch(dvr, 's1', 'hls');
      recorder.served(dvr.contentId, 's1', 'hls', 1000, alice);
      viewers.touch(dvr, 's1', 'hls');
      recorder.served(dvr.contentId, 's1', 'hls', 500, alice);
      const closeMp4 = viewers.open(clip, 's2', 'mp4');
      recorder.served(clip.contentId, 's2', 'mp4', 4000, bob);
      assert.equal(viewers.contents, 2);
      assert.equal(recorder.openSessions, 2);
      closeMp4();
      assert.equal(viewers.contents, 1, 'the clip had no session left');
      viewers.sweep(Date.now() + 60_000);
      assert.equal(viewers.contents, 0, 'the recording went quiet');
      assert.equal(recorder.openSessions, 0);
      await recorder.flush();
      const day = (await service.daily(tenant, stream.id, range, null)).nodes[0];
      assert.ok(day);
      assert.equal(day.totalViews, 2);
      assert.equal(day.uniqueViewers, 2);
      assert.equal(day.egressBytes, 5500);
      // Played again later: a new session of the same content, followed afresh.
      viewers.touch(dvr, 's3', 'dash');
      recorder.served(dvr.contentId, 's3', 'dash', 700, alice);
      viewers.close();
      await recorder.flush();
      const again = (await service.daily(tenant, stream.id, range, null)).nodes[0];
      assert.equal(again?.totalViews, 3);
      assert.equal(again?.uniqueViewers, 2);
      assert.equal(again?.egressBytes, 6200);
    });

    it('records a VOD session, which belongs to no stream', async () => {
      const recorder = new ViewerSessionRecorder({ store, nodeId: 'a', flushMs: 1000, log: silent });
      const viewers = new StoredViewers(recorder, 30_000);
      const vod = { streamId: null, contentType: 'vod' as const, contentId: 'vod-playback-id' };
      viewers.touch(vod, 's1', 'hls');
      recorder.served(vod.contentId, 's1', 'hls', 1234, { ip: '81.2.69.142', userAgent: 'Firefox' });
      assert.equal(recorder.openSessions, 1);
      viewers.close();
      assert.equal(recorder.openSessions, 0);
      await recorder.flush();
      assert.equal(viewers.contents, 0);
    });
  });
}
