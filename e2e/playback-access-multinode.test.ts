/**
 * Two Airwave servers on one PostgreSQL database: a playback policy change and a signing-key
 * revocation made through server A apply to viewers of server B as soon as B receives the event
 * (LISTEN/NOTIFY), not when B's gate caches expire. `/play/<id>` of a stream that is not live on B
 * answers 404 when the gate lets the request through, 401/403 when it refuses.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { signPlaybackToken } from '@airwave/server/domain/playback-access/sign-playback-token';
import type { EventName } from '@airwave/server/events/event-map';
import { createScratchDatabase, postgresMissing, type ScratchDatabase } from '@airwave/server/testing/databases';
import { startTestServer, type TestServer } from '@airwave/server/testing/test-server';
import { type CreatedStream, createStream, registerAccount } from './support/accounts.js';
import {
  type CreatedKey,
  createSigningKey,
  revokeSigningKey,
  setPlaybackPolicy,
  startTestHook,
  type TestHook,
} from './support/playback-access.js';

const skip = postgresMissing;
const SECRET = 'multinode-webhook-secret-0123456789';

describe('playback access changes across two servers sharing PostgreSQL', { skip }, () => {
  let scratch: ScratchDatabase;
  let a: TestServer;
  let b: TestServer;
  let hook: TestHook;
  let owner = '';
  let stream: CreatedStream;
  let key: CreatedKey;

  /** Resolves when B's bus delivers an event named `name` that came from A. */
  const arrivesOnB = (name: EventName): Promise<void> =>
    new Promise((resolve) => {
      const untap = b.running.events.tap([name], (event) => {
        if (event.origin === a.running.events.instanceId) {
          untap();
          resolve();
        }
      });
    });

  /** Status and deny reason of `/play/<id>` on B. */
  const onB = async (token?: string): Promise<{ status: number; reason?: string }> => {
    const query = token ? `?jwt=${encodeURIComponent(token)}` : '';
    const response = await fetch(`${b.baseUrl}/play/${stream.playbackId}${query}`);
    const body = (await response.json()) as { error?: { reason?: string } };
    return { status: response.status, ...(body.error?.reason ? { reason: body.error.reason } : {}) };
  };

  before(async () => {
    scratch = await createScratchDatabase();
    a = await startTestServer({ name: 'postgres' }, { DATABASE_URL: scratch.url });
    b = await startTestServer({ name: 'postgres' }, { DATABASE_URL: scratch.url });
    hook = await startTestHook(SECRET);
    owner = (await registerAccount(a, 'multinode')).token;
    stream = await createStream(a, owner, 'two nodes');
    key = await createSigningKey(a, owner, 'shared');
  });
  after(async () => {
    await hook?.close();
    await b?.close();
    await a?.close();
    await scratch?.drop();
  });

  it('a JWT policy set on A refuses tokenless viewers on B once the event arrives', async () => {
    assert.deepEqual(await onB(), { status: 404, reason: 'playback_id_not_found' }, 'public on B (and cached)');
    const arrived = arrivesOnB('playback.policy_changed');
    const set = await setPlaybackPolicy(a, owner, stream.id, { type: 'JWT', jwt: { allowedKids: [key.kid] } });
    assert.equal(set.__typename, 'Stream');
    await arrived;
    assert.deepEqual(await onB(), { status: 401, reason: 'missing-token' });
    const token = signPlaybackToken(key.privateKeyPem, { sub: stream.playbackId, exp: 4e9 }, { kid: key.kid });
    assert.equal((await onB(token)).status, 404, 'a valid token passes the gate on B');
  });

  it('a key revoked on A stops its tokens on B once the event arrives', async () => {
    const token = signPlaybackToken(
      key.privateKeyPem,
      { sub: stream.playbackId, exp: 4e9, jti: 'r' },
      { kid: key.kid },
    );
    assert.equal((await onB(token)).status, 404, 'accepted (and cached) on B');
    const arrived = arrivesOnB('signing_key.revoked');
    assert.equal(await revokeSigningKey(a, owner, key.id), 'DeleteSuccess');
    await arrived;
    assert.deepEqual(await onB(token), { status: 403, reason: 'jwt-revoked-kid' });
  });

  it("a webhook policy changed on A drops B's cached session decisions", async () => {
    hook.mode('deny', 'deny');
    let arrived = arrivesOnB('playback.policy_changed');
    await setPlaybackPolicy(a, owner, stream.id, {
      type: 'WEBHOOK',
      webhook: { url: `${hook.url}/allow`, secret: SECRET },
    });
    await arrived;
    assert.equal((await onB()).status, 404, 'the hook allows');
    assert.equal((await onB()).status, 404, 'the allow is cached for the session');
    arrived = arrivesOnB('playback.policy_changed');
    await setPlaybackPolicy(a, owner, stream.id, { type: 'WEBHOOK', webhook: { url: `${hook.url}/deny` } });
    await arrived;
    assert.deepEqual(await onB(), { status: 403, reason: 'webhook-deny-403' });
  });
});
