/**
 * Push targets over real HTTP GraphQL on every database backend: create, read (masked, owner
 * only), update and delete; the URI rules (schemes, SRT options) and the private-range guard
 * with and without AIRWAVE_ALLOW_PRIVATE_PUSH_TARGETS; scopes; a deleted stream takes its
 * targets with it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testBackends } from '@airwave/server/testing/databases';
import { startTestServer, type TestServer } from '@airwave/server/testing/test-server';
import { createDeveloperToken, createStream, registerAccount } from './support/accounts.js';
import { createPushTarget, deletePushTarget, readPushTargets, updatePushTarget } from './support/push-targets.js';

const KEY = 'live_4711_ThisIsTheSecretStreamKey';

for (const backend of testBackends()) {
  describe(`push targets API on ${backend.name}`, () => {
    let server: TestServer;
    let privateServer: TestServer;
    let token: string;
    let streamId: string;

    before(async () => {
      server = await startTestServer(backend);
      token = (await registerAccount(server, 'push-owner')).token;
      streamId = (await createStream(server, token, 'restreamed')).id;
    });
    after(async () => {
      await server.close();
      await privateServer?.close();
    });

    it('creates an idle, enabled target read back masked, with zero counters, listed on the stream', async () => {
      const created = await createPushTarget(server, token, streamId, {
        platform: 'twitch',
        name: 'Twitch',
        targetUri: `rtmp://1.1.1.1/app/${KEY}`,
      });
      assert.equal(created.__typename, 'PushTarget', JSON.stringify(created));
      assert.deepEqual(
        {
          platform: created.platform,
          name: created.name,
          uri: created.targetUri,
          enabled: created.isEnabled,
          status: created.status,
          lastError: created.lastError,
          bytes: created.bytesSent,
          kbps: created.bitrateKbps,
        },
        {
          platform: 'twitch',
          name: 'Twitch',
          uri: 'rtmp://1.1.1.1/app/live****',
          enabled: true,
          status: 'idle',
          lastError: null,
          bytes: 0,
          kbps: 0,
        },
      );
      assert.match(Buffer.from(created.id ?? '', 'base64').toString(), /^PushTarget:[0-9a-f-]{36}$/);
      const listed = await readPushTargets(server, token, streamId);
      assert.deepEqual(
        listed.map((target) => target.id),
        [created.id],
      );
      assert.ok(!JSON.stringify(listed).includes(KEY));
    });

    it('answers a ValidationError on input.targetUri for other schemes, bad shapes and private hosts', async () => {
      const cases: [string, string][] = [
        ['http://1.1.1.1/app/key', 'scheme'],
        ['rist://1.1.1.1:9000', 'scheme'],
        ['rtmp://1.1.1.1/app', 'path'],
        ['srt://1.1.1.1', 'port'],
        ['srt://1.1.1.1:9000?passphrase=short', 'passphrase'],
        ['rtmp://10.0.0.1/app/key', 'public_address'],
        ['rtmp://127.0.0.1/app/key', 'public_address'],
        ['srt://[::1]:9000?streamid=x', 'public_address'],
      ];
      for (const [targetUri, constraint] of cases) {
        const result = await createPushTarget(server, token, streamId, { name: 'bad', targetUri });
        assert.deepEqual(
          { typename: result.__typename, field: result.field, constraint: result.constraint },
          { typename: 'ValidationError', field: 'input.targetUri', constraint },
          targetUri,
        );
      }
      const platform = await createPushTarget(server, token, streamId, {
        name: 'x',
        platform: 'myspace',
        targetUri: 'rtmp://1.1.1.1/a/b',
      });
      assert.equal(platform.field, 'input.platform');
      assert.ok(
        /AIRWAVE_ALLOW_PRIVATE_PUSH_TARGETS/.test(
          (await createPushTarget(server, token, streamId, { name: 'p', targetUri: 'rtmp://10.0.0.1/a/k' })).message ??
            '',
        ),
      );
    });

    it('accepts private hosts on a node with AIRWAVE_ALLOW_PRIVATE_PUSH_TARGETS=true', async () => {
      privateServer = await startTestServer(backend, { AIRWAVE_ALLOW_PRIVATE_PUSH_TARGETS: 'true' });
      const owner = (await registerAccount(privateServer, 'lan-owner')).token;
      const stream = (await createStream(privateServer, owner, 'lan')).id;
      const created = await createPushTarget(privateServer, owner, stream, {
        name: 'LAN',
        targetUri: 'srt://10.0.0.1:9000?streamid=abc&passphrase=0123456789',
      });
      assert.equal(created.__typename, 'PushTarget', JSON.stringify(created));
      assert.equal(created.targetUri, 'srt://10.0.0.1:9000');
    });

    it('updates, disables and deletes; another tenant and a read-only token cannot', async () => {
      const created = await createPushTarget(server, token, streamId, {
        name: 'YT',
        platform: 'youtube',
        targetUri: 'rtmps://1.1.1.1:443/live2/abcd-efgh-ijkl-mnop',
      });
      const id = created.id ?? '';
      const updated = await updatePushTarget(server, token, id, { name: 'YouTube', isEnabled: false });
      assert.deepEqual(
        { name: updated.name, isEnabled: updated.isEnabled, uri: updated.targetUri },
        { name: 'YouTube', isEnabled: false, uri: 'rtmps://1.1.1.1:443/live2/abcd****' },
      );
      const moved = await updatePushTarget(server, token, id, { targetUri: 'srt://1.1.1.1:9999?streamid=s' });
      assert.equal(moved.targetUri, 'srt://1.1.1.1:9999');
      const intruder = (await registerAccount(server, 'push-intruder')).token;
      assert.equal((await updatePushTarget(server, intruder, id, { name: 'mine' })).__typename, 'NotFoundError');
      assert.equal((await deletePushTarget(server, intruder, id)).__typename, 'NotFoundError');
      const theirs = await server.graphql<{ stream: unknown }>(
        'query ($id: ID!) { stream(id: $id) { pushTargets { id } } }',
        { id: streamId },
        intruder,
      );
      assert.equal(theirs.errors?.[0]?.extensions?.code, 'NOT_FOUND');
      const readOnly = await createDeveloperToken(server, token, 'streams:read');
      assert.deepEqual(
        [
          (await updatePushTarget(server, readOnly.value, id, { name: 'x' })).code,
          (await deletePushTarget(server, readOnly.value, id)).code,
        ],
        ['FORBIDDEN', 'FORBIDDEN'],
      );
      assert.equal((await readPushTargets(server, readOnly.value, streamId)).length, 2);
      const deleted = await deletePushTarget(server, token, id);
      assert.equal(deleted.__typename, 'DeleteSuccess');
      assert.equal((await deletePushTarget(server, token, id)).__typename, 'NotFoundError');
    });

    it('a deleted stream takes its targets along; a new stream starts without targets', async () => {
      const stream = await createStream(server, token, 'short-lived');
      const created = await createPushTarget(server, token, stream.id, {
        name: 'gone',
        targetUri: 'rtmp://1.1.1.1/a/k',
      });
      await server.graphql('mutation ($id: ID!) { deleteStream(id: $id) { __typename } }', { id: stream.id }, token);
      assert.equal((await deletePushTarget(server, token, created.id ?? '')).__typename, 'NotFoundError');
      const again = await createStream(server, token, 'short-lived');
      assert.deepEqual(await readPushTargets(server, token, again.id), []);
    });
  });
}
