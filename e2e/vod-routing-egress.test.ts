/**
 * A VOD asset as viewer routing and `/metrics` see it: resolveViewerEndpoint answers its playback
 * id (the spec's contentId of a VOD upload) with the node holding it and URLs that play; the
 * bytes of its answers (progressive MP4, playlists and segments) count in
 * `airwave_egress_bytes_total` like those of live streams, so the egress a node reports in its
 * heartbeat (viewer routing's load and capacity) includes what it serves from storage.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseMetrics, sampleValue } from '@airwave/server/testing/prometheus';
import { startTestServer, type TestServer } from '@airwave/server/testing/test-server';
import { registerAccount } from './support/accounts.js';
import { ffmpegMissing } from './support/ffmpeg.js';
import { makeTestVideo, uploadVod } from './support/vod.js';

describe('a VOD asset in viewer routing and /metrics', { skip: ffmpegMissing }, () => {
  const work = mkdtempSync(join(tmpdir(), 'airwave-vod-egress-'));
  let server: TestServer;
  let playbackId: string;

  const egress = async (): Promise<number> => {
    const response = await fetch(`${server.baseUrl}/metrics`);
    assert.equal(response.status, 200);
    return sampleValue(parseMetrics(await response.text()), 'airwave_egress_bytes_total') ?? Number.NaN;
  };

  before(async () => {
    server = await startTestServer();
    const token = (await registerAccount(server, 'vod-egress')).token;
    const file = join(work, 'short.mp4');
    await makeTestVideo(file, 4, 2);
    const asset = await uploadVod(server, token, file);
    assert.equal(asset.status, 'READY', asset.errorMessage ?? '');
    playbackId = asset.playbackId;
  });
  after(async () => {
    await server?.close();
    rmSync(work, { recursive: true, force: true });
  });

  test('resolveViewerEndpoint sends the viewer to the node holding the asset, with URLs that play', async () => {
    const response = await server.graphql<{
      resolveViewerEndpoint: {
        primary: { nodeId: string; url: string; outputs: Record<string, { url: string }> } | null;
        metadata: { contentType: string; status: string; isLive: boolean; contentId: string };
      };
    }>(
      `query ($id: String!) { resolveViewerEndpoint(contentId: $id) {
        primary { nodeId url outputs } metadata { contentType status isLive contentId } } }`,
      { id: playbackId },
    );
    assert.equal(response.errors, undefined, JSON.stringify(response.errors));
    const resolved = response.data?.resolveViewerEndpoint;
    assert.deepEqual(resolved?.metadata, { contentType: 'vod', status: 'READY', isLive: false, contentId: playbackId });
    assert.deepEqual(Object.keys(resolved?.primary?.outputs ?? {}).sort(), ['DASH', 'HLS', 'HLS_CMAF', 'MP4']);
    for (const url of [resolved?.primary?.url, resolved?.primary?.outputs.MP4?.url]) {
      const answer = await fetch(url ?? '');
      assert.equal(answer.status, 200, url);
      await answer.arrayBuffer();
    }
  });

  test('counts the bytes of the MP4, the playlists and a segment', async () => {
    const base = `${server.baseUrl}/play/${playbackId}`;
    const before = await egress();
    let sent = 0;
    for (const url of [`${base}.mp4`, `${base}/cmaf/index.m3u8`, `${base}/cmaf/media_0.m3u8`]) {
      const response = await fetch(url);
      assert.equal(response.status, 200, url);
      const body = Buffer.from(await response.arrayBuffer());
      sent += body.byteLength;
      if (url.endsWith('media_0.m3u8')) {
        const segment = body
          .toString()
          .split('\n')
          .find((line) => line !== '' && !line.startsWith('#'));
        assert.ok(segment, 'the media playlist lists a segment');
        const answer = await fetch(new URL(segment, url));
        assert.equal(answer.status, 200);
        sent += (await answer.arrayBuffer()).byteLength;
      }
    }
    assert.equal((await egress()) - before, sent);
  });
});
