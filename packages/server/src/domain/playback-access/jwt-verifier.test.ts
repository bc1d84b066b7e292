import assert from 'node:assert/strict';
import { createHmac, createPublicKey, createSecretKey, generateKeyPairSync, sign } from 'node:crypto';
import { describe, it } from 'node:test';
import type { VerificationKey } from '../signing-keys/signing-keys.service.js';
import { CLOCK_SKEW_SECONDS, type JwtDenial, PlaybackJwtVerifier, type VerifiedToken } from './jwt-verifier.js';
import { signPlaybackToken } from './sign-playback-token.js';

const NOW = 1_800_000_000;
const TENANT = 'tenant-a';
const PLAYBACK_ID = 'pb-test-1';

function newKey(kid: string, tenantId = TENANT) {
  const pair = generateKeyPairSync('ec', {
    namedCurve: 'P-256',
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const key: VerificationKey = {
    id: `id-${kid}`,
    tenantId,
    kid,
    revoked: false,
    publicKey: createPublicKey(pair.publicKey),
  };
  return { key, privatePem: pair.privateKey, publicPem: pair.publicKey };
}

const k1 = newKey('kid-one');
const k2 = newKey('kid-two');
const foreign = newKey('kid-foreign', 'tenant-b');
const registry = new Map<string, VerificationKey>([
  [k1.key.kid, k1.key],
  [k2.key.kid, k2.key],
  [foreign.key.kid, foreign.key],
]);
let lookups = 0;
const verifier = new PlaybackJwtVerifier(
  async (_tenantId, kid) => {
    lookups++;
    return registry.get(kid);
  },
  () => NOW * 1000,
);
const requirements = { playbackId: PLAYBACK_ID, tenantId: TENANT, allowedKids: [] as string[] };
const claims = (extra: Record<string, unknown> = {}) => ({ sub: PLAYBACK_ID, exp: NOW + 3600, ...extra });
const token = (extra: Record<string, unknown> = {}, header: Record<string, unknown> = {}, pem = k1.privatePem) =>
  signPlaybackToken(pem, claims(extra), { kid: k1.key.kid, ...header });
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

async function denied(value: string | undefined, reason: string, status: 401 | 403, req = requirements) {
  const result = await verifier.verify(value, req);
  assert.equal(result.ok, false, `expected ${reason}, got ok`);
  assert.equal((result as JwtDenial).reason, reason);
  assert.equal((result as JwtDenial).status, status);
  return result as JwtDenial;
}

async function accepted(value: string, req = requirements): Promise<VerifiedToken> {
  const result = await verifier.verify(value, req);
  assert.equal(result.ok, true, `expected ok, got ${JSON.stringify(result)}`);
  return result as VerifiedToken;
}

describe('PlaybackJwtVerifier', () => {
  it('accepts a valid ES256 token signed by hand with node:crypto and reports its kid', async () => {
    const result = await accepted(token());
    assert.equal(result.kid, 'kid-one');
    assert.equal(result.claims.sub, PLAYBACK_ID);
  });

  it('refuses a missing or empty token (401 missing-token)', async () => {
    await denied(undefined, 'missing-token', 401);
    await denied('', 'missing-token', 401);
  });

  it('refuses what is not a JWS (401 jwt-not-a-jws)', async () => {
    for (const value of [
      'abc',
      'a.b',
      'a.b.c.d',
      `${b64({ alg: 'ES256', kid: 'kid-one' })}.!!!.sig`,
      `${b64([1])}.${b64({})}.x`,
    ]) {
      await denied(value, 'jwt-not-a-jws', 401);
    }
    await denied(`${b64({ alg: 'ES256', kid: 'x' })}.${b64(claims())}.${'A'.repeat(9000)}`, 'jwt-not-a-jws', 401);
    await denied(token({}, { crit: ['exp'] }), 'jwt-not-a-jws', 401);
  });

  it('refuses every alg but ES256 (401 jwt-wrong-alg), including HS256 keyed with the public PEM', async () => {
    await denied(`${b64({ alg: 'none', kid: 'kid-one' })}.${b64(claims())}.`, 'jwt-wrong-alg', 401);
    const hsInput = `${b64({ alg: 'HS256', kid: 'kid-one' })}.${b64(claims())}`;
    const hs = createHmac('sha256', createSecretKey(Buffer.from(k1.publicPem)))
      .update(hsInput)
      .digest('base64url');
    await denied(`${hsInput}.${hs}`, 'jwt-wrong-alg', 401);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const rsInput = `${b64({ alg: 'RS256', kid: 'kid-one' })}.${b64(claims())}`;
    await denied(
      `${rsInput}.${sign('sha256', Buffer.from(rsInput), rsa.privateKey).toString('base64url')}`,
      'jwt-wrong-alg',
      401,
    );
    const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' });
    const esInput = `${b64({ alg: 'ES384', kid: 'kid-one' })}.${b64(claims())}`;
    const es384 = sign('sha384', Buffer.from(esInput), { key: p384.privateKey, dsaEncoding: 'ieee-p1363' });
    await denied(`${esInput}.${es384.toString('base64url')}`, 'jwt-wrong-alg', 401);
  });

  it('needs a kid (401 jwt-missing-kid) that names a key of this tenant (401 jwt-unknown-kid)', async () => {
    await denied(token({}, { kid: undefined }), 'jwt-missing-kid', 401);
    await denied(token({}, { kid: 7 }), 'jwt-missing-kid', 401);
    const unknown = await denied(token({}, { kid: 'no-such-kid' }), 'jwt-unknown-kid', 401);
    assert.equal(unknown.kid, 'no-such-kid');
    await denied(signPlaybackToken(foreign.privatePem, claims(), { kid: 'kid-foreign' }), 'jwt-unknown-kid', 401);
  });

  it('refuses tampered signatures and payloads, and a signature by another key under this kid (401 jwt-sig-fail)', async () => {
    const good = token();
    const [h, p, s] = good.split('.') as [string, string, string];
    const flipped = Buffer.from(s, 'base64url');
    flipped[10] = (flipped[10] ?? 0) ^ 1;
    await denied(`${h}.${p}.${flipped.toString('base64url')}`, 'jwt-sig-fail', 401);
    await denied(`${h}.${b64(claims({ sub: PLAYBACK_ID, exp: NOW + 999_999 }))}.${s}`, 'jwt-sig-fail', 401);
    await denied(token({}, {}, k2.privatePem), 'jwt-sig-fail', 401);
    await denied(`${h}.${p}.`, 'jwt-sig-fail', 401);
  });

  it('needs exp (401 jwt-missing-exp) and honours it with 60 s of skew (401 jwt-expired)', async () => {
    await denied(signPlaybackToken(k1.privatePem, { sub: PLAYBACK_ID }, { kid: 'kid-one' }), 'jwt-missing-exp', 401);
    await denied(token({ exp: String(NOW + 100) }), 'jwt-missing-exp', 401);
    await denied(token({ exp: NOW - 3600 }), 'jwt-expired', 401);
    await denied(token({ exp: NOW - CLOCK_SKEW_SECONDS }), 'jwt-expired', 401);
    await accepted(token({ exp: NOW - CLOCK_SKEW_SECONDS + 1 }));
  });

  it('honours nbf with 60 s of skew (401 jwt-not-yet-valid)', async () => {
    await denied(token({ nbf: NOW + 3600 }), 'jwt-not-yet-valid', 401);
    await denied(token({ nbf: NOW + CLOCK_SKEW_SECONDS + 1 }), 'jwt-not-yet-valid', 401);
    await accepted(token({ nbf: NOW + CLOCK_SKEW_SECONDS }));
    await accepted(token({ nbf: NOW - 10 }));
  });

  it('needs sub = the playback ID (403 jwt-sub-mismatch)', async () => {
    await denied(token({ sub: 'another-playback-id' }), 'jwt-sub-mismatch', 403);
    await denied(token({ sub: undefined }), 'jwt-sub-mismatch', 403);
  });

  it('applies allowedKids when the policy lists some (403 jwt-kid-not-allowed)', async () => {
    const onlyTwo = { ...requirements, allowedKids: ['kid-two'] };
    await denied(token(), 'jwt-kid-not-allowed', 403, onlyTwo);
    await accepted(token({}, { kid: 'kid-two' }, k2.privatePem), onlyTwo);
  });

  it('refuses a revoked key (403 jwt-revoked-kid), also for a token whose signature was cached', async () => {
    const value = token({ jti: 'revocation' });
    await accepted(value);
    registry.set('kid-one', { ...k1.key, revoked: true });
    try {
      await denied(value, 'jwt-revoked-kid', 403);
    } finally {
      registry.set('kid-one', k1.key);
    }
    await accepted(value);
  });

  it('looks the key up on every request but checks the signature of a token once', async () => {
    const value = token({ jti: 'cache' });
    const before = lookups;
    for (let i = 0; i < 5; i++) {
      await accepted(value);
    }
    assert.equal(lookups - before, 5);
  });
});
