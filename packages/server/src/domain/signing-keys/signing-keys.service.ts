/**
 * ES256 (ECDSA P-256, RFC 7518 §3.4) playback signing keys: the private key is generated here,
 * returned once as PKCS#8 PEM and never stored; the public key (SPKI PEM) is kept under a random
 * URL-safe `kid`. Keys are listed, revoked, and looked up by kid for the playback gate.
 */
import { createPublicKey, generateKeyPair, type KeyObject, randomBytes, randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { type Principal, requirePrincipal } from '../../auth/principal.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { isUuid } from '../ids.js';
import { type Connection, encodeCursor, type PageInput, toConnection, toPageRequest } from '../pagination.js';
import { PromiseCache } from '../playback-access/promise-cache.js';
import type { SigningKeyRow, SigningKeyStatusFilter, SigningKeysStore } from './signing-keys.store.js';

/** The only algorithm signing keys use. */
export const SIGNING_ALGORITHM = 'ES256';
/** Most active keys one tenant may hold (rotation needs two; more is a leak waiting to happen). */
export const MAX_ACTIVE_KEYS_PER_TENANT = 10;
/** Longest key name accepted. */
export const KEY_NAME_MAX_LENGTH = 100;
/** How long a kid lookup is trusted before the database is asked again (bounds a lost revocation event). */
export const KEY_CACHE_TTL_MS = 5_000;
/** How often a key's lastUsedAt is written at most. */
export const KEY_LAST_USED_RESOLUTION_MS = 60_000;
const KEY_CACHE_MAX = 10_000;
/** Most recent keys (active or revoked) loaded per tenant; older revoked kids read as unknown. */
const KEYS_LOADED_PER_TENANT = 1_000;

const generateKeyPairAsync = promisify(generateKeyPair);

/** Status of a signing key. */
export type SigningKeyStatus = 'ACTIVE' | 'REVOKED';

/** A key as the API lists it (public half only). */
export interface SigningKeyView {
  readonly id: string;
  readonly kid: string;
  readonly name: string;
  readonly algorithm: typeof SIGNING_ALGORITHM;
  readonly publicKeyPem: string;
  readonly status: SigningKeyStatus;
  readonly createdAt: Date;
  readonly revokedAt: Date | null;
  readonly lastUsedAt: Date | null;
}

/** A key just created, with its private half (returned this once). */
export interface CreatedSigningKey {
  readonly signingKey: SigningKeyView;
  readonly privateKeyPem: string;
}

/** A key as the gate needs it. */
export interface VerificationKey {
  readonly id: string;
  readonly tenantId: string;
  readonly kid: string;
  readonly revoked: boolean;
  readonly publicKey: KeyObject;
}

/** A revocation, made in this process (`local`) or reported by another one. */
export interface KeyRevocation {
  readonly kid: string;
  readonly tenantId: string;
  readonly local: boolean;
}

function toView(row: SigningKeyRow): SigningKeyView {
  return {
    id: row.id,
    kid: row.kid,
    name: row.name,
    algorithm: SIGNING_ALGORITHM,
    publicKeyPem: row.publicKeyPem,
    status: row.revokedAt ? 'REVOKED' : 'ACTIVE',
    createdAt: row.createdAt,
    revokedAt: row.revokedAt,
    lastUsedAt: row.lastUsedAt,
  };
}

/** Creates, lists and revokes signing keys, and serves kid lookups to the gate from a cache. */
export class SigningKeysService {
  /** Each tenant's keys by kid: a kid of no key costs no query, however many are tried. */
  private readonly cache = new PromiseCache<string, ReadonlyMap<string, VerificationKey>>(
    KEY_CACHE_TTL_MS,
    KEY_CACHE_MAX,
    () => this.now(),
  );
  /** Parsed public keys by key id, kept across reloads. */
  private readonly publicKeys = new Map<string, KeyObject>();
  /** When this process last wrote lastUsedAt, by key id. */
  private readonly lastTouched = new Map<string, number>();
  private readonly revokedListeners: ((revocation: KeyRevocation) => void)[] = [];

  constructor(
    private readonly store: SigningKeysStore,
    private readonly now: () => number = Date.now,
  ) {}

  /** Calls `listener` after every revocation made here or reported by another process. */
  onRevoked(listener: (revocation: KeyRevocation) => void): void {
    this.revokedListeners.push(listener);
  }

  /** Drops what this process cached about a key another process revoked (its tokens stop at once). */
  forgetRevoked(kid: string, tenantId: string): void {
    this.revoked({ kid, tenantId, local: false });
  }

  /** Generates a key pair (security:write); the private key is in the result and nowhere else. */
  async create(principal: Principal | null, input: { readonly name: string }): Promise<CreatedSigningKey> {
    const caller = requirePrincipal(principal, 'security:write');
    const name = input.name.trim();
    if (name.length === 0) {
      throw new ValidationError('input.name', 'required', 'name is required');
    }
    if (name.length > KEY_NAME_MAX_LENGTH) {
      throw new ValidationError('input.name', 'length', `name must be at most ${KEY_NAME_MAX_LENGTH} characters`);
    }
    if ((await this.store.countActive(caller.tenantId)) >= MAX_ACTIVE_KEYS_PER_TENANT) {
      throw new ValidationError(
        'input.name',
        'limit',
        `a tenant can hold at most ${MAX_ACTIVE_KEYS_PER_TENANT} active signing keys; revoke one first`,
      );
    }
    const { publicKey, privateKey } = await generateKeyPairAsync('ec', {
      namedCurve: 'P-256',
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    const row: SigningKeyRow = {
      id: randomUUID(),
      tenantId: caller.tenantId,
      kid: randomBytes(16).toString('base64url'),
      name,
      algorithm: SIGNING_ALGORITHM,
      publicKeyPem: publicKey,
      createdAt: new Date(this.now()),
      revokedAt: null,
      lastUsedAt: null,
    };
    await this.store.insert(row);
    this.cache.delete(row.tenantId);
    return { signingKey: toView(row), privateKeyPem: privateKey };
  }

  /** A tenant's key by id (security:read); another tenant's id is NOT_FOUND. */
  async get(principal: Principal | null, id: string): Promise<SigningKeyView> {
    const caller = requirePrincipal(principal, 'security:read');
    const row = isUuid(id) ? await this.store.find(caller.tenantId, id) : undefined;
    if (!row) {
      throw new NotFoundError('SigningKey', id);
    }
    return toView(row);
  }

  /** A page of the caller's tenant's keys, oldest first (security:read). */
  async list(
    principal: Principal | null,
    page: PageInput | null | undefined,
    status: SigningKeyStatusFilter,
  ): Promise<Connection<SigningKeyView>> {
    const caller = requirePrincipal(principal, 'security:read');
    const request = toPageRequest(page);
    if (request.cursor && !isUuid(request.cursor.id)) {
      const field = request.direction === 'forward' ? 'page.after' : 'page.before';
      throw new ValidationError(field, 'cursor', `${field} is not a cursor returned by this API`);
    }
    const { rows, total } = await this.store.page(caller.tenantId, request, status);
    return toConnection(rows.map(toView), request, total, (view) => encodeCursor(view.createdAt, view.id));
  }

  /** Revokes a key (security:write); tokens signed with it stop playing at once in this process. */
  async revoke(principal: Principal | null, id: string): Promise<{ readonly id: string }> {
    const caller = requirePrincipal(principal, 'security:write');
    const row = isUuid(id) ? await this.store.revoke(caller.tenantId, id, new Date(this.now())) : undefined;
    if (!row) {
      throw new NotFoundError('SigningKey', id);
    }
    this.revoked({ kid: row.kid, tenantId: row.tenantId, local: true });
    return { id: row.id };
  }

  private revoked(revocation: KeyRevocation): void {
    this.cache.delete(revocation.tenantId);
    for (const listener of this.revokedListeners) {
      listener(revocation);
    }
  }

  /** The kids of a tenant's active keys (policy validation). */
  activeKids(tenantId: string): Promise<string[]> {
    return this.store.activeKids(tenantId);
  }

  /**
   * The tenant's key with this kid for verification (revoked keys included, so the gate can say
   * so), or undefined. A tenant's keys are loaded in one query, shared by concurrent requests and
   * kept for KEY_CACHE_TTL_MS; changes made here or announced by another process drop them at once.
   */
  async verificationKey(tenantId: string, kid: string): Promise<VerificationKey | undefined> {
    return (await this.cache.get(tenantId, () => this.loadTenant(tenantId))).get(kid);
  }

  /** Records that a key verified a token (written at most once a minute per key, never awaited). */
  markUsed(keyId: string): void {
    const now = this.now();
    if (now - (this.lastTouched.get(keyId) ?? 0) < KEY_LAST_USED_RESOLUTION_MS) {
      return;
    }
    if (this.lastTouched.size >= KEY_CACHE_MAX) {
      this.lastTouched.clear();
    }
    this.lastTouched.set(keyId, now);
    this.store.touch(keyId, new Date(now)).catch(() => {
      this.lastTouched.delete(keyId);
    });
  }

  private async loadTenant(tenantId: string): Promise<ReadonlyMap<string, VerificationKey>> {
    const rows = await this.store.verificationKeys(tenantId, KEYS_LOADED_PER_TENANT);
    if (this.publicKeys.size >= KEY_CACHE_MAX) {
      this.publicKeys.clear();
    }
    const keys = new Map<string, VerificationKey>();
    for (const row of rows) {
      let publicKey = this.publicKeys.get(row.id);
      if (!publicKey) {
        publicKey = createPublicKey(row.publicKeyPem);
        this.publicKeys.set(row.id, publicKey);
      }
      keys.set(row.kid, { id: row.id, tenantId, kid: row.kid, revoked: row.revokedAt !== null, publicKey });
    }
    return keys;
  }
}
