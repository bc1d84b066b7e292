/**
 * DTSC pull end to end: a DTSC source built from the format description (MistServer's
 * `output_dtsc.cpp` and `lib/dtsc.cpp`; no MistServer is available here to test against) serves
 * ffmpeg-encoded H.264 + AAC on loopback; a PULL stream of a node that allows private sources
 * goes LIVE with its tracks, its LL-HLS and MP4 outputs decode in ffprobe, each attempt is an
 * event, a dropped source is reconnected (RECONNECTING, then LIVE), and disabling stops the pull.
 * An on-demand source is pulled when the first viewer asks (`/play`), counts that viewer, drives
 * liveStreamEvents like a pushed stream, and stops once nobody watches.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type DtscTestServer, startDtscTestServer } from '@airwave/media/testing/dtsc-server';
import { encodeTestMedia } from '@airwave/media/testing/ffmpeg-media';
import { suiteTempDir } from '@airwave/media/testing/temp-dir';
import { testSourceArgs } from '@airwave/media/testing/test-source';
import type { TestServer } from '@airwave/server/testing/test-server';
import { ffmpegMissing } from './support/ffmpeg.js';
import { readFor } from './support/http.js';
import { waitFor } from './support/processes.js';
import {
  assertOutputsDecode,
  createPullStream,
  type PulledStream,
  readPulledStream,
  startPullServer,
  waitPulling,
} from './support/pull.js';
import { record, subscribed, wsUrl } from './support/subscriptions.js';

describe('DTSC pull through the service', { skip: ffmpegMissing }, () => {
  const dir = suiteTempDir('airwave-pull-dtsc-');
  let source: DtscTestServer;
  let server: TestServer;
  let token: string;

  before(async () => {
    const media = encodeTestMedia(dir.path, testSourceArgs({ seconds: 4, size: '320x180', gop: 30 }));
    source = await startDtscTestServer({ tracks: media.tracks, units: media.units, streamName: 'cam' });
    ({ server, token } = await startPullServer('dtsc', {
      AIRWAVE_RECONNECT_WINDOW_SECONDS: '10',
      AIRWAVE_PULL_IDLE_SECONDS: '2',
    }));
  });

  after(async () => {
    await server?.close();
    await source?.close();
  });

  it('pulls, plays as LL-HLS and MP4, reconnects a dropped source, and stops when disabled', async () => {
    const created = (await createPullStream(server, token, `dtsc://127.0.0.1:${source.port}/cam`)) as PulledStream;
    assert.equal(created.pullSource?.class, 'private');
    const live = await waitPulling(server, token, created.id);
    assert.deepEqual(live.tracks.map((track) => track.codec).sort(), ['aac', 'h264']);
    const connected = live.recentPullSourceEvents.find((event) => event.eventKind === 'connected');
    assert.equal(connected?.address, '127.0.0.1');
    assert.equal(live.metrics.pull?.nodeId, server.running.node.nodeId);
    await assertOutputsDecode(server, live.playbackId, dir.path, { video: 'h264', audio: 'aac' });

    source.dropConnections();
    await waitFor(
      'RECONNECTING',
      async () => (await readPulledStream(server, token, created.id)).metrics.status === 'RECONNECTING',
    );
    const back = await waitPulling(server, token, created.id);
    const kinds = back.recentPullSourceEvents.map((event) => event.eventKind);
    assert.deepEqual(kinds.slice(0, 3), ['connected', 'source_ended', 'connected'], 'newest first');

    const disabled = await server.graphql<{ updateStream: { __typename: string } }>(
      'mutation ($id: ID!) { updateStream(id: $id, input: { pullSource: { enabled: false } }) { __typename } }',
      { id: created.id },
      token,
    );
    assert.equal(disabled.data?.updateStream.__typename, 'Stream');
    const stopped = await waitFor('OFFLINE and STOPPED', async () => {
      const now = await readPulledStream(server, token, created.id);
      return now.metrics.status === 'OFFLINE' && now.metrics.pull?.state === 'STOPPED' ? now : undefined;
    });
    assert.equal(stopped.recentPullSourceEvents[0]?.eventKind, 'disabled');
    assert.equal(stopped.pullSource?.enabled, false);
  });

  it('pulls an on-demand source for its first viewer, counts the viewer, emits live, and stops when unwatched', async () => {
    const created = (await createPullStream(server, token, `dtsc://127.0.0.1:${source.port}/cam`, {
      onDemand: true,
    })) as PulledStream;
    assert.equal(created.pullSource?.onDemand, true);
    assert.equal(created.metrics.pull, null, 'not pulled before anyone asks');
    const events = record(
      wsUrl(server),
      token,
      'subscription ($id: ID!) { liveStreamEvents(streamId: $id) { streamId state status } }',
      { id: created.id },
    );
    try {
      await subscribed(server, 1);
      const viewing = readFor(`${server.baseUrl}/play/${created.playbackId}.mp4`, 4_000);
      const live = await events.waitFor((result) => result.data?.liveStreamEvents?.state === 'live', 'live', 30_000);
      assert.equal(live.data?.liveStreamEvents?.status, 'LIVE');
      const watched = await waitFor('the viewer counted', async () => {
        const now = await readPulledStream(server, token, created.id);
        return now.metrics.pull?.state === 'PULLING' &&
          (
            await server.graphql<{ stream: { metrics: { currentViewers: number } } }>(
              'query ($id: ID!) { stream(id: $id) { metrics { currentViewers } } }',
              { id: created.id },
              token,
            )
          ).data?.stream.metrics.currentViewers
          ? now
          : undefined;
      });
      assert.equal(watched.metrics.status, 'LIVE');
      assert.ok((await viewing).byteLength > 0, 'the first viewer got media');
      const idle = await waitFor(
        'the unwatched on-demand pull stopped',
        async () => {
          const now = await readPulledStream(server, token, created.id);
          return now.metrics.status === 'OFFLINE' && now.metrics.pull?.state === 'STOPPED' ? now : undefined;
        },
        30_000,
      );
      assert.equal(idle.recentPullSourceEvents[0]?.eventKind, 'connected');
    } finally {
      await events.close();
    }
  });
});
