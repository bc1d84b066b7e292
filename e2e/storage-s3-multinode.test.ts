/**
 * Object storage shared by nodes (issue 18): two nodes on one PostgreSQL and one S3 bucket (a
 * real radosgw that verifies SigV4). A recording made on node A (ffmpeg publishing to a
 * `record: true` stream there) is finalized into a chapter whose segments and renditions live in
 * the bucket, and node B — which never saw the stream — plays that chapter as CMAF HLS and MP4;
 * a VOD uploaded and processed on node A plays from node B too.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createScratchDatabase, postgresMissing, type ScratchDatabase } from '@airwave/server/testing/databases';
import { type Radosgw, radosgwMissing, startRadosgw } from '@airwave/server/testing/radosgw';
import { startTestServer, type TestServer } from '@airwave/server/testing/test-server';
import { registerAccount } from './support/accounts.js';
import { ffmpegMissing, ffprobeJson, publishPattern } from './support/ffmpeg.js';
import { waitFor } from './support/processes.js';
import { makeTestVideo, uploadVod } from './support/vod.js';

describe('a recording written to S3 on node A plays from node B', {
  skip: ffmpegMissing || radosgwMissing || postgresMissing,
}, () => {
  let rgw: Radosgw;
  let database: ScratchDatabase;
  let nodeA: TestServer;
  let nodeB: TestServer;
  let token: string;
  const work = mkdtempSync(join(tmpdir(), 'airwave-s3-nodes-'));

  before(async () => {
    rgw = await startRadosgw();
    database = await createScratchDatabase();
    const env = {
      DATABASE_URL: database.url,
      AIRWAVE_RECONNECT_WINDOW_SECONDS: '1',
      AIRWAVE_S3_ENDPOINT: rgw.endpoint,
      AIRWAVE_S3_BUCKET: 'shared-media',
      AIRWAVE_S3_REGION: rgw.region,
      AIRWAVE_S3_ACCESS_KEY_ID: rgw.accessKeyId,
      AIRWAVE_S3_SECRET_ACCESS_KEY: rgw.secretAccessKey,
    };
    nodeA = await startTestServer({ name: 'postgres' }, { ...env, AIRWAVE_NODE_ID: 'node-a' });
    nodeB = await startTestServer({ name: 'postgres' }, { ...env, AIRWAVE_NODE_ID: 'node-b' });
    token = (await registerAccount(nodeA, 'shared')).token;
  });
  after(async () => {
    await nodeB?.close();
    await nodeA?.close();
    await database?.drop();
    await rgw?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  async function gql<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
    const response = await nodeA.graphql<T>(query, variables, token);
    assert.equal(response.errors, undefined, JSON.stringify(response.errors));
    return response.data as T;
  }

  async function assertPlaysFromB(playbackId: string, seconds: number, label: string): Promise<void> {
    for (const url of [
      `${nodeB.baseUrl}/play/${playbackId}/cmaf/index.m3u8`,
      `${nodeB.baseUrl}/play/${playbackId}.mp4`,
    ]) {
      const probed = await ffprobeJson<{ streams: { codec_name: string }[]; format: { duration: string } }>(
        ['-show_streams', '-show_format'],
        url,
      );
      assert.deepEqual(probed.streams.map((stream) => stream.codec_name).sort(), ['aac', 'h264'], `${label} ${url}`);
      assert.ok(
        Math.abs(Number(probed.format.duration) - seconds) <= 2.5,
        `${label} ${url}: ${probed.format.duration} s`,
      );
    }
  }

  it('a chapter recorded on A plays from B (CMAF HLS, MP4)', async () => {
    const created = await gql<{ createStream: { id: string; streamKey: string } }>(
      `mutation { createStream(input: { name: "shared", record: true }) { ... on Stream { id streamKey } } }`,
    );
    const seconds = 6;
    const encoder = publishPattern(
      `rtmp://127.0.0.1:${nodeA.running.ports.rtmp}/live/${created.createStream.streamKey}`,
      {
        width: 320,
        height: 180,
        fps: 15,
        gop: 30,
        seconds,
      },
    );
    assert.equal(await encoder.exited, 0, encoder.stderr());
    const recording = await waitFor(
      'recording completed',
      async () =>
        (
          await gql<{ storageArtifactsConnection: { nodes: { hash: string; status: string }[] } }>(
            `query ($id: ID) { storageArtifactsConnection(input: { kinds: [DVR], streamId: $id }) { nodes { hash status } } }`,
            { id: created.createStream.id },
          )
        ).storageArtifactsConnection.nodes.find((node) => node.status === 'completed'),
      60_000,
    );
    const chapter = await waitFor(
      'chapter finalized',
      async () =>
        (
          await gql<{ dvrChapters: { chapters: { state: string; playbackId: string }[] } }>(
            `query ($id: ID!) { dvrChapters(dvrId: $id) { chapters { state playbackId } } }`,
            { id: recording.hash },
          )
        ).dvrChapters.chapters.find((entry) => entry.state === 'FINALIZED'),
      90_000,
    );
    await waitFor(
      'chapter MP4 rendition in the bucket',
      async () =>
        (await fetch(`${nodeB.baseUrl}/play/${chapter.playbackId}.mp4`, { method: 'HEAD' })).status === 200 ||
        undefined,
      90_000,
    );
    await assertPlaysFromB(chapter.playbackId, seconds, 'chapter');
  });

  it('a VOD uploaded and processed on A plays from B', async () => {
    const file = join(work, 'clip.mp4');
    await makeTestVideo(file, 8, 4);
    const asset = await uploadVod(nodeA, token, file);
    assert.equal(asset.status, 'READY', asset.errorMessage ?? '');
    assert.equal(asset.storageLocation, 's3');
    await assertPlaysFromB(asset.playbackId, 8, 'VOD');
  });
});
