/**
 * The customer side of a playback token (RFC 7515 JWS compact serialization, ES256 per RFC 7518
 * §3.4: the signature is R || S, 64 bytes), built by hand with node:crypto so that tests,
 * benchmarks and examples sign independently of the jose verifier the gate uses.
 */
import { sign } from 'node:crypto';

/** Signs `claims` with a PKCS#8 PEM private key; `header` overrides or adds header fields. */
export function signPlaybackToken(
  privateKeyPem: string,
  claims: Record<string, unknown>,
  header: Record<string, unknown> = {},
): string {
  const encode = (value: unknown): string => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
  const signingInput = `${encode({ alg: 'ES256', typ: 'JWT', ...header })}.${encode(claims)}`;
  const signature = sign('sha256', Buffer.from(signingInput, 'utf8'), {
    key: privateKeyPem,
    dsaEncoding: 'ieee-p1363',
  });
  return `${signingInput}.${signature.toString('base64url')}`;
}
