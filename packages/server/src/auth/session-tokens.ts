/**
 * Session tokens: HS256 JWTs (RFC 7519) signed with the server's session secret, claims
 * `sub` (user), `tenant`, `sid` (session row) and `exp`. Every process on one database shares
 * the secret, so each accepts the others' tokens.
 */
import { randomBytes } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { SessionClaims, SessionSigner } from '../domain/accounts/accounts.service.js';
import { UnauthorizedError } from '../domain/errors.js';
import { isUuid } from '../domain/ids.js';

const ISSUER = 'airwave';
const ALGORITHM = 'HS256';

/** A fresh random secret for stores that hold none yet (base64url, 256 bits). */
export function generateSessionSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Signs and verifies session JWTs with one secret. */
export class SessionTokens implements SessionSigner {
  private readonly key: Uint8Array;

  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  /** Signs claims into a compact JWT. */
  async sign(claims: SessionClaims): Promise<string> {
    return new SignJWT({ tenant: claims.tenantId, sid: claims.sessionId })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setIssuer(ISSUER)
      .setSubject(claims.userId)
      .setIssuedAt()
      .setExpirationTime(Math.floor(claims.expiresAt.getTime() / 1000))
      .sign(this.key);
  }

  /** Verifies signature, issuer and expiry; UnauthorizedError on anything wrong. */
  async verify(token: string): Promise<SessionClaims> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: [ALGORITHM], issuer: ISSUER });
      const { sub, tenant, sid, exp } = payload;
      if (
        typeof sub !== 'string' ||
        typeof tenant !== 'string' ||
        typeof sid !== 'string' ||
        typeof exp !== 'number' ||
        !isUuid(sub) ||
        !isUuid(tenant) ||
        !isUuid(sid)
      ) {
        throw new UnauthorizedError('invalid session token: missing claims');
      }
      return { userId: sub, tenantId: tenant, sessionId: sid, expiresAt: new Date(exp * 1000) };
    } catch (error) {
      if (error instanceof UnauthorizedError) {
        throw error;
      }
      if (error instanceof joseErrors.JWTExpired) {
        throw new UnauthorizedError('the session token has expired; sign in again');
      }
      throw new UnauthorizedError('invalid session token');
    }
  }
}
