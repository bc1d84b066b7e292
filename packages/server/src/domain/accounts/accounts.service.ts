/**
 * Accounts: registration (a new tenant and its first user), login with email and password,
 * sessions that logout revokes, and the signed-in user.
 */
import { randomUUID } from 'node:crypto';
import { type Principal, requirePrincipal } from '../../auth/principal.js';
import { UnauthorizedError, ValidationError } from '../errors.js';
import type { AccountsStore, UserRow } from './accounts.store.js';
import type { LoginLimiter } from './login-limiter.js';
import { dummyHash, hashPassword, PASSWORD_MAX_LENGTH, validatePassword, verifyPassword } from './password.js';

/** Default session lifetime: 7 days. */
export const SESSION_TTL_SECONDS = 7 * 24 * 3600;
/** Longest email accepted (RFC 5321 path limit). */
export const EMAIL_MAX_LENGTH = 254;
/** Longest display name accepted. */
export const NAME_MAX_LENGTH = 200;

/** What a session token says. */
export interface SessionClaims {
  readonly userId: string;
  readonly tenantId: string;
  readonly sessionId: string;
  readonly expiresAt: Date;
}

/** Turns session claims into a signed token (implemented in auth/ with jose). */
export interface SessionSigner {
  sign(claims: SessionClaims): Promise<string>;
}

/** A user as the API shows it. */
export interface UserView {
  readonly id: string;
  readonly tenantId: string;
  readonly email: string;
  readonly name: string | null;
  readonly createdAt: Date;
}

/** A new session: its token, expiry and user. */
export interface AuthPayload {
  readonly token: string;
  readonly expiresAt: Date;
  readonly user: UserView;
}

/** Input of register. */
export interface RegisterInput {
  readonly email: string;
  readonly password: string;
  readonly name?: string | null;
}

/** Input of login. */
export interface LoginInput {
  readonly email: string;
  readonly password: string;
}

/** Tuning and hooks of the accounts service. */
export interface AccountsOptions {
  /** Session lifetime (default SESSION_TTL_SECONDS). */
  readonly sessionTtlSeconds?: number;
  /** Called with a session id after logout revoked it (drops cached verifications). */
  readonly onRevoked?: (sessionId: string) => void;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const BAD_CREDENTIALS = 'invalid email or password';

/** The trimmed email of an input; ValidationError when it is empty. */
function requiredEmail(value: string): string {
  const email = value.trim();
  if (email.length === 0) {
    throw new ValidationError('input.email', 'required', 'email is required');
  }
  return email;
}

function toView(row: UserRow): UserView {
  return { id: row.id, tenantId: row.tenantId, email: row.email, name: row.name, createdAt: row.createdAt };
}

/** Registration, login, logout and sessions. */
export class AccountsService {
  constructor(
    private readonly store: AccountsStore,
    private readonly limiter: LoginLimiter,
    private readonly signer: SessionSigner,
    private readonly options: AccountsOptions = {},
  ) {}

  /** Creates a tenant and its first user, and signs them in. */
  async register(input: RegisterInput): Promise<AuthPayload> {
    const email = requiredEmail(input.email);
    if (email.length > EMAIL_MAX_LENGTH || !EMAIL.test(email)) {
      throw new ValidationError('input.email', 'format', 'email must look like name@example.com');
    }
    validatePassword(input.password, 'input.password');
    const name = input.name?.trim() || null;
    if (name !== null && name.length > NAME_MAX_LENGTH) {
      throw new ValidationError('input.name', 'length', `name must be at most ${NAME_MAX_LENGTH} characters`);
    }
    const taken = () => new ValidationError('input.email', 'unique', 'an account with this email already exists');
    if (await this.store.userByEmail(email)) {
      throw taken();
    }
    const row = await this.store.createTenantWithUser(
      {
        id: randomUUID(),
        email,
        name,
        passwordHash: await hashPassword(input.password),
        createdAt: new Date(),
      },
      name ?? email,
    );
    if (!row) {
      throw taken();
    }
    return this.startSession(row);
  }

  /** Signs in; every wrong combination answers the same AuthError, repeated failures RateLimitError. */
  async login(input: LoginInput, ip: string): Promise<AuthPayload> {
    const email = requiredEmail(input.email);
    if (input.password.length === 0) {
      throw new ValidationError('input.password', 'required', 'password is required');
    }
    const attempt = await this.limiter.admit(email.slice(0, EMAIL_MAX_LENGTH + 1), ip);
    const user =
      email.length <= EMAIL_MAX_LENGTH && input.password.length <= PASSWORD_MAX_LENGTH
        ? await this.store.userByEmail(email)
        : undefined;
    const matches = await verifyPassword(
      input.password.slice(0, PASSWORD_MAX_LENGTH),
      user?.passwordHash ?? (await dummyHash()),
    );
    if (!user || !matches) {
      throw new UnauthorizedError(BAD_CREDENTIALS);
    }
    await attempt.succeeded();
    return this.startSession(user);
  }

  /** Revokes the caller's session; developer tokens cannot log out (revoke them instead). */
  async logout(principal: Principal | null): Promise<void> {
    const caller = requirePrincipal(principal);
    if (caller.kind !== 'session' || !caller.sessionId) {
      throw new UnauthorizedError('logout ends a sign-in session; revoke a developer token with revokeDeveloperToken');
    }
    await this.store.revokeSession(caller.tenantId, caller.sessionId, new Date());
    this.options.onRevoked?.(caller.sessionId);
  }

  /** The signed-in user (developer tokens need account:read). */
  async me(principal: Principal | null): Promise<UserView> {
    const caller = requirePrincipal(principal, 'account:read');
    const row = await this.store.userById(caller.tenantId, caller.userId);
    if (!row) {
      throw new UnauthorizedError('the user of this token no longer exists');
    }
    return toView(row);
  }

  /** The principal of a verified session token, or UnauthorizedError when revoked or expired. */
  async sessionPrincipal(claims: SessionClaims): Promise<Principal & { readonly expiresAt: Date }> {
    const row = await this.store.activeSession(claims.sessionId, new Date());
    if (!row || row.userId !== claims.userId || row.tenantId !== claims.tenantId) {
      throw new UnauthorizedError('the session has ended (logged out or expired); sign in again');
    }
    return {
      userId: row.userId,
      tenantId: row.tenantId,
      kind: 'session',
      sessionId: row.id,
      scopes: 'all',
      expiresAt: row.expiresAt,
    };
  }

  private async startSession(user: UserRow): Promise<AuthPayload> {
    const now = new Date();
    // Whole seconds: the JWT `exp` claim and the stored expiry must agree.
    const expiresAt = new Date(
      Math.floor(now.getTime() / 1000) * 1000 + (this.options.sessionTtlSeconds ?? SESSION_TTL_SECONDS) * 1000,
    );
    const sessionId = randomUUID();
    await this.store.insertSession({
      id: sessionId,
      tenantId: user.tenantId,
      userId: user.id,
      createdAt: now,
      expiresAt,
      revokedAt: null,
    });
    const token = await this.signer.sign({ userId: user.id, tenantId: user.tenantId, sessionId, expiresAt });
    return { token, expiresAt, user: toView(user) };
  }
}
