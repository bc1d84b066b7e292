/**
 * Clips with real clients: ffmpeg publishes to a `record: true` stream; a CLIP_NOW clip cut while
 * live plays at once; an ABSOLUTE clip after the end comes back with its GOP-snapped range and
 * plays as MP4 and HLS starting on a keyframe with the snapped duration; a range not recorded is
 * a ValidationError naming the field; the clip's viewers count in the stream's daily analytics;
 * resolveViewerEndpoint routes a viewer to the clip; deleteClip removes the clip.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '@airwave/server/testing/test-server';
import { registerAccount } from './support/accounts.js';
import { todaysAnalytics } from './support/analytics.js';
import { ffmpegMissing, ffprobeJson, probePackets, publishPattern } from './support/ffmpeg.js';
import { waitFor } from './support/processes.js';

interface Clip {
  __typename: 'Clip';
  id: string;
  playbackId: string;
  startTime: number;
  duration: number;
  status: string;
}

const CLIP_FIELDS =
  '__typename ... on Clip { id playbackId startTime duration status } ... on ValidationError { field message }';

describe('clips with ffmpeg', { skip: ffmpegMissing || false }, () => {
  let server: TestServer;
  let token: string;

  before(async () => {
    server = await startTestServer(undefined, { AIRWAVE_RECONNECT_WINDOW_SECONDS: '1' });
    token = (await registerAccount(server, 'clipper')).token;
  });
  after(() => server.close());

  async function gql<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
    const response = await server.graphql<T>(query, variables, token);
    assert.equal(response.errors, undefined, JSON.stringify(response.errors));
    assert.ok(response.data);
    return response.data;
  }

  const createClip = async (input: Record<string, unknown>) =>
    (
      await gql<{ createClip: Clip | { __typename: 'ValidationError'; field: string; message: string } }>(
        `mutation ($input: CreateClipInput!) { createClip(input: $input) { ${CLIP_FIELDS} } }`,
        { input },
      )
    ).createClip;

  async function duration(url: string): Promise<number> {
    return Number(
      (await ffprobeJson<{ format: { duration: string } }>(['-show_entries', 'format=duration'], url)).format.duration,
    );
  }

  it('cuts GOP-aligned clips live and after the end; each plays from a keyframe with its snapped duration', async () => {
    const created = await gql<{ createStream: { id: string; streamKey: string } }>(
      `mutation { createStream(input: { name: "clipped", record: true }) { ... on Stream { id streamKey } } }`,
    );
    const stream = created.createStream;
    const encoder = publishPattern(`rtmp://127.0.0.1:${server.running.ports.rtmp}/live/${stream.streamKey}`, {
      width: 320,
      height: 180,
      fps: 15,
      gop: 30,
      seconds: 14,
    });
    const live = await waitFor(
      'a CLIP_NOW clip while live',
      async () => {
        const clip = await createClip({ streamId: stream.id, title: 'now', mode: 'CLIP_NOW', duration: 4 });
        return clip.__typename === 'Clip' ? clip : undefined;
      },
      30_000,
      500,
    );
    assert.ok(live.duration >= 4 && live.duration <= 8, `live clip of ${live.duration} s`);
    const livePlaylist = `${server.baseUrl}/play/${live.playbackId}/cmaf/index.m3u8`;
    assert.ok(Math.abs((await duration(livePlaylist)) - live.duration) < 0.5);
    assert.equal(await encoder.exited, 0, encoder.stderr());

    const outside = await createClip({ streamId: stream.id, title: 'past', startUnix: 1_000_000, stopUnix: 1_000_010 });
    assert.equal(outside.__typename, 'ValidationError');
    assert.equal((outside as { field: string }).field, 'input.startUnix');

    const chapters = await waitFor('recording chaptered', async () => {
      const artifacts = await gql<{ storageArtifactsConnection: { nodes: { hash: string; status: string }[] } }>(
        `query ($id: ID) { storageArtifactsConnection(input: { kinds: [DVR], streamId: $id }) { nodes { hash status } } }`,
        { id: stream.id },
      );
      const dvr = artifacts.storageArtifactsConnection.nodes.find((node) => node.status === 'completed');
      if (!dvr) {
        return undefined;
      }
      const page = await gql<{ dvrChapters: { chapters: { startMs: number }[] } }>(
        'query ($id: ID!) { dvrChapters(dvrId: $id) { chapters { startMs } } }',
        { id: dvr.hash },
      );
      return page.dvrChapters.chapters.length > 0 ? page.dvrChapters.chapters : undefined;
    });
    const origin = (chapters[0]?.startMs ?? 0) / 1000;
    const requested = { start: origin + 3.3, stop: origin + 7.1 };
    const clip = await createClip({
      streamId: stream.id,
      title: 'absolute',
      startUnix: requested.start,
      stopUnix: requested.stop,
    });
    assert.equal(clip.__typename, 'Clip', JSON.stringify(clip));
    const snapped = clip as Clip;
    assert.ok(snapped.startTime <= requested.start + 0.001, `start ${snapped.startTime} snapped back`);
    assert.ok(snapped.startTime > requested.start - 2.5, `start ${snapped.startTime} within one GOP`);
    assert.ok(snapped.startTime + snapped.duration >= requested.stop - 0.001, 'end snapped forward');
    const ready = await waitFor(
      'clip renditions ready',
      async () => {
        const data = await gql<{ clip: Clip }>(
          'query ($id: ID!) { clip(id: $id) { id playbackId startTime duration status } }',
          {
            id: snapped.id,
          },
        );
        return data.clip.status === 'ready' ? data.clip : undefined;
      },
      30_000,
    );
    for (const url of [
      `${server.baseUrl}/play/${ready.playbackId}.mp4`,
      `${server.baseUrl}/play/${ready.playbackId}/hls/index.m3u8`,
      `${server.baseUrl}/play/${ready.playbackId}/cmaf/index.m3u8`,
    ]) {
      const video = (await probePackets(url)).filter((packet) => packet.codec_type === 'video');
      assert.ok(video[0]?.flags.startsWith('K'), `${url}: first frame is a keyframe`);
      assert.ok(Math.abs((await duration(url)) - snapped.duration) < 0.5, `${url}: snapped duration`);
    }
    // Clip viewers are sessions of their stream (issue 20 §1); nobody watched the stream live, so every view is a clip's.
    const mp4Bytes = (await (await fetch(`${server.baseUrl}/play/${ready.playbackId}.mp4`)).arrayBuffer()).byteLength;
    const day = await waitFor('the clip views in the analytics', async () => {
      const row = await todaysAnalytics(server, token, stream.id);
      // Written every flush (2 s): wait until the bytes of every read so far are in.
      return row && row.totalViews > 0 && row.egressBytes >= mp4Bytes ? row : undefined;
    });
    // ffprobe and this test's fetch: one address, two user agents (the fetch's may land in a later flush).
    assert.ok(day.uniqueViewers >= 1 && day.uniqueViewers <= 2, `unique viewers ${day.uniqueViewers}`);

    const routed = await gql<{
      resolveViewerEndpoint: {
        primary: { outputs: Record<string, { url: string }> } | null;
        metadata: { contentType: string; isLive: boolean };
      };
    }>(
      'query ($id: String!) { resolveViewerEndpoint(contentId: $id) { primary { outputs } metadata { contentType isLive } } }',
      {
        id: ready.playbackId,
      },
    );
    assert.deepEqual(routed.resolveViewerEndpoint.metadata, { contentType: 'clip', isLive: false });
    assert.equal(
      routed.resolveViewerEndpoint.primary?.outputs.MP4?.url,
      `${server.baseUrl}/play/${ready.playbackId}.mp4`,
    );

    const deleted = await gql<{ deleteClip: { __typename: string } }>(
      'mutation ($id: ID!) { deleteClip(id: $id) { __typename } }',
      { id: snapped.id },
    );
    assert.equal(deleted.deleteClip.__typename, 'DeleteSuccess');
    const gone = await server.graphql('query ($id: ID!) { clip(id: $id) { id } }', { id: snapped.id }, token);
    assert.equal(gone.errors?.[0]?.extensions?.code, 'NOT_FOUND');
    const played = await fetch(`${server.baseUrl}/play/${ready.playbackId}.mp4`);
    assert.equal(played.status, 404);
  });
});
