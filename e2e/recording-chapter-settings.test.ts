/**
 * A stream's chapter settings through updateStream on the real API: `dvrChapterMode` reads back
 * WINDOW_SIZED until changed; FIXED_INTERVAL needs `dvrChapterIntervalSeconds` of at least an
 * hour, which no other mode takes; a refused change leaves the whole stream as it was; another
 * tenant's stream is NOT_FOUND. (The recorder following them: jobs/recorder/recorders.test.ts.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '@airwave/server/testing/test-server';
import { createStream, registerAccount } from './support/accounts.js';

const UPDATE = `mutation ($id: ID!, $input: UpdateStreamInput!) {
  updateStream(id: $id, input: $input) {
    __typename
    ... on Stream { name dvrChapterMode dvrChapterIntervalSeconds }
    ... on ValidationError { field constraint }
  }
}`;

describe('stream chapter settings', () => {
  let server: TestServer;
  let token: string;

  before(async () => {
    server = await startTestServer();
    token = (await registerAccount(server, 'chapters')).token;
  });
  after(() => server.close());

  const update = async (id: string, input: Record<string, unknown>, as = token) => {
    const response = await server.graphql<{ updateStream: Record<string, unknown> }>(UPDATE, { id, input }, as);
    assert.equal(response.errors, undefined, JSON.stringify(response.errors));
    return response.data?.updateStream;
  };

  it('sets, checks and reads back dvrChapterMode and dvrChapterIntervalSeconds', async () => {
    const stream = await createStream(server, token, 'show');
    const read = await server.graphql<{ stream: Record<string, unknown> }>(
      'query ($id: ID!) { stream(id: $id) { dvrChapterMode dvrChapterIntervalSeconds } }',
      { id: stream.id },
      token,
    );
    assert.deepEqual(read.data?.stream, { dvrChapterMode: 'WINDOW_SIZED', dvrChapterIntervalSeconds: null });

    const refused: [Record<string, unknown>, string, string][] = [
      [{ dvrChapterMode: 'FIXED_INTERVAL' }, 'input.dvrChapterIntervalSeconds', 'required'],
      [
        { dvrChapterMode: 'FIXED_INTERVAL', dvrChapterIntervalSeconds: 1800 },
        'input.dvrChapterIntervalSeconds',
        'range',
      ],
      [{ dvrChapterIntervalSeconds: 7200 }, 'input.dvrChapterIntervalSeconds', 'fixed_interval_only'],
      [
        { dvrChapterMode: 'NONE', dvrChapterIntervalSeconds: 7200 },
        'input.dvrChapterIntervalSeconds',
        'fixed_interval_only',
      ],
    ];
    for (const [input, field, constraint] of refused) {
      assert.deepEqual(
        await update(stream.id, { name: 'renamed', ...input }),
        { __typename: 'ValidationError', field, constraint },
        JSON.stringify(input),
      );
    }
    assert.deepEqual(await update(stream.id, { dvrChapterMode: 'FIXED_INTERVAL', dvrChapterIntervalSeconds: 7200 }), {
      __typename: 'Stream',
      name: 'show',
      dvrChapterMode: 'FIXED_INTERVAL',
      dvrChapterIntervalSeconds: 7200,
    });
    assert.deepEqual(await update(stream.id, { dvrChapterIntervalSeconds: 10_800 }), {
      __typename: 'Stream',
      name: 'show',
      dvrChapterMode: 'FIXED_INTERVAL',
      dvrChapterIntervalSeconds: 10_800,
    });
    assert.deepEqual(await update(stream.id, { name: 'later', dvrChapterMode: 'NONE' }), {
      __typename: 'Stream',
      name: 'later',
      dvrChapterMode: 'NONE',
      dvrChapterIntervalSeconds: null,
    });
    const intruder = (await registerAccount(server, 'intruder')).token;
    assert.equal((await update(stream.id, { dvrChapterMode: 'WINDOW_SIZED' }, intruder))?.__typename, 'NotFoundError');
  });
});
