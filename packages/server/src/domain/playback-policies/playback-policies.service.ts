/**
 * Playback policy rules: validation of setPlaybackPolicy (allowed kids must be the tenant's
 * active keys; webhook URLs http(s), public unless AIRWAVE_ALLOW_PRIVATE_WEBHOOKS; secrets
 * write-only, kept when omitted on update), the read view, and the cached policy of a playback
 * ID that the gate asks on every media request.
 */
import { type Principal, requirePrincipal } from '../../auth/principal.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { checkOutboundHost, type HostResolver } from '../outbound-url.js';
import { PromiseCache } from '../playback-access/promise-cache.js';
import type { SigningKeysService } from '../signing-keys/signing-keys.service.js';
import { streamIdOf } from '../streams/streams.service.js';
import type { ContentPolicyTarget, PlaybackPoliciesStore } from './playback-policies.store.js';
import {
  type PlaybackPolicy,
  type PlaybackPolicyInput,
  PUBLIC_POLICY,
  type ResolvedPolicy,
  type WebhookSettings,
} from './playback-policy.js';

/** Default webhook time-out (ms). */
export const WEBHOOK_TIMEOUT_DEFAULT_MS = 5_000;
/** Longest webhook time-out accepted (ms). */
export const WEBHOOK_TIMEOUT_MAX_MS = 10_000;
/** Shortest webhook secret accepted. */
export const WEBHOOK_SECRET_MIN_LENGTH = 16;
/** Longest webhook secret accepted. */
export const WEBHOOK_SECRET_MAX_LENGTH = 512;
/** Longest webhook URL accepted. */
export const WEBHOOK_URL_MAX_LENGTH = 2048;
/** Most kids one JWT policy may list. */
export const MAX_ALLOWED_KIDS = 10;
/**
 * How long the gate trusts a cached playback-ID policy. Changes apply at once in this process and,
 * through `forgetChanged` (the event bus), in the others; this bounds staleness if an event is lost.
 */
export const POLICY_CACHE_TTL_MS = 5_000;
const POLICY_CACHE_MAX = 50_000;

/** The input field and node setting named when a webhook address is refused. */
export const WEBHOOK_OUTBOUND = {
  field: 'policy.webhook.url',
  optInSetting: 'AIRWAVE_ALLOW_PRIVATE_WEBHOOKS',
} as const;

/** A policy as the API shows it: the webhook secret is masked. */
export interface PlaybackPolicyView {
  readonly type: PlaybackPolicy['type'];
  readonly jwt: { readonly allowedKids: readonly string[] } | null;
  readonly webhook: { readonly url: string; readonly timeoutMs: number; readonly secretMasked: string } | null;
}

/** What the service needs. */
export interface PlaybackPoliciesServiceDeps {
  readonly store: PlaybackPoliciesStore;
  readonly signingKeys: SigningKeysService;
  /** Node setting: accept webhook URLs in private, loopback, link-local or multicast ranges. */
  readonly allowPrivateWebhooks: boolean;
  readonly resolveHost?: HostResolver;
  readonly now?: () => number;
}

/** A policy change, made in this process (`local`) or reported by another one. */
export interface PolicyChange {
  readonly playbackId: string;
  readonly streamId: string;
  readonly tenantId: string;
  readonly local: boolean;
}

interface PendingView {
  resolve(view: PlaybackPolicyView): void;
  reject(error: unknown): void;
}

/** The read view of a policy. */
export function policyView(policy: PlaybackPolicy): PlaybackPolicyView {
  return {
    type: policy.type,
    jwt: policy.type === 'JWT' ? { allowedKids: policy.allowedKids } : null,
    webhook:
      policy.type === 'WEBHOOK' && policy.webhook
        ? { url: policy.webhook.url, timeoutMs: policy.webhook.timeoutMs, secretMasked: 'redacted' }
        : null,
  };
}

/** Sets and reads playback policies; answers the gate's lookups from a cache. */
export class PlaybackPoliciesService {
  private readonly cache = new PromiseCache<string, ResolvedPolicy | undefined>(
    POLICY_CACHE_TTL_MS,
    POLICY_CACHE_MAX,
    () => this.now(),
  );
  private readonly changeListeners: ((change: PolicyChange) => void)[] = [];
  private readonly now: () => number;
  private pendingViews: Map<string, Map<string, PendingView[]>> | undefined;

