/**
 * A clip's own playback policy (setPlaybackPolicy with clipId) on the real service: the clip's
 * `/play` URLs then need a token signed by the account's key while the stream's other clip keeps
 * the stream's (public) policy; `Clip.playbackPolicy` reads back either; exactly one target must
 * be named; another tenant's clip is NOT_FOUND.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { signPlaybackToken } from '@airwave/server/domain/playback-access/sign-playback-token';
import { startTestServer, type TestServer } from '@airwave/server/testing/test-server';
import { createStream, registerAccount } from './support/accounts.js';
import { createSigningKey, testPlaybackAccess } from './support/playback-access.js';
import { seedClip } from './support/recordings.js';

const SET = `mutation ($input: SetPlaybackPolicyInput!) {
  setPlaybackPolicy(input: $input) {
    __typename
    ... on Clip { id playbackPolicy { type jwt { allowedKids } } }
    ... on Stream { id }
    ... on ValidationError { field constraint }
    ... on Error { message }
  }
}`;

interface SetResult {
  __typename: string;
  id?: string;
  field?: string;
  playbackPolicy?: { type: string; jwt: { allowedKids: string[] } | null };
}

describe('playback policy of a clip', () => {
  let server: TestServer;
  let owner: string;

  before(async () => {
    server = await startTestServer();
    owner = (await registerAccount(server, 'clip-owner')).token;
  });
  after(() => server.close());

  const set = async (token: string, input: Record<string, unknown>) => {
    const response = await server.graphql<{ setPlaybackPolicy: SetResult }>(SET, { input }, token);
    assert.equal(response.errors, undefined, JSON.stringify(response.errors));
    return response.data?.setPlaybackPolicy as SetResult;
  };

  const clipOf = async (id: string) => {
    const response = await server.graphql<{ clip: { playbackId: string; playbackPolicy: { type: string } } }>(
      'query ($id: ID!) { clip(id: $id) { playbackId playbackPolicy { type } } }',
      { id },
      owner,
    );
    assert.ok(response.data?.clip, JSON.stringify(response));
    return response.data.clip;
  };

  const playlist = (playbackId: string, jwt?: string) =>
    fetch(`${server.baseUrl}/play/${playbackId}/cmaf/index.m3u8`, {
      headers: jwt ? { authorization: `Bearer ${jwt}` } : {},
    });

  it('gates the clip alone under its own JWT policy; the stream and its other clip stay public', async () => {
    const stream = await createStream(server, owner, 'clipped');
    const key = await createSigningKey(server, owner, 'clip key');
    const guardedId = await seedClip(server, owner, stream.id);
    const openId = await seedClip(server, owner, stream.id);
    const guarded = await clipOf(guardedId);
    const open = await clipOf(openId);
    assert.equal(guarded.playbackPolicy.type, 'PUBLIC', 'a clip inherits its stream policy');
    assert.equal((await playlist(guarded.playbackId)).status, 200);

    const result = await set(owner, { clipId: guardedId, policy: { type: 'JWT', jwt: { allowedKids: [key.kid] } } });
    assert.deepEqual(result, {
      __typename: 'Clip',
      id: guardedId,
      playbackPolicy: { type: 'JWT', jwt: { allowedKids: [key.kid] } },
    });
    assert.equal((await clipOf(guardedId)).playbackPolicy.type, 'JWT');
    assert.equal((await clipOf(openId)).playbackPolicy.type, 'PUBLIC');

    assert.equal((await playlist(guarded.playbackId)).status, 401, 'no token');
    const token = signPlaybackToken(
      key.privateKeyPem,
      { sub: guarded.playbackId, exp: Math.floor(Date.now() / 1000) + 600 },
      { kid: key.kid },
    );
    const allowed = await playlist(guarded.playbackId, token);
    assert.equal(allowed.status, 200, await allowed.text());
    assert.equal((await playlist(open.playbackId)).status, 200, 'the other clip keeps the stream policy');
    assert.equal((await playlist(stream.playbackId)).status !== 401, true, 'the live stream is not gated');
    const decision = await testPlaybackAccess(server, owner, { playbackId: guarded.playbackId });
    assert.equal(decision.policyType, 'JWT');
    assert.equal(decision.allowed, false);

    const back = await set(owner, { clipId: guardedId, policy: { type: 'PUBLIC' } });
    assert.equal(back.playbackPolicy?.type, 'PUBLIC');
    assert.equal((await playlist(guarded.playbackId)).status, 200);
  });

  it('needs exactly one of streamId and clipId, and answers NOT_FOUND for another tenant clip', async () => {
    const stream = await createStream(server, owner, 'targets');
    const clipId = await seedClip(server, owner, stream.id);
    const policy = { type: 'PUBLIC' };
    assert.equal((await set(owner, { policy })).field, 'input.streamId');
    assert.equal((await set(owner, { streamId: stream.id, clipId, policy })).field, 'input.streamId');
    const intruder = (await registerAccount(server, 'intruder')).token;
    assert.equal((await set(intruder, { clipId, policy: { type: 'JWT' } })).__typename, 'NotFoundError');
    assert.equal((await clipOf(clipId)).playbackPolicy.type, 'PUBLIC');
  });
});
