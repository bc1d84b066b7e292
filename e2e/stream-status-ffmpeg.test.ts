/**
 * Stream status from a real encoder, on every database backend: ffmpeg pushes to the RTMP URL
 * that the public resolveIngestEndpoint returns; stream(id).metrics goes LIVE with the encoder's
 * tracks, counts a progressive-MP4 viewer, and returns to OFFLINE after the reconnect window.
 * A rotated-out key is refused; a second active key publishes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testBackends } from '@airwave/server/testing/databases';
import { startTestServer, type TestServer } from '@airwave/server/testing/test-server';
import { createStream, registerAccount } from './support/accounts.js';
import { ffmpegMissing, publishPattern } from './support/ffmpeg.js';
import { waitFor } from './support/processes.js';

interface Metrics {
  status: string;
  isLive: boolean;
  currentViewers: number;
  startedAt: string | null;
}
interface Track {
  trackType: string;
  codec: string;
  width: number | null;
  height: number | null;
  channels: number | null;
  sampleRate: number | null;
}

const PATTERN = { width: 320, height: 180, fps: 15 } as const;

for (const backend of testBackends()) {
  describe(`stream status from ffmpeg on ${backend.name}`, { skip: ffmpegMissing || false }, () => {
    let server: TestServer;
    let token: string;

    before(async () => {
      server = await startTestServer(backend, { AIRWAVE_RECONNECT_WINDOW_SECONDS: '1' });
      token = (await registerAccount(server, 'encoder')).token;
    });
    after(() => server.close());

    const metricsOf = async (id: string) => {
      const response = await server.graphql<{ stream: { metrics: Metrics; tracks: Track[] } }>(
        `query ($id: ID!) { stream(id: $id) {
          metrics { status isLive currentViewers startedAt }
          tracks { trackType codec width height channels sampleRate }
        } }`,
        { id },
        token,
      );
      assert.equal(response.errors, undefined, JSON.stringify(response.errors));
      const stream = response.data?.stream;
      assert.ok(stream);
      return stream;
    };

    const rtmpUrlOf = async (streamKey: string) => {
      const response = await server.graphql<{ resolveIngestEndpoint: { primary: { rtmpUrl: string } } }>(
        'query ($key: String!) { resolveIngestEndpoint(streamKey: $key) { primary { rtmpUrl } } }',
        { key: streamKey },
      );
      const url = response.data?.resolveIngestEndpoint.primary.rtmpUrl;
      assert.ok(url, JSON.stringify(response));
      return url;
    };

    it('goes LIVE with the encoder tracks, counts a viewer, and ends OFFLINE', async () => {
      const stream = await createStream(server, token, 'ffmpeg');
      const encoder = publishPattern(await rtmpUrlOf(stream.streamKey), PATTERN);
      try {
        const live = await waitFor('stream LIVE with two tracks', async () => {
          const now = await metricsOf(stream.id);
          return now.metrics.status === 'LIVE' && now.tracks.length === 2 ? now : undefined;
        });
        assert.ok(live);
        assert.equal(live.metrics.isLive, true);
        assert.ok(live.metrics.startedAt);
        const video = live.tracks.find((track) => track.trackType === 'video');
        const audio = live.tracks.find((track) => track.trackType === 'audio');
        assert.deepEqual(
          { codec: video?.codec, width: video?.width, height: video?.height },
          { codec: 'h264', width: PATTERN.width, height: PATTERN.height },
        );
        assert.deepEqual(
          { codec: audio?.codec, channels: audio?.channels, sampleRate: audio?.sampleRate },
          { codec: 'aac', channels: 2, sampleRate: 48_000 },
        );

        const viewer = new AbortController();
        const playback = await fetch(`${server.baseUrl}/play/${stream.playbackId}.mp4`, { signal: viewer.signal });
        assert.equal(playback.status, 200);
        const reader = playback.body?.getReader();
        await reader?.read();
        await waitFor('one viewer counted', async () => (await metricsOf(stream.id)).metrics.currentViewers === 1);
        viewer.abort();
        await reader?.cancel().catch(() => undefined);
        await waitFor('viewer gone', async () => (await metricsOf(stream.id)).metrics.currentViewers === 0);
      } finally {
        await encoder.stop();
      }
      const ended = await waitFor('stream OFFLINE after the reconnect window', async () => {
        const now = await metricsOf(stream.id);
        return now.metrics.status === 'OFFLINE' ? now : undefined;
      });
      assert.ok(ended);
      assert.equal(ended.metrics.isLive, false);
      assert.equal(ended.metrics.currentViewers, 0);
    });

    it('refuses a rotated-out key and accepts a second active key', async () => {
      const stream = await createStream(server, token, 'keys');
      const rtmpUrl = await rtmpUrlOf(stream.streamKey);
      await server.graphql(
        'mutation ($id: ID!) { refreshStreamKey(id: $id) { __typename } }',
        { id: stream.id },
        token,
      );
      const refused = publishPattern(rtmpUrl, { ...PATTERN, seconds: 3 });
      const code = await refused.exited;
      assert.notEqual(code, 0, 'ffmpeg must fail with a rotated-out key');
      assert.equal((await metricsOf(stream.id)).metrics.status, 'OFFLINE');

      const backup = await server.graphql<{ createStreamKey: { keyValue: string } }>(
        'mutation ($id: ID!) { createStreamKey(streamId: $id, input: { name: "backup" }) { ... on StreamKey { keyValue } } }',
        { id: stream.id },
        token,
      );
      const backupKey = backup.data?.createStreamKey.keyValue;
      assert.ok(backupKey);
      const encoder = publishPattern(await rtmpUrlOf(backupKey), PATTERN);
      try {
        await waitFor(
          'LIVE through the backup key',
          async () => (await metricsOf(stream.id)).metrics.status === 'LIVE',
        );
      } finally {
        await encoder.stop();
      }
    });
  });
}
