/**
 * Who is calling: a signed-in user (session JWT or cookie) or a developer token with scopes.
 * Scopes are enforced for developer tokens only; sessions may do everything in their tenant.
 */
import { ForbiddenError, UnauthorizedError } from '../domain/errors.js';

/** Every scope a developer token can carry. */
export const SCOPES = [
  'streams:read',
  'streams:write',
  'analytics:read',
  'developer:read',
  'developer:write',
  'account:read',
  'account:write',
  'security:read',
  'security:write',
] as const;

/** One scope name. */
export type Scope = (typeof SCOPES)[number];

/** The authenticated caller of one request. */
export interface Principal {
  readonly userId: string;
  readonly tenantId: string;
  readonly kind: 'session' | 'developer-token';
  /** Developer token id (kind 'developer-token'). */
  readonly tokenId?: string;
  /** Session id (kind 'session'); logout revokes it. */
  readonly sessionId?: string;
  /** Granted scopes; 'all' for sessions. */
  readonly scopes: ReadonlySet<Scope> | 'all';
}

/** Returns the principal or throws UNAUTHORIZED; with `scope`, also FORBIDDEN when it is missing. */
export function requirePrincipal(principal: Principal | null, scope?: Scope): Principal {
  if (!principal) {
    throw new UnauthorizedError();
  }
  if (scope && principal.scopes !== 'all' && !principal.scopes.has(scope)) {
    throw new ForbiddenError(`this developer token lacks the ${scope} scope`, scope);
  }
  return principal;
}
