/**
 * Session JWTs: round trip of the claims; a wrong key, an expired token, alg "none" or a
 * missing claim is UNAUTHORIZED.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { SignJWT, UnsecuredJWT } from 'jose';
import { UnauthorizedError } from '../domain/errors.js';
import { generateSessionSecret, SessionTokens } from './session-tokens.js';

const claims = () => ({
  userId: randomUUID(),
  tenantId: randomUUID(),
  sessionId: randomUUID(),
  expiresAt: new Date(Math.floor(Date.now() / 1000) * 1000 + 3_600_000),
});

async function rejects(tokens: SessionTokens, token: string, message: RegExp): Promise<void> {
  await assert.rejects(
    tokens.verify(token),
    (error: unknown) => error instanceof UnauthorizedError && message.test(error.message),
  );
}

test('signed claims verify back to the same claims', async () => {
  const tokens = new SessionTokens(generateSessionSecret());
  const original = claims();
  const token = await tokens.sign(original);
  const header = JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString()) as { alg: string };
  assert.equal(header.alg, 'HS256');
  assert.deepEqual(await tokens.verify(token), original);
});

test('another secret, expiry, alg none and missing claims are refused', async () => {
  const secret = generateSessionSecret();
  const tokens = new SessionTokens(secret);
  assert.notEqual(secret, generateSessionSecret());
  await rejects(tokens, await new SessionTokens(generateSessionSecret()).sign(claims()), /invalid session token/);
  const expired = { ...claims(), expiresAt: new Date(Date.now() - 60_000) };
  await rejects(tokens, await tokens.sign(expired), /expired/);
  const c = claims();
  const unsecured = new UnsecuredJWT({ tenant: c.tenantId, sid: c.sessionId })
    .setIssuer('airwave')
    .setSubject(c.userId)
    .setExpirationTime('1h')
    .encode();
  await rejects(tokens, unsecured, /invalid session token/);
  const noSid = await new SignJWT({ tenant: c.tenantId })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer('airwave')
    .setSubject(c.userId)
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(secret));
  await rejects(tokens, noSid, /missing claims/);
  await rejects(tokens, 'a.b.c', /invalid session token/);
});
