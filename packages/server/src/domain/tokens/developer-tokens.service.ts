/**
 * Developer tokens: `aw_` + 43 characters from a CSPRNG, shown once at creation and stored as
 * SHA-256 only; scoped (auth/principal.ts SCOPES), optionally expiring, revocable.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { type Principal, requirePrincipal, SCOPES, type Scope } from '../../auth/principal.js';
import { ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from '../errors.js';
import { isUuid } from '../ids.js';
import { type Connection, encodeCursor, type PageInput, toConnection, toPageRequest } from '../pagination.js';
import type { DeveloperTokenRow, DeveloperTokensStore } from './developer-tokens.store.js';

/** Prefix of every developer token value. */
export const TOKEN_PREFIX = 'aw_';
/** Longest token name accepted. */
export const TOKEN_NAME_MAX_LENGTH = 100;
/** Longest lifetime accepted (days). */
export const TOKEN_MAX_DAYS = 3650;
/** How often a token's lastUsedAt is written at most (it is read-mostly). */
export const LAST_USED_RESOLUTION_MS = 60_000;

/** Lifecycle of a token. */
export type TokenStatus = 'active' | 'revoked' | 'expired';

/** A token as the API lists it (never its value). */
export interface DeveloperTokenView {
  readonly id: string;
  readonly name: string;
  readonly scopes: readonly Scope[];
  readonly status: TokenStatus;
  readonly createdAt: Date;
  readonly expiresAt: Date | null;
  readonly lastUsedAt: Date | null;
}

/** A token just created, with its value (shown this once). */
export interface CreatedDeveloperToken extends DeveloperTokenView {
  readonly value: string;
}

/** Input of createDeveloperToken. */
export interface CreateDeveloperTokenInput {
  readonly name: string;
  /** Comma-separated scopes, e.g. `streams:read,streams:write`. */
  readonly permissions: string;
  /** Lifetime in days; null or absent never expires. */
  readonly expiresIn?: number | null;
}

/** The principal of a valid token and when it stops being valid. */
export interface TokenPrincipal extends Principal {
  readonly expiresAt: Date | null;
}

/** SHA-256 (hex) of a token value: the only form stored. */
export function hashToken(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Parses a comma-separated scope list; unknown or missing scopes are a ValidationError on `field`. */
export function parseScopes(permissions: string, field: string): Scope[] {
  const names = permissions
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name.length > 0);
  if (names.length === 0) {
    throw new ValidationError(field, 'required', `${field} must list at least one scope: ${SCOPES.join(', ')}`);
  }
  const scopes = new Set<Scope>();
  for (const name of names) {
    if (!(SCOPES as readonly string[]).includes(name)) {
      throw new ValidationError(field, 'enum', `unknown scope "${name}"; known scopes: ${SCOPES.join(', ')}`);
    }
    scopes.add(name as Scope);
  }
  return [...scopes];
}

function statusOf(row: DeveloperTokenRow, now: Date): TokenStatus {
  if (row.revokedAt) {
    return 'revoked';
  }
  return row.expiresAt && row.expiresAt.getTime() <= now.getTime() ? 'expired' : 'active';
}

function toView(row: DeveloperTokenRow, now: Date): DeveloperTokenView {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes as Scope[],
    status: statusOf(row, now),
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    lastUsedAt: row.lastUsedAt,
  };
}

/** Creates, lists, revokes and verifies developer tokens. */
export class DeveloperTokensService {
  /** `onRevoked` is called with a token id after revocation (drops cached verifications). */
  constructor(
    private readonly store: DeveloperTokensStore,
    private readonly onRevoked: (tokenId: string) => void = () => undefined,
  ) {}

  /** Creates a token; a developer token needs developer:write and can grant only scopes it has. */
  async create(principal: Principal | null, input: CreateDeveloperTokenInput): Promise<CreatedDeveloperToken> {
    const caller = requirePrincipal(principal, 'developer:write');
    const name = input.name.trim();
    if (name.length === 0) {
      throw new ValidationError('input.name', 'required', 'name is required');
    }
    if (name.length > TOKEN_NAME_MAX_LENGTH) {
      throw new ValidationError('input.name', 'length', `name must be at most ${TOKEN_NAME_MAX_LENGTH} characters`);
    }
    const scopes = parseScopes(input.permissions, 'input.permissions');
    const days = input.expiresIn ?? null;
    if (days !== null && (!Number.isInteger(days) || days < 1 || days > TOKEN_MAX_DAYS)) {
      throw new ValidationError(
        'input.expiresIn',
        'range',
        `expiresIn is a number of days between 1 and ${TOKEN_MAX_DAYS}, or null for a token that never expires`,
      );
    }
    if (caller.scopes !== 'all') {
      const granted = caller.scopes;
      const missing = scopes.find((scope) => !granted.has(scope));
      if (missing) {
        throw new ForbiddenError(`this developer token cannot grant the ${missing} scope it does not have`, missing);
      }
    }
    const now = new Date();
    const value = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const row: DeveloperTokenRow = {
      id: randomUUID(),
      tenantId: caller.tenantId,
      userId: caller.userId,
      name,
      tokenHash: hashToken(value),
      scopes,
      createdAt: now,
      expiresAt: days === null ? null : new Date(now.getTime() + days * 86_400_000),
      revokedAt: null,
      lastUsedAt: null,
    };
    await this.store.insert(row);
    return { ...toView(row, now), value };
  }

  /** A page of the caller's tenant's tokens, oldest first (developer:read). */
  async list(principal: Principal | null, page: PageInput | null | undefined): Promise<Connection<DeveloperTokenView>> {
    const caller = requirePrincipal(principal, 'developer:read');
    const request = toPageRequest(page);
    if (request.cursor && !isUuid(request.cursor.id)) {
      const field = request.direction === 'forward' ? 'page.after' : 'page.before';
      throw new ValidationError(field, 'cursor', `${field} is not a cursor returned by this API`);
    }
    const { rows, total } = await this.store.page(caller.tenantId, request);
    const now = new Date();
    return toConnection(
      rows.map((row) => toView(row, now)),
      request,
      total,
      (view) => encodeCursor(view.createdAt, view.id),
    );
  }

  /** Revokes a token of the caller's tenant (developer:write); another tenant's id is NOT_FOUND. */
  async revoke(principal: Principal | null, id: string): Promise<{ readonly id: string }> {
    const caller = requirePrincipal(principal, 'developer:write');
    const row = isUuid(id) ? await this.store.revoke(caller.tenantId, id, new Date()) : undefined;
    if (!row) {
      throw new NotFoundError('DeveloperToken', id);
    }
    this.onRevoked(row.id);
    return { id: row.id };
  }

  /** The principal of a token value; UnauthorizedError when unknown, revoked or expired. */
  async verify(value: string): Promise<TokenPrincipal> {
    const row = value.startsWith(TOKEN_PREFIX) ? await this.store.byHash(hashToken(value)) : undefined;
    const now = new Date();
    if (!row) {
      throw new UnauthorizedError('invalid developer token');
    }
    const status = statusOf(row, now);
    if (status !== 'active') {
      throw new UnauthorizedError(`this developer token is ${status}`);
    }
    if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
      await this.store.touch(row.id, now);
    }
    return {
      userId: row.userId,
      tenantId: row.tenantId,
      kind: 'developer-token',
      tokenId: row.id,
      scopes: new Set(row.scopes as Scope[]),
      expiresAt: row.expiresAt,
    };
  }
}
