/**
 * The private-range guard and pull-source validation over GraphQL on a node that does not allow
 * private sources: loopback, RFC 1918, link-local, CGNAT, unique-local, multicast and unspecified
 * hosts — and a DNS name resolving to 127.0.0.1 — are ValidationErrors on
 * `input.pullSource.sourceUri` naming the opt-in setting; RTMP and FLV pulls are refused; a public
 * source is accepted with its secrets redacted on read. (Acceptance with the setting, and the
 * checks at connect, redirect and playlist time, are in pull-dtsc, pull-sources and the unit tests.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '@airwave/server/testing/test-server';
import { registerAccount } from './support/accounts.js';
import { createPullStream, type PulledStream } from './support/pull.js';

describe('pull-source guard and validation without AIRWAVE_ALLOW_PRIVATE_PULL_SOURCES', () => {
  let server: TestServer;
  let token: string;

  before(async () => {
    server = await startTestServer(undefined, { AIRWAVE_ALLOW_PRIVATE_PULL_SOURCES: 'false' });
    token = (await registerAccount(server, 'guard')).token;
  });
  after(() => server?.close());

  it('refuses private, loopback, link-local, CGNAT, unique-local, multicast and unspecified hosts', async () => {
    for (const uri of [
      'rtsp://127.0.0.1:554/cam',
      'rtsp://localhost:554/cam',
      'srt://10.1.2.3:9000',
      'http://169.254.169.254/latest.ts',
      'rist://100.64.0.1:5000',
      'https://[fd00::1]/live/index.m3u8',
      'udp://239.1.1.1:5000',
      'udp://0.0.0.0:5000',
      'dtsc://192.168.1.20/live',
      'rtsp://[::ffff:127.0.0.1]/cam',
    ]) {
      const result = await createPullStream(server, token, uri);
      assert.ok('__typename' in result && result.__typename === 'ValidationError', `${uri}: ${JSON.stringify(result)}`);
      assert.equal(result.field, 'input.pullSource.sourceUri', uri);
      assert.equal(result.constraint, 'public_address', uri);
      assert.match(result.message, /AIRWAVE_ALLOW_PRIVATE_PULL_SOURCES=false/, uri);
    }
  });

  it('refuses RTMP and FLV-over-HTTP pulls and unsupported schemes by name', async () => {
    const cases: [string, RegExp][] = [
      ['rtmp://8.8.8.8/live/key', /RTMP pull input is unsupported/],
      ['http://8.8.8.8/live.flv', /FLV-over-HTTP pull input is unsupported/],
      ['gopher://8.8.8.8/x', /scheme gopher is unsupported/],
      ['srt://8.8.8.8', /need a port/],
      ['srt://8.8.8.8:9000?mode=listener', /listener mode is not pulled/],
      ['srt://8.8.8.8:9000?passphrase=short', /10 to 79 characters/],
      ['not-a-uri', /not a valid URI/],
    ];
    for (const [uri, message] of cases) {
      const result = await createPullStream(server, token, uri);
      assert.ok('__typename' in result && result.__typename === 'ValidationError', uri);
      assert.equal(result.field, 'input.pullSource.sourceUri');
      assert.match(result.message, message);
    }
  });

  it('accepts a public source, redacts its secrets on read, and re-checks a new URI on update', async () => {
    const created = (
      await server.graphql<{ createStream: PulledStream & { __typename: string } }>(
        `mutation { createStream(input: { name: "public", ingestMode: PULL, sourceLocation: "eu",
        pullSource: { sourceUri: "rtsp://admin:hunter2@8.8.8.8:554/live?token=abc", enabled: false } }) {
        __typename ... on Stream { id pullSource { sourceUriRedacted class enabled onDemand } recentPullSourceEvents { eventKind } }
      } }`,
        {},
        token,
      )
    ).data?.createStream;
    assert.equal(created?.__typename, 'Stream');
    assert.deepEqual(created?.pullSource, {
      sourceUriRedacted: 'rtsp://***@8.8.8.8:554/live?token=***',
      class: 'public',
      enabled: false,
      onDemand: false,
    });
    assert.deepEqual(created?.recentPullSourceEvents, []);
    const update = await server.graphql<{ updateStream: { __typename: string; field?: string; constraint?: string } }>(
      `mutation ($id: ID!) { updateStream(id: $id, input: { pullSource: { sourceUri: "rtsp://10.0.0.9/cam" } }) {
        __typename ... on ValidationError { field constraint }
      } }`,
      { id: created?.id },
      token,
    );
    assert.deepEqual(update.data?.updateStream, {
      __typename: 'ValidationError',
      field: 'input.pullSource.sourceUri',
      constraint: 'public_address',
    });
    const limit = await server.graphql(
      'query ($id: ID!) { stream(id: $id) { recentPullSourceEvents(limit: 101) { eventKind } } }',
      { id: created?.id },
      token,
    );
    assert.equal(limit.errors?.[0]?.extensions?.code, 'VALIDATION_ERROR');
  });
});
