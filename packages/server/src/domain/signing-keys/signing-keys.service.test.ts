import assert from 'node:assert/strict';
import { createPrivateKey, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Principal } from '../../auth/principal.js';
import type { Database } from '../../db/database.js';
import { openFreshDatabase } from '../../testing/pglite-template.js';
import { ValidationError } from '../errors.js';
import { type KeyRevocation, MAX_ACTIVE_KEYS_PER_TENANT, SigningKeysService } from './signing-keys.service.js';
import { SigningKeysStore } from './signing-keys.store.js';

/** The real store, counting the gate's lookups. */
class CountingStore extends SigningKeysStore {
  lookups = 0;
  override verificationKeys(tenantId: string, limit: number) {
    this.lookups++;
    return super.verificationKeys(tenantId, limit);
  }
}

describe('SigningKeysService on PGlite', () => {
  let dir = '';
  let database: Database;
  let store: CountingStore;
  let service: SigningKeysService;
  const revocations: KeyRevocation[] = [];
  const principal = (tenantId: string): Principal => ({
    userId: randomUUID(),
    tenantId,
    kind: 'session',
    scopes: 'all',
  });
  const tenantA = randomUUID();
  const tenantB = randomUUID();

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'signing-keys-'));
    database = await openFreshDatabase(dir);
    await database.execRaw(`INSERT INTO tenants (id, name) VALUES ('${tenantA}', 'a'), ('${tenantB}', 'b')`);
    store = new CountingStore(database.db);
    service = new SigningKeysService(store);
    service.onRevoked((revocation) => revocations.push(revocation));
  });
  after(async () => {
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates a P-256 key whose private half is returned and not stored', async () => {
    const created = await service.create(principal(tenantA), { name: ' first ' });
    assert.equal(created.signingKey.name, 'first');
    assert.equal(createPrivateKey(created.privateKeyPem).asymmetricKeyDetails?.namedCurve, 'prime256v1');
    const rows = await store.verificationKeys(tenantA, 10);
    assert.equal(JSON.stringify(rows).includes('PRIVATE'), false);
    assert.equal(rows[0]?.kid, created.signingKey.kid);
  });

  it("serves a tenant's kids from one query, however many unknown kids are tried at once", async () => {
    const created = await service.create(principal(tenantA), { name: 'lookups' });
    const before = store.lookups;
    const unknown = Array.from({ length: 50 }, () =>
      service.verificationKey(tenantA, randomBytes(16).toString('base64url')),
    );
    const [known] = await Promise.all([service.verificationKey(tenantA, created.signingKey.kid), ...unknown]);
    assert.equal(known?.kid, created.signingKey.kid);
    assert.equal(known?.revoked, false);
    assert.deepEqual(await Promise.all(unknown), Array(50).fill(undefined));
    assert.equal(store.lookups - before, 1);
    assert.equal(await service.verificationKey(tenantB, created.signingKey.kid), undefined, "another tenant's kid");
  });

  it('a revocation is seen at once and announced; another process revoking drops the cache too', async () => {
    const created = await service.create(principal(tenantA), { name: 'revoked' });
    assert.equal((await service.verificationKey(tenantA, created.signingKey.kid))?.revoked, false);
    await service.revoke(principal(tenantA), created.signingKey.id);
    assert.equal((await service.verificationKey(tenantA, created.signingKey.kid))?.revoked, true);
    assert.deepEqual(revocations.at(-1), { kid: created.signingKey.kid, tenantId: tenantA, local: true });
    const before = store.lookups;
    service.forgetRevoked(created.signingKey.kid, tenantA);
    await service.verificationKey(tenantA, created.signingKey.kid);
    assert.equal(store.lookups - before, 1);
    assert.equal(revocations.at(-1)?.local, false);
  });

  it(`refuses more than ${MAX_ACTIVE_KEYS_PER_TENANT} active keys, and names longer than 100 characters`, async () => {
    for (let i = 0; i < MAX_ACTIVE_KEYS_PER_TENANT; i++) {
      await service.create(principal(tenantB), { name: `k${i}` });
    }
    await assert.rejects(service.create(principal(tenantB), { name: 'one more' }), ValidationError);
    await assert.rejects(service.create(principal(tenantA), { name: 'x'.repeat(101) }), ValidationError);
    await assert.rejects(service.create(principal(tenantA), { name: '  ' }), ValidationError);
  });
});
