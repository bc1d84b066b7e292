/**
 * setPlaybackPolicy on a VOD asset (frameworks.md §1.11, issue 18): an uploaded asset plays
 * publicly; with a JWT policy every `/play` URL of it (CMAF and TS HLS playlists and segments,
 * DASH, MP4) refuses a request without a token or with another playback ID's token, and a valid
 * token plays it in ffprobe through the playlists (the token carried into every URI); PUBLIC
 * again opens it. Giving both a stream and an asset is a ValidationError; another tenant's asset
 * is NOT_FOUND.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { signPlaybackToken } from '@airwave/server/domain/playback-access/sign-playback-token';
import { startTestServer, type TestServer } from '@airwave/server/testing/test-server';
import { createStream, registerAccount } from './support/accounts.js';
import { ffmpegMissing, ffprobeJson } from './support/ffmpeg.js';
import { type CreatedKey, createSigningKey } from './support/playback-access.js';
import { makeTestVideo, uploadVod } from './support/vod.js';

const SET_POLICY = `mutation ($input: SetPlaybackPolicyInput!) {
  setPlaybackPolicy(input: $input) {
    __typename
    ... on VodAsset { id playbackPolicy { type jwt { allowedKids } } }
    ... on ValidationError { field constraint message }
    ... on Error { message code }
  }
}`;

describe('playback policy of a VOD asset', { skip: ffmpegMissing }, () => {
  const work = mkdtempSync(join(tmpdir(), 'airwave-vod-policy-'));
  let server: TestServer;
  let token: string;
  let key: CreatedKey;
  let assetId: string;
  let playbackId: string;

  const setPolicy = async (input: Record<string, unknown>, as = token) =>
    (await server.graphql<{ setPlaybackPolicy: Record<string, unknown> }>(SET_POLICY, { input }, as)).data
      ?.setPlaybackPolicy;
  const viewerToken = (sub: string) =>
    signPlaybackToken(key.privateKeyPem, { sub, exp: Math.floor(Date.now() / 1000) + 600 }, { kid: key.kid });

  before(async () => {
    server = await startTestServer();
    token = (await registerAccount(server, 'vod-policy')).token;
    key = await createSigningKey(server, token);
    const file = join(work, 'short.mp4');
    await makeTestVideo(file, 6, 2);
    const asset = await uploadVod(server, token, file);
    assert.equal(asset.status, 'READY', asset.errorMessage ?? '');
    assetId = asset.id;
    playbackId = asset.playbackId;
  });
  after(async () => {
    await server?.close();
    rmSync(work, { recursive: true, force: true });
  });

  /** Every kind of media URL of the asset, without a token. */
  async function mediaUrls(jwt?: string): Promise<string[]> {
    const base = `${server.baseUrl}/play/${playbackId}`;
    const q = jwt ? `?jwt=${jwt}` : '';
    const urls = [`${base}/cmaf/index.m3u8`, `${base}/cmaf/index.mpd`, `${base}/hls/index.m3u8`, `${base}.mp4`];
    // A segment of each HLS flavour, read from the playlists while the asset is public.
    for (const playlist of ['cmaf/media_0.m3u8', 'hls/index.m3u8']) {
      const text = await (await fetch(`${base}/${playlist}${q}`)).text();
      const segment = text.split('\n').find((line) => line !== '' && !line.startsWith('#'));
      assert.ok(segment, `${playlist} lists a segment: ${text.slice(0, 200)}`);
      urls.push(new URL(segment, `${base}/${playlist}`).toString().replace(/\?.*$/, ''));
    }
    return urls;
  }

  test('a JWT policy gates every media URL; a valid token plays; PUBLIC opens it again', async () => {
    const urls = await mediaUrls();
    for (const url of urls) {
      assert.equal((await fetch(url)).status, 200, `public: ${url}`);
    }
    const set = await setPolicy({ vodAssetId: assetId, policy: { type: 'JWT', jwt: { allowedKids: [key.kid] } } });
    assert.deepEqual(set, {
      __typename: 'VodAsset',
      id: assetId,
      playbackPolicy: { type: 'JWT', jwt: { allowedKids: [key.kid] } },
    });
    const other = viewerToken('someotherplaybackid');
    for (const url of urls) {
      const bare = await fetch(url);
      assert.ok(bare.status === 401 || bare.status === 403, `no token: ${url} answered ${bare.status}`);
      const wrong = await fetch(`${url}?jwt=${other}`);
      assert.ok(wrong.status === 401 || wrong.status === 403, `other sub: ${url} answered ${wrong.status}`);
    }
    const valid = viewerToken(playbackId);
    for (const url of urls) {
      assert.equal((await fetch(`${url}?jwt=${valid}`)).status, 200, `valid token: ${url}`);
    }
    const playlist = await (await fetch(`${server.baseUrl}/play/${playbackId}/cmaf/media_0.m3u8?jwt=${valid}`)).text();
    assert.match(playlist, /seg-0-\d+\.m4s\?jwt=/);
    const probed = await ffprobeJson<{ format: { duration: string } }>(
      ['-show_format'],
      `${server.baseUrl}/play/${playbackId}/cmaf/index.m3u8?jwt=${valid}`,
    );
    assert.ok(Math.abs(Number(probed.format.duration) - 6) < 1, probed.format.duration);

    const view = await server.graphql<{ vodAsset: { playbackPolicy: { type: string } } }>(
      'query ($id: ID!) { vodAsset(id: $id) { playbackPolicy { type } } }',
      { id: assetId },
      token,
    );
    assert.equal(view.data?.vodAsset.playbackPolicy.type, 'JWT');
    assert.equal((await setPolicy({ vodAssetId: assetId, policy: { type: 'PUBLIC' } }))?.__typename, 'VodAsset');
    for (const url of urls) {
      assert.equal((await fetch(url)).status, 200, `public again: ${url}`);
    }
  });

  test('both a stream and an asset is a ValidationError; another tenant’s asset is NOT_FOUND', async () => {
    const stream = await createStream(server, token);
    const both = await setPolicy({ streamId: stream.id, vodAssetId: assetId, policy: { type: 'PUBLIC' } });
    assert.equal(both?.__typename, 'ValidationError');
    assert.equal(both?.field, 'input.streamId');
    const neither = await setPolicy({ policy: { type: 'PUBLIC' } });
    assert.equal(neither?.__typename, 'ValidationError');
    const intruder = (await registerAccount(server, 'intruder')).token;
    const foreign = await setPolicy({ vodAssetId: assetId, policy: { type: 'PUBLIC' } }, intruder);
    assert.equal(foreign?.__typename, 'NotFoundError');
  });
});
