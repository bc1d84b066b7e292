/**
 * Verifies ES256 playback tokens (RFC 7519 JWT over RFC 7515 JWS, RFC 7518 §3.4): the signing
 * key by `kid` (the stream's tenant's, not revoked, in `allowedKids` unless that list is empty),
 * the signature (jose, ES256 only), `exp` required, `nbf` honoured, both with 60 s of clock skew,
 * and `sub` equal to the playback ID. Signature checks are cached per token; everything else is
 * checked on every request, so a revocation or policy change applies to cached tokens too.
 */
import { compactVerify } from 'jose';
import type { VerificationKey } from '../signing-keys/signing-keys.service.js';
import { type AccessDenial, deny } from './deny.js';
import { PLAYBACK_TOKEN_ALG, parsePlaybackJws } from './jws.js';

/** Clock skew allowed on `exp` and `nbf` (seconds). */
export const CLOCK_SKEW_SECONDS = 60;
const VERIFIED_CACHE_MAX = 10_000;

/** What the token must satisfy. */
export interface JwtRequirements {
  readonly playbackId: string;
  /** Tenant that owns the playback ID; keys of other tenants are unknown here. */
  readonly tenantId: string;
  /** Accepted kids; empty accepts any active key of the tenant. */
  readonly allowedKids: readonly string[];
}

/** A token that passed every check. */
export interface VerifiedToken {
  readonly ok: true;
  readonly kid: string;
  /** Id of the signing key that verified the token. */
  readonly keyId: string;
  readonly claims: Readonly<Record<string, unknown>>;
}

/** A denial, with the kid when the token named one. */
export type JwtDenial = AccessDenial & { readonly kid?: string };

/** Looks up a tenant's verification key by kid. */
export type KeyLookup = (tenantId: string, kid: string) => Promise<VerificationKey | undefined>;

interface VerifiedEntry {
  readonly kid: string;
  readonly keyId: string;
  readonly claims: Readonly<Record<string, unknown>>;
}

function numericDate(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Verifies playback tokens against the signing-key registry. */
export class PlaybackJwtVerifier {
  private readonly verified = new Map<string, VerifiedEntry>();

  constructor(
    private readonly keys: KeyLookup,
    private readonly now: () => number = Date.now,
  ) {}

  /** Checks `token` for `requirements`; never throws for bad tokens. */
  async verify(token: string | undefined, requirements: JwtRequirements): Promise<VerifiedToken | JwtDenial> {
    const value = token ?? '';
    const known = this.verified.get(value);
    const parsed = known ?? parsePlaybackJws(value);
    if (!('kid' in parsed)) {
      return parsed;
    }
    const { kid } = parsed;
    const key = await this.keys(requirements.tenantId, kid);
    if (!key || key.tenantId !== requirements.tenantId) {
      return { ...deny(401, 'jwt-unknown-kid', `no signing key of this account has kid ${kid}`), kid };
    }
    if (known?.keyId !== key.id) {
      if (!(await this.checkSignature(value, key))) {
        return { ...deny(401, 'jwt-sig-fail', 'the token signature does not verify with its signing key'), kid };
      }
      this.remember(value, { kid, keyId: key.id, claims: parsed.claims });
    }
    const denial = this.checkClaims(parsed.claims, key, requirements);
    return denial ? { ...denial, kid } : { ok: true, kid, keyId: key.id, claims: parsed.claims };
  }

  /** Drops cached signature checks (all of them; called on key revocation). */
  forgetAll(): void {
    this.verified.clear();
  }

  private async checkSignature(token: string, key: VerificationKey): Promise<boolean> {
    try {
      await compactVerify(token, key.publicKey, { algorithms: [PLAYBACK_TOKEN_ALG] });
      return true;
    } catch {
      return false;
    }
  }

  private checkClaims(
    claims: Readonly<Record<string, unknown>>,
    key: VerificationKey,
    requirements: JwtRequirements,
  ): AccessDenial | undefined {
    if (key.revoked) {
      return deny(403, 'jwt-revoked-kid', `signing key ${key.kid} has been revoked`);
    }
    const nowSeconds = this.now() / 1000;
    const exp = numericDate(claims.exp);
    if (exp === undefined) {
      return deny(401, 'jwt-missing-exp', 'the token needs an exp claim (NumericDate)');
    }
    if (nowSeconds >= exp + CLOCK_SKEW_SECONDS) {
      return deny(401, 'jwt-expired', `the token expired at ${new Date(exp * 1000).toISOString()}`);
    }
    if (claims.nbf !== undefined) {
      const nbf = numericDate(claims.nbf);
      if (nbf === undefined) {
        return deny(401, 'jwt-not-a-jws', 'the nbf claim must be a NumericDate');
      }
      if (nowSeconds < nbf - CLOCK_SKEW_SECONDS) {
        return deny(401, 'jwt-not-yet-valid', `the token is valid from ${new Date(nbf * 1000).toISOString()}`);
      }
    }
    if (claims.sub !== requirements.playbackId) {
      return deny(403, 'jwt-sub-mismatch', 'the token sub is not this playback ID');
    }
    if (requirements.allowedKids.length > 0 && !requirements.allowedKids.includes(key.kid)) {
      return deny(403, 'jwt-kid-not-allowed', `signing key ${key.kid} is not in this playback policy's allowedKids`);
    }
    return undefined;
  }

  private remember(token: string, entry: VerifiedEntry): void {
    if (this.verified.size >= VERIFIED_CACHE_MAX) {
      const oldest = this.verified.keys().next();
      if (!oldest.done) {
        this.verified.delete(oldest.value);
      }
    }
    this.verified.set(token, entry);
  }
}