  constructor(private readonly deps: PlaybackPoliciesServiceDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** Calls `listener` after every policy change made here or reported by another process. */
  onChanged(listener: (change: PolicyChange) => void): void {
    this.changeListeners.push(listener);
  }

  /** Drops what this process cached about a policy another process changed (it applies at once). */
  forgetChanged(change: Omit<PolicyChange, 'local'>): void {
    this.cache.delete(change.playbackId);
    this.changed({ ...change, local: false });
  }

  /** Sets the policy of a tenant's stream (security:write); returns the raw stream id. */
  async set(principal: Principal | null, streamId: string, input: PlaybackPolicyInput): Promise<string> {
    const caller = requirePrincipal(principal, 'security:write');
    const id = streamIdOf(streamId, 'streamId');
    const playbackId = await this.deps.store.playbackIdOf(caller.tenantId, id);
    if (playbackId === undefined) {
      throw new NotFoundError('Stream', streamId);
    }
    const current = await this.deps.store.forStream(caller.tenantId, id);
    const next = await this.validate(caller.tenantId, input, current);
    const policy = await this.deps.store.upsert(caller.tenantId, id, next, new Date(this.now()));
    const resolved: ResolvedPolicy = { streamId: id, tenantId: caller.tenantId, playbackId, policy };
    this.cache.set(playbackId, resolved);
    this.changed({ playbackId, streamId: id, tenantId: caller.tenantId, local: true });
    return id;
  }

  /**
   * Sets the own policy of a clip or VOD asset the caller's tenant owns (security:write; callers
   * find the target by the ID given, NOT_FOUND otherwise). It replaces, for that playback ID only,
   * what the content inherits. An omitted webhook secret keeps the content's own, never the
   * stream's.
   */
  async setForContent(
    principal: Principal | null,
    target: ContentPolicyTarget,
    input: PlaybackPolicyInput,
  ): Promise<PlaybackPolicy> {
    const caller = requirePrincipal(principal, 'security:write');
    if (target.tenantId !== caller.tenantId) {
      throw new NotFoundError(target.kind === 'CLIP' ? 'Clip' : 'VodAsset', target.contentId);
    }
    const current = (await this.deps.store.forContent(caller.tenantId, target.playbackId)) ?? PUBLIC_POLICY;
    const next = await this.validate(caller.tenantId, input, current);
    const policy = await this.deps.store.upsertContent(target, next, new Date(this.now()));
    const streamId = target.streamId ?? target.contentId;
    const { playbackId } = target;
    this.cache.set(playbackId, { streamId, tenantId: caller.tenantId, playbackId, policy });
    this.changed({ playbackId, streamId, tenantId: caller.tenantId, local: true });
    return policy;
  }

  /** The read view of a clip's or VOD asset's policy: its own, else its stream's (PUBLIC without a stream). */
  async viewForContent(tenantId: string, playbackId: string, streamId: string | null): Promise<PlaybackPolicyView> {
    const own = await this.deps.store.forContent(tenantId, playbackId);
    if (own) {
      return policyView(own);
    }
    return streamId ? this.viewForStream(tenantId, streamId) : policyView(PUBLIC_POLICY);
  }

  private changed(change: PolicyChange): void {
    for (const listener of this.changeListeners) {
      listener(change);
    }
  }

  /**
   * The read view of a tenant's stream's policy (PUBLIC when none was set). Calls made in the
   * same turn of the event loop (a page of streams) share one query per tenant.
   */
  viewForStream(tenantId: string, streamId: string): Promise<PlaybackPolicyView> {
    return new Promise((resolve, reject) => {
      if (!this.pendingViews) {
        this.pendingViews = new Map();
        setImmediate(() => this.flushViews());
      }
      const forTenant = this.pendingViews.get(tenantId) ?? new Map<string, PendingView[]>();
      this.pendingViews.set(tenantId, forTenant);
      forTenant.set(streamId, [...(forTenant.get(streamId) ?? []), { resolve, reject }]);
    });
  }

  private flushViews(): void {
    const batch = this.pendingViews ?? new Map<string, Map<string, PendingView[]>>();
    this.pendingViews = undefined;
    for (const [tenantId, waiting] of batch) {
      this.deps.store.forStreams(tenantId, [...waiting.keys()]).then(
        (policies) => {
          for (const [streamId, callers] of waiting) {
            const view = policyView(policies.get(streamId) ?? PUBLIC_POLICY);
            for (const caller of callers) {
              caller.resolve(view);
            }
          }
        },
        (error: unknown) => {
          for (const callers of waiting.values()) {
            for (const caller of callers) {
              caller.reject(error);
            }
          }
        },
      );
    }
  }

  /**
   * The stream and policy behind a playback ID (undefined: no stream has it). Served from a
   * cache of POLICY_CACHE_TTL_MS shared by concurrent requests; unknown IDs are cached too.
   */
  resolve(playbackId: string): Promise<ResolvedPolicy | undefined> {
    return this.cache.get(playbackId, () => this.deps.store.byPlaybackId(playbackId));
  }

  private async validate(
    tenantId: string,
    input: PlaybackPolicyInput,
    current: PlaybackPolicy,
  ): Promise<Omit<PlaybackPolicy, 'version'>> {
    if (input.type === 'PUBLIC') {
      return { type: 'PUBLIC', allowedKids: [], webhook: undefined };
    }
    if (input.type === 'JWT') {
      return { type: 'JWT', allowedKids: await this.allowedKids(tenantId, input), webhook: undefined };
    }
    if (input.type === 'WEBHOOK') {
      return { type: 'WEBHOOK', allowedKids: [], webhook: await this.webhook(input, current) };
    }
    throw new ValidationError('policy.type', 'enum', 'policy.type must be PUBLIC, JWT or WEBHOOK');
  }

  private async allowedKids(tenantId: string, input: PlaybackPolicyInput): Promise<string[]> {
    const kids = [...new Set((input.jwt?.allowedKids ?? []).map((kid) => kid.trim()))];
    if (kids.length > MAX_ALLOWED_KIDS) {
      throw new ValidationError(
        'policy.jwt.allowedKids',
        'length',
        `policy.jwt.allowedKids lists at most ${MAX_ALLOWED_KIDS} kids`,
      );
    }
    const active = new Set(await this.deps.signingKeys.activeKids(tenantId));
    if (active.size === 0) {
      throw new ValidationError(
        'policy.jwt.allowedKids',
        'active_key',
        'a JWT policy needs at least one active signing key: call createSigningKey first',
      );
    }
    const unknown = kids.find((kid) => !active.has(kid));
    if (unknown !== undefined) {
      throw new ValidationError(
        'policy.jwt.allowedKids',
        'active_key',
        `policy.jwt.allowedKids: "${unknown}" is not the kid of an active signing key of this account`,
      );
    }
    return kids;
  }

  private async webhook(input: PlaybackPolicyInput, current: PlaybackPolicy): Promise<WebhookSettings> {
    const given = input.webhook;
    const { field } = WEBHOOK_OUTBOUND;
    const rawUrl = given?.url?.trim() ?? '';
    if (rawUrl === '') {
      throw new ValidationError(field, 'required', 'a WEBHOOK policy needs policy.webhook.url');
    }
    if (rawUrl.length > WEBHOOK_URL_MAX_LENGTH) {
      throw new ValidationError(field, 'length', `${field} must be at most ${WEBHOOK_URL_MAX_LENGTH} characters`);
    }
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      throw new ValidationError(field, 'format', `${field} is not a valid URL`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw new ValidationError(field, 'scheme', `${field} must be an http or https URL`);
    }
    if (url.username !== '' || url.password !== '') {
      throw new ValidationError(field, 'credentials', `${field} must not carry credentials; use the secret`);
    }
    await checkOutboundHost(url.hostname, {
      allowPrivate: this.deps.allowPrivateWebhooks,
      ...WEBHOOK_OUTBOUND,
      ...(this.deps.resolveHost ? { resolve: this.deps.resolveHost } : {}),
    });
    const secret = given?.secret ?? current.webhook?.secret;
    if (secret === undefined) {
      throw new ValidationError(
        'policy.webhook.secret',
        'required',
        'a new WEBHOOK policy needs policy.webhook.secret',
      );
    }
    if (secret.length < WEBHOOK_SECRET_MIN_LENGTH || secret.length > WEBHOOK_SECRET_MAX_LENGTH) {
      throw new ValidationError(
        'policy.webhook.secret',
        'length',
        `policy.webhook.secret must be ${WEBHOOK_SECRET_MIN_LENGTH} to ${WEBHOOK_SECRET_MAX_LENGTH} characters`,
      );
    }
    const timeoutMs = given?.timeoutMs ?? WEBHOOK_TIMEOUT_DEFAULT_MS;
    if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > WEBHOOK_TIMEOUT_MAX_MS) {
      throw new ValidationError(
        'policy.webhook.timeoutMs',
        'range',
        `policy.webhook.timeoutMs must be an integer from 1 to ${WEBHOOK_TIMEOUT_MAX_MS}`,
      );
    }
    return { url: url.toString(), secret, timeoutMs };
  }
}
