/**
 * Resolves the caller of a request from `Authorization: Bearer <session JWT | developer token>`
 * or the session cookie. A present but invalid, expired or revoked token is UNAUTHORIZED, never
 * anonymous. Verified callers are cached briefly so a request costs no query; a revocation in
 * this process takes effect at once, one in another process within CACHE_TTL_MS.
 */
import type { AccountsService } from '../domain/accounts/accounts.service.js';
import { UnauthorizedError } from '../domain/errors.js';
import { type DeveloperTokensService, TOKEN_PREFIX } from '../domain/tokens/developer-tokens.service.js';
import type { Principal } from './principal.js';
import type { SessionTokens } from './session-tokens.js';

/** Name of the httpOnly session cookie the dashboard and playground use. */
export const SESSION_COOKIE = 'airwave_session';
/** How long a verified token is trusted without asking the database again. */
export const CACHE_TTL_MS = 5_000;
const CACHE_MAX_ENTRIES = 10_000;

/** The parts of a request authentication reads. */
export interface AuthRequest {
  readonly headers: { readonly authorization?: string | undefined };
  readonly cookies?: { readonly [name: string]: string | undefined };
}

/** Who called, and where the credential came from. */
export interface AuthResult {
  readonly principal: Principal | null;
  readonly source: 'header' | 'cookie' | 'none';
}

interface CacheEntry {
  readonly principal: Principal;
  readonly expiresAt: number;
  readonly checkedAt: number;
}

/** The token of an `Authorization: Bearer <token>` header value, or undefined when it has another form. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = header === undefined ? null : /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match?.[1];
}

/** Verifies credentials of requests. */
export class Authenticator {
  private readonly cache = new Map<string, CacheEntry>();

  constructor(
    private readonly sessions: SessionTokens,
    private readonly accounts: AccountsService,
    private readonly tokens: DeveloperTokensService,
  ) {}

  /** The caller of `request`; throws UnauthorizedError for a bad credential. */
  async authenticate(request: AuthRequest): Promise<AuthResult> {
    const header = request.headers.authorization;
    if (header !== undefined) {
      const token = bearerToken(header);
      if (!token) {
        throw new UnauthorizedError('the Authorization header must be "Bearer <token>"');
      }
      return { principal: await this.verify(token), source: 'header' };
    }
    const cookie = request.cookies?.[SESSION_COOKIE];
    if (cookie) {
      return { principal: await this.verify(cookie), source: 'cookie' };
    }
    return { principal: null, source: 'none' };
  }

  /** Forgets cached callers of a session or developer token id (after logout or revoke). */
  forget(id: string): void {
    for (const [token, entry] of this.cache) {
      if (entry.principal.sessionId === id || entry.principal.tokenId === id) {
        this.cache.delete(token);
      }
    }
  }

  private async verify(token: string): Promise<Principal> {
    const now = Date.now();
    const cached = this.cache.get(token);
    if (cached && now - cached.checkedAt < CACHE_TTL_MS && now < cached.expiresAt) {
      return cached.principal;
    }
    this.cache.delete(token);
    const { expiresAt, ...principal } = token.startsWith(TOKEN_PREFIX)
      ? await this.tokens.verify(token)
      : await this.accounts.sessionPrincipal(await this.sessions.verify(token));
    if (this.cache.size >= CACHE_MAX_ENTRIES) {
      this.cache.clear();
    }
    this.cache.set(token, {
      principal,
      expiresAt: expiresAt ? expiresAt.getTime() : Number.POSITIVE_INFINITY,
      checkedAt: now,
    });
    return principal;
  }
}
