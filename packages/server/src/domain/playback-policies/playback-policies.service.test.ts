import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Principal } from '../../auth/principal.js';
import type { Database } from '../../db/database.js';
import { openFreshDatabase } from '../../testing/pglite-template.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { SigningKeysService } from '../signing-keys/signing-keys.service.js';
import { SigningKeysStore } from '../signing-keys/signing-keys.store.js';
import { PlaybackPoliciesService, type PolicyChange } from './playback-policies.service.js';
import { PlaybackPoliciesStore } from './playback-policies.store.js';

/** The real store, counting the gate's lookups. */
class CountingStore extends PlaybackPoliciesStore {
  lookups = 0;
  override byPlaybackId(playbackId: string) {
    this.lookups++;
    return super.byPlaybackId(playbackId);
  }
}

describe('PlaybackPoliciesService on PGlite', () => {
  let dir = '';
  let database: Database;
  let store: CountingStore;
  let keys: SigningKeysService;
  let service: PlaybackPoliciesService;
  const changes: PolicyChange[] = [];
  const tenant = randomUUID();
  const other = randomUUID();
  const streamId = randomUUID();
  const playbackId = 'pbpolicyservice01';
  const owner: Principal = { userId: randomUUID(), tenantId: tenant, kind: 'session', scopes: 'all' };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'playback-policies-'));
    database = await openFreshDatabase(dir);
    await database.execRaw(
      `INSERT INTO tenants (id, name) VALUES ('${tenant}', 't'), ('${other}', 'o');
       INSERT INTO streams (id, tenant_id, name, playback_id, ingest_mode, created_at, updated_at)
       VALUES ('${streamId}', '${tenant}', 's', '${playbackId}', 'PUSH', now(), now());`,
    );
    store = new CountingStore(database.db);
    keys = new SigningKeysService(new SigningKeysStore(database.db));
    service = new PlaybackPoliciesService({ store, signingKeys: keys, allowPrivateWebhooks: false });
    service.onChanged((change) => changes.push(change));
  });
  after(async () => {
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('resolves a playback ID once for concurrent requests, and caches unknown IDs too', async () => {
    const before = store.lookups;
    const resolved = await Promise.all(Array.from({ length: 20 }, () => service.resolve(playbackId)));
    assert.equal(store.lookups - before, 1);
    assert.deepEqual(
      resolved.map((r) => r?.policy.type),
      Array(20).fill('PUBLIC'),
    );
    assert.equal(await service.resolve('no-such-id'), undefined);
    assert.equal(await service.resolve('no-such-id'), undefined);
    assert.equal(store.lookups - before, 2);
  });

  it('a change made here replaces the cached policy at once and is announced as local', async () => {
    const key = await keys.create(owner, { name: 'k' });
    await service.set(owner, streamId, { type: 'JWT', jwt: { allowedKids: [key.signingKey.kid] } });
    const before = store.lookups;
    const resolved = await service.resolve(playbackId);
    assert.equal(store.lookups, before, 'served from the updated cache');
    assert.deepEqual(resolved?.policy.allowedKids, [key.signingKey.kid]);
    assert.deepEqual(changes.at(-1), { playbackId, streamId, tenantId: tenant, local: true });
    assert.deepEqual(await service.viewForStream(tenant, streamId), {
      type: 'JWT',
      jwt: { allowedKids: [key.signingKey.kid] },
      webhook: null,
    });
  });

  it('a change announced by another process drops the cache entry', async () => {
    service.forgetChanged({ playbackId, streamId, tenantId: tenant });
    const before = store.lookups;
    await service.resolve(playbackId);
    assert.equal(store.lookups - before, 1);
    assert.equal(changes.at(-1)?.local, false);
  });

  it("refuses another tenant's stream, unknown kinds, and private webhook URLs on a node that forbids them", async () => {
    const intruder: Principal = { ...owner, tenantId: other };
    await assert.rejects(service.set(intruder, streamId, { type: 'PUBLIC' }), NotFoundError);
    await assert.rejects(
      service.set(owner, streamId, { type: 'OTHER' as unknown as 'PUBLIC' }),
      (error: unknown) => error instanceof ValidationError && error.field === 'policy.type',
    );
    await assert.rejects(
      service.set(owner, streamId, {
        type: 'WEBHOOK',
        webhook: { url: 'http://192.168.1.1/x', secret: 'x'.repeat(20) },
      }),
      (error: unknown) => error instanceof ValidationError && error.constraint === 'public_address',
    );
  });
});
