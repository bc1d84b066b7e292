/**
 * Playback access control through the real GraphQL API (both database backends): signing keys
 * (private PEM once, list, revoke, limits, tenancy), setPlaybackPolicy (JWT and WEBHOOK,
 * write-only secrets, validation, private-address refusal) and testPlaybackAccess.
 */
import assert from 'node:assert/strict';
import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { signPlaybackToken } from '@airwave/server/domain/playback-access/sign-playback-token';
import { testBackends } from '@airwave/server/testing/databases';
import { startTestServer, type TestServer } from '@airwave/server/testing/test-server';
import { type CreatedStream, createDeveloperToken, createStream, registerAccount } from './support/accounts.js';
import {
  createSigningKey,
  revokeSigningKey,
  setPlaybackPolicy,
  startTestHook,
  type TestHook,
  testPlaybackAccess,
} from './support/playback-access.js';
import { waitFor } from './support/processes.js';

const SECRET = 'e2e-webhook-secret-0123456789abcdef';
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

for (const backend of testBackends()) {
  describe(`playback access API (${backend.name})`, () => {
    let server: TestServer;
    let hook: TestHook;
    let owner = '';
    let other = '';
    let stream: CreatedStream;
    let otherStream: CreatedStream;

    before(async () => {
      server = await startTestServer(backend);
      hook = await startTestHook(SECRET);
      owner = (await registerAccount(server, 'owner')).token;
      other = (await registerAccount(server, 'other')).token;
      stream = await createStream(server, owner);
      otherStream = await createStream(server, other);
    });
    after(async () => {
      await hook?.close();
      await server?.close();
    });

    it('createSigningKey returns a P-256 PKCS#8 private key once, matching the stored SPKI public key', async () => {
      const key = await createSigningKey(server, owner, 'first');
      assert.match(key.privateKeyPem, /^-----BEGIN PRIVATE KEY-----\n/);
      assert.match(key.kid, /^[A-Za-z0-9_-]{16,}$/);
      const privateKey = createPrivateKey(key.privateKeyPem);
      assert.equal(privateKey.asymmetricKeyDetails?.namedCurve, 'prime256v1');
      const signature = sign('sha256', Buffer.from('x'), privateKey);
      assert.equal(verify('sha256', Buffer.from('x'), createPublicKey(key.publicKeyPem), signature), true);
      const listed = await server.graphql<{
        signingKeysConnection: { totalCount: number; nodes: Record<string, unknown>[] };
      }>(
        '{ signingKeysConnection(status: ACTIVE) { totalCount nodes { id kid name algorithm status publicKeyPem revokedAt } } }',
        {},
        owner,
      );
      const node = listed.data?.signingKeysConnection.nodes.find((n) => n.kid === key.kid);
      assert.deepEqual(
        { ...node, publicKeyPem: undefined },
        {
          id: key.id,
          kid: key.kid,
          name: 'first',
          algorithm: 'ES256',
          status: 'ACTIVE',
          revokedAt: null,
          publicKeyPem: undefined,
        },
      );
      assert.equal(JSON.stringify(listed).includes('PRIVATE KEY'), false);
      const schema = await server.graphql<{ __type: { fields: { name: string }[] } }>(
        '{ __type(name: "SigningKey") { fields { name } } }',
      );
      assert.equal(
        schema.data?.__type.fields.some((field) => /private/i.test(field.name)),
        false,
      );
    });

    it('keys are tenant-scoped: another tenant reads, revokes and allows them as NOT_FOUND / invalid', async () => {
      const key = await createSigningKey(server, owner, 'scoped');
      const read = await server.graphql('query ($id: ID!) { signingKey(id: $id) { kid } }', { id: key.id }, other);
      assert.equal(read.errors?.[0]?.extensions?.code, 'NOT_FOUND');
      assert.equal(await revokeSigningKey(server, other, key.id), 'NotFoundError');
      const foreign = await setPlaybackPolicy(server, other, otherStream.id, {
        type: 'JWT',
        jwt: { allowedKids: [key.kid] },
      });
      assert.equal(foreign.__typename, 'ValidationError');
      assert.equal(foreign.field, 'policy.jwt.allowedKids');
      const theirs = await setPlaybackPolicy(server, other, stream.id, { type: 'PUBLIC' });
      assert.equal(theirs.__typename, 'NotFoundError');
      const probe = await testPlaybackAccess(server, other, { playbackId: stream.playbackId });
      assert.equal(probe.__typename, 'NotFoundError');
    });

    it('a developer token needs security:write to create keys and set policies', async () => {
      const readOnly = (await createDeveloperToken(server, owner, 'streams:read,security:read')).value;
      const response = await server.graphql<{ createSigningKey: { __typename: string; code?: string } }>(
        'mutation { createSigningKey(input: { name: "x" }) { __typename ... on Error { code } } }',
        {},
        readOnly,
      );
      assert.deepEqual(response.data?.createSigningKey, { __typename: 'AuthError', code: 'FORBIDDEN' });
      assert.equal((await setPlaybackPolicy(server, readOnly, stream.id, { type: 'PUBLIC' })).__typename, 'AuthError');
      const anonymous = await setPlaybackPolicy(server, '', stream.id, { type: 'PUBLIC' });
      assert.equal(anonymous.__typename, 'AuthError');
    });

    it('JWT policy: read back on Stream, and testPlaybackAccess reports valid, missing, expired and revoked tokens', async () => {
      const key = await createSigningKey(server, owner, 'jwt');
      const set = await setPlaybackPolicy(server, owner, stream.id, { type: 'JWT', jwt: { allowedKids: [key.kid] } });
      assert.equal(set.__typename, 'Stream');
      assert.deepEqual(set.playbackPolicy, { type: 'JWT', jwt: { allowedKids: [key.kid] }, webhook: null });
      const token = signPlaybackToken(key.privateKeyPem, { sub: stream.playbackId, exp: inAnHour() }, { kid: key.kid });
      const valid = await testPlaybackAccess(server, owner, { playbackId: stream.playbackId, token });
      assert.deepEqual(
        { allowed: valid.allowed, policyType: valid.policyType, reason: valid.reason, kid: valid.kid },
        { allowed: true, policyType: 'JWT', reason: 'jwt-valid', kid: key.kid },
      );
      assert.deepEqual(JSON.parse(String(valid.claimsJson)).sub, stream.playbackId, 'the verified claims');
      const missing = await testPlaybackAccess(server, owner, { playbackId: stream.playbackId });
      assert.equal(missing.reason, 'missing-token');
      const expired = signPlaybackToken(
        key.privateKeyPem,
        { sub: stream.playbackId, exp: 1_000_000 },
        { kid: key.kid },
      );
      assert.equal(
        (await testPlaybackAccess(server, owner, { playbackId: stream.playbackId, token: expired })).reason,
        'jwt-expired',
      );
      assert.equal(await revokeSigningKey(server, owner, key.id), 'DeleteSuccess');
      const revoked = await testPlaybackAccess(server, owner, { playbackId: stream.playbackId, token });
      assert.deepEqual(
        { allowed: revoked.allowed, reason: revoked.reason },
        { allowed: false, reason: 'jwt-revoked-kid' },
      );
      const listed = await server.graphql<{ signingKey: { status: string; revokedAt: string | null } }>(
        'query ($id: ID!) { signingKey(id: $id) { status revokedAt } }',
        { id: key.id },
        owner,
      );
      assert.equal(listed.data?.signingKey.status, 'REVOKED');
      assert.ok(listed.data?.signingKey.revokedAt);
      assert.equal(await revokeSigningKey(server, owner, key.id), 'DeleteSuccess', 'revoking again is idempotent');
      const stale = await setPlaybackPolicy(server, owner, stream.id, { type: 'JWT', jwt: { allowedKids: [key.kid] } });
      assert.equal(stale.__typename, 'ValidationError', 'a revoked kid cannot be allowed');
    });

    it('WEBHOOK policy: the secret is write-only and kept when omitted; testPlaybackAccess fires the signed hook', async () => {
      const set = await setPlaybackPolicy(server, owner, stream.id, {
        type: 'WEBHOOK',
        webhook: { url: `${hook.url}/api`, secret: SECRET },
      });
      assert.deepEqual(set.playbackPolicy, {
        type: 'WEBHOOK',
        jwt: null,
        webhook: { url: `${hook.url}/api`, timeoutMs: 5000, secretMasked: 'redacted' },
      });
      assert.equal(JSON.stringify(set).includes(SECRET), false);
      const schema = await server.graphql<{ __type: { fields: { name: string }[] } }>(
        '{ __type(name: "WebhookPlaybackPolicy") { fields { name } } }',
      );
      assert.deepEqual(schema.data?.__type.fields.map((field) => field.name).sort(), [
        'secretMasked',
        'timeoutMs',
        'url',
      ]);
      const updated = await setPlaybackPolicy(server, owner, stream.id, {
        type: 'WEBHOOK',
        webhook: { url: `${hook.url}/api2`, timeoutMs: 2000 },
      });
      assert.equal(updated.playbackPolicy?.webhook?.timeoutMs, 2000);
      const before = hook.calls.length;
      const allowed = await testPlaybackAccess(server, owner, {
        playbackId: stream.playbackId,
        viewerIp: '198.51.100.7',
        requestUrl: '/play/x/hls/index.m3u8',
        connector: 'llhls',
        sessionId: 'viewer-session-7',
      });
      assert.deepEqual(
        { allowed: allowed.allowed, reason: allowed.reason, webhookStatus: allowed.webhookStatus },
        { allowed: true, reason: 'webhook-allow', webhookStatus: 200 },
      );
      assert.equal(typeof allowed.webhookLatencyMs, 'number');
      const call = hook.calls[before];
      assert.ok(call, 'the hook was called');
      assert.equal(call.signatureOk, true, 'signed with the secret kept from the first call');
      assert.equal(call.body.viewerIp, '198.51.100.7');
      assert.equal(call.body.playbackId, stream.playbackId);
      assert.equal(call.body.streamId, stream.streamId);
      assert.equal(call.body.protocol, 'llhls', 'the webhook sees the connector given');
      assert.equal(call.body.sessionId, 'viewer-session-7', 'and the session id given');
      hook.mode('api2', 'deny');
      const denied = await testPlaybackAccess(server, owner, { playbackId: stream.playbackId });
      assert.deepEqual(
        { allowed: denied.allowed, reason: denied.reason },
        { allowed: false, reason: 'webhook-deny-403' },
      );
      const skipped = await testPlaybackAccess(server, owner, { playbackId: stream.playbackId, fireWebhook: false });
      assert.equal(skipped.reason, 'webhook-test-skipped');
      assert.equal(hook.calls.length, before + 2);
      assert.equal(
        (await setPlaybackPolicy(server, owner, stream.id, { type: 'PUBLIC' })).playbackPolicy?.type,
        'PUBLIC',
      );
      const fresh = await createStream(server, owner, 'no secret yet');
      const noSecret = await setPlaybackPolicy(server, owner, fresh.id, {
        type: 'WEBHOOK',
        webhook: { url: `${hook.url}/x` },
      });
      assert.deepEqual([noSecret.__typename, noSecret.field], ['ValidationError', 'policy.webhook.secret']);
    });

    it('setPlaybackPolicy validates webhook URLs, timeouts and secrets', async () => {
      const cases: [Record<string, unknown>, string, string][] = [
        [{ url: 'ftp://example.com/hook', secret: SECRET }, 'policy.webhook.url', 'scheme'],
        [{ url: 'not a url', secret: SECRET }, 'policy.webhook.url', 'format'],
        [{ url: 'https://user:pw@example.com/', secret: SECRET }, 'policy.webhook.url', 'credentials'],
        [{ url: `${hook.url}/a`, secret: SECRET, timeoutMs: 0 }, 'policy.webhook.timeoutMs', 'range'],
        [{ url: `${hook.url}/a`, secret: SECRET, timeoutMs: 10_001 }, 'policy.webhook.timeoutMs', 'range'],
        [{ url: `${hook.url}/a`, secret: 'short' }, 'policy.webhook.secret', 'length'],
      ];
      for (const [webhook, field, constraint] of cases) {
        const result = await setPlaybackPolicy(server, owner, stream.id, { type: 'WEBHOOK', webhook });
        assert.deepEqual([result.__typename, result.field, result.constraint], ['ValidationError', field, constraint]);
      }
    });

    it('streamsConnection reads the playbackPolicy of every stream (batched) without leaking secrets', async () => {
      const tenant = (await registerAccount(server, 'listing')).token;
      const key = await createSigningKey(server, tenant, 'list');
      const [jwt, hooked, open] = [
        await createStream(server, tenant, 'jwt'),
        await createStream(server, tenant, 'hooked'),
        await createStream(server, tenant, 'open'),
      ];
      await setPlaybackPolicy(server, tenant, jwt.id, { type: 'JWT', jwt: { allowedKids: [] } });
      await setPlaybackPolicy(server, tenant, hooked.id, {
        type: 'WEBHOOK',
        webhook: { url: `${hook.url}/l`, secret: SECRET },
      });
      const listed = await server.graphql<{
        streamsConnection: { nodes: { streamId: string; playbackPolicy: { type: string; jwt: unknown } }[] };
      }>(
        '{ streamsConnection(page: { first: 10 }) { nodes { streamId playbackPolicy { type jwt { allowedKids } webhook { url secretMasked } } } } }',
        {},
        tenant,
      );
      const types = new Map(
        listed.data?.streamsConnection.nodes.map((node) => [node.streamId, node.playbackPolicy.type]),
      );
      assert.deepEqual(
        [types.get(jwt.streamId), types.get(hooked.streamId), types.get(open.streamId)],
        ['JWT', 'WEBHOOK', 'PUBLIC'],
      );
      assert.equal(JSON.stringify(listed).includes(SECRET), false);
      const token = signPlaybackToken(key.privateKeyPem, { sub: jwt.playbackId, exp: inAnHour() }, { kid: key.kid });
      const anyKey = await testPlaybackAccess(server, tenant, { playbackId: jwt.playbackId, token });
      assert.equal(anyKey.reason, 'jwt-valid', 'an empty allowedKids accepts any active key of the account');
      await waitFor('lastUsedAt, written in the background after a token of the key was accepted', async () => {
        const used = await server.graphql<{ signingKey: { lastUsedAt: string | null } }>(
          'query ($id: ID!) { signingKey(id: $id) { lastUsedAt } }',
          { id: key.id },
          tenant,
        );
        return used.data?.signingKey.lastUsedAt;
      });
    });

    it('a tenant holds at most 10 active signing keys', async () => {
      const tenant = (await registerAccount(server, 'many')).token;
      for (let i = 0; i < 10; i++) {
        await createSigningKey(server, tenant, `k${i}`);
      }
      const response = await server.graphql<{ createSigningKey: { __typename: string; constraint?: string } }>(
        'mutation { createSigningKey(input: { name: "eleventh" }) { __typename ... on ValidationError { constraint } } }',
        {},
        tenant,
      );
      assert.deepEqual(response.data?.createSigningKey, { __typename: 'ValidationError', constraint: 'limit' });
    });
  });
}

describe('webhook URLs on a node that does not allow private addresses', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ name: 'pglite' }, { AIRWAVE_ALLOW_PRIVATE_WEBHOOKS: 'false' });
  });
  after(async () => {
    await server?.close();
  });

  it('refuses loopback, private, link-local and multicast webhook URLs', async () => {
    const token = (await registerAccount(server, 'ssrf')).token;
    const stream = await createStream(server, token);
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'http://10.1.2.3/hook',
      'https://169.254.169.254/latest',
      'http://[::1]/hook',
      'http://224.0.0.1/hook',
      'http://localhost/hook',
    ]) {
      const result = await setPlaybackPolicy(server, token, stream.id, {
        type: 'WEBHOOK',
        webhook: { url, secret: SECRET },
      });
      assert.deepEqual([result.__typename, result.constraint], ['ValidationError', 'public_address'], url);
    }
  });
});
