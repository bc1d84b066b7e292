/**
 * The README's quick start, run as written against a fresh server: the GraphQL blocks in order
 * (register, createStream, createDeveloperToken), the curl query with the developer token, an
 * ffmpeg publish with the stream key, and ffprobe on the playback URL.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '@airwave/server/testing/test-server';
import { byType, ffmpegMissing, probeStreams, publishPattern } from './support/ffmpeg.js';
import { waitFor } from './support/processes.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const graphqlBlocks = [...readme.matchAll(/```graphql\n([\s\S]*?)```/g)].map((match) => (match[1] as string).trim());
const curlQuery = /-d '(\{"query":.*\})'/.exec(readme)?.[1];

type Result = Record<string, { __typename: string } & Record<string, string>>;

describe('README quick start', { skip: ffmpegMissing }, () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server?.close();
  });

  it('works step by step as written', async () => {
    assert.equal(graphqlBlocks.length, 3, 'register, createStream, createDeveloperToken');
    const [register, createStream, createToken] = graphqlBlocks as [string, string, string];

    const registered = await server.graphql<Result>(register);
    assert.equal(registered.errors, undefined, JSON.stringify(registered.errors));
    const session = registered.data?.register;
    assert.equal(session?.__typename, 'AuthPayload');
    const sessionToken = session?.token as string;

    const created = await server.graphql<Result>(createStream, {}, sessionToken);
    assert.equal(created.errors, undefined, JSON.stringify(created.errors));
    const stream = created.data?.createStream;
    assert.equal(stream?.__typename, 'Stream');

    const tokenResult = await server.graphql<Result>(createToken, {}, sessionToken);
    assert.equal(tokenResult.errors, undefined, JSON.stringify(tokenResult.errors));
    const developerToken = tokenResult.data?.createDeveloperToken?.tokenValue;
    assert.match(developerToken ?? '', /^aw_/);

    assert.ok(curlQuery, 'the README has a curl query');
    const listed = await fetch(`${server.baseUrl}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${developerToken}`, 'content-type': 'application/json' },
      body: curlQuery,
    });
    const body = (await listed.json()) as {
      data: { streamsConnection: { totalCount: number; nodes: { name: string; metrics: { status: string } }[] } };
    };
    assert.equal(body.data.streamsConnection.totalCount, 1);
    assert.deepEqual(body.data.streamsConnection.nodes[0], {
      name: 'My show',
      playbackId: stream?.playbackId,
      metrics: { status: 'OFFLINE' },
    });

    const rtmpUrl = `rtmp://127.0.0.1:${server.running.ports.rtmp}/live/${stream?.streamKey}`;
    const publisher = publishPattern(rtmpUrl, { width: 1280, height: 720, seconds: 12 });
    try {
      const hls = `${server.baseUrl}/play/${stream?.playbackId}/hls/index.m3u8`;
      await waitFor('the HLS playlist', async () => (await fetch(hls)).status === 200, 30_000);
      const video = byType(await probeStreams(hls), 'video');
      assert.equal(video.codec_name, 'h264');
      assert.equal(video.width, 1280);
      assert.equal(video.height, 720);
    } finally {
      await publisher.stop();
    }
  });
});
