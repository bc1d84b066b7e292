/**
 * Structural parse of a playback token, a JWS Compact Serialization (RFC 7515 §7.1) carrying
 * JWT claims (RFC 7519), before any key is looked up: three base64url parts, JSON objects in
 * header and payload, `alg` ES256 (RFC 7518 §3.4) and a string `kid`. Never throws.
 */
import { type AccessDenial, deny } from './deny.js';

/** Longest token accepted (bytes of the compact form). */
export const MAX_TOKEN_LENGTH = 8 * 1024;
/** The only signature algorithm playback tokens may use. */
export const PLAYBACK_TOKEN_ALG = 'ES256';

/** A structurally valid, not yet verified, playback token. */
export interface ParsedJws {
  readonly kid: string;
  readonly claims: Readonly<Record<string, unknown>>;
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

function jsonObject(part: string): Record<string, unknown> | undefined {
  if (!BASE64URL.test(part) || part.length % 4 === 1) {
    return undefined;
  }
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Parses the header and claims of a token; a denial names what is wrong with its structure. */
export function parsePlaybackJws(token: string): ParsedJws | AccessDenial {
  if (token.length === 0) {
    return deny(401, 'missing-token', 'this playback ID needs a token: ?jwt=<token> or Authorization: Bearer <token>');
  }
  const parts = token.length <= MAX_TOKEN_LENGTH ? token.split('.') : [];
  const [headerPart, payloadPart, signaturePart] = parts;
  const header = parts.length === 3 && headerPart ? jsonObject(headerPart) : undefined;
  const claims = header && payloadPart ? jsonObject(payloadPart) : undefined;
  if (!header || !claims || signaturePart === undefined || !BASE64URL.test(signaturePart)) {
    return deny(401, 'jwt-not-a-jws', 'the token is not a JWS compact serialization with JSON header and claims');
  }
  if (header.alg !== PLAYBACK_TOKEN_ALG) {
    return deny(401, 'jwt-wrong-alg', `the token's alg must be ${PLAYBACK_TOKEN_ALG}, not ${String(header.alg)}`);
  }
  if (header.crit !== undefined || header.b64 !== undefined) {
    return deny(401, 'jwt-not-a-jws', 'the token uses JWS extensions (crit, b64) playback tokens do not support');
  }
  if (typeof header.kid !== 'string' || header.kid.length === 0) {
    return deny(401, 'jwt-missing-kid', 'the token header needs the kid of the signing key');
  }
  return { kid: header.kid, claims };
}
