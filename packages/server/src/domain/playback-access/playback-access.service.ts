/**
 * The playback access decision (spec §5 "Viewer-side playback access"): the stream's policy by
 * playback ID, then PUBLIC allows, JWT verifies the viewer's ES256 token, WEBHOOK asks the
 * customer's endpoint once per viewer session. Also answers testPlaybackAccess for the owner.
 */
import { type Principal, requirePrincipal } from '../../auth/principal.js';
import { NotFoundError, ValidationError } from '../errors.js';
import type { HostResolver } from '../outbound-url.js';
import type { PlaybackPoliciesService } from '../playback-policies/playback-policies.service.js';
import type { PlaybackPolicyType, ResolvedPolicy } from '../playback-policies/playback-policy.js';
import type { SigningKeysService } from '../signing-keys/signing-keys.service.js';
import { PlaybackJwtVerifier } from './jwt-verifier.js';
import { callPlaybackWebhook, type WebhookOutcome } from './webhook-client.js';
import { WebhookDecisionCache } from './webhook-decisions.js';

/** One playback request as the gate sees it. */
export interface AccessRequest {
  readonly playbackId: string;
  readonly token?: string | undefined;
  readonly viewerIp: string;
  /** Path and query of the media request (tokens removed). */
  readonly requestUrl: string;
  /** hls, llhls, dash, mp4, webrtc or info. */
  readonly protocol: string;
  readonly sessionId: string;
}

/** What the gate decided, with everything testPlaybackAccess reports. */
export interface AccessDecision {
  readonly allowed: boolean;
  /** 401 or 403 when refused. */
  readonly status: 200 | 401 | 403;
  readonly policyType: PlaybackPolicyType;
  /** `public`, `jwt-valid`, `webhook-allow`, `unknown-playback-id` or a deny reason. */
  readonly reason: string;
  readonly detail: string;
  readonly kid: string | null;
  readonly webhookStatus: number | null;
  readonly webhookLatencyMs: number | null;
  /** The verified token, to carry into playlist URIs. */
  readonly token: string | null;
  /** The claims of the verified token (JWT policy, allowed). */
  readonly claims: Readonly<Record<string, unknown>> | null;
}

/** Input of testPlaybackAccess. */
export interface TestAccessInput {
  readonly playbackId: string;
  readonly token?: string | null;
  readonly viewerIp?: string | null;
  readonly requestUrl?: string | null;
  /** false: report what a WEBHOOK policy would ask without calling it (reason `webhook-test-skipped`). */
  readonly fireWebhook?: boolean | null;
  /** The output the request would come through (hls, llhls, dash, mp4, webrtc; default `test`), as the webhook sees it. */
  readonly connector?: string | null;
  /** The viewer session id the webhook sees (default a new `test-…` id). */
  readonly sessionId?: string | null;
}

/** Longest connector and session id testPlaybackAccess accepts. */
const TEST_CONNECTOR_MAX_LENGTH = 32;
const TEST_SESSION_ID_MAX_LENGTH = 128;

/** `value` when it has at most `max` characters; ValidationError on `field` otherwise. */
function shortText(value: string, field: string, max: number): string {
  if (value.length > max) {
    throw new ValidationError(field, 'length', `${field} must be at most ${max} characters`);
  }
  return value;
}

/** What the service needs. */
export interface PlaybackAccessDeps {
  readonly policies: PlaybackPoliciesService;
  readonly signingKeys: SigningKeysService;
  readonly allowPrivateWebhooks: boolean;
  readonly resolveHost?: HostResolver;
  readonly now?: () => number;
}

const NONE = { kid: null, webhookStatus: null, webhookLatencyMs: null, token: null, claims: null } as const;

/** Decides playback access for media requests and for testPlaybackAccess. */
export class PlaybackAccessService {
  private readonly verifier: PlaybackJwtVerifier;
  private readonly decisions: WebhookDecisionCache;
  private readonly now: () => number;

  constructor(private readonly deps: PlaybackAccessDeps) {
    this.now = deps.now ?? Date.now;
    this.verifier = new PlaybackJwtVerifier(
      (tenantId, kid) => deps.signingKeys.verificationKey(tenantId, kid),
      this.now,
    );
    this.decisions = new WebhookDecisionCache(this.now);
    deps.policies.onChanged((change) => this.decisions.clear(change.playbackId));
    deps.signingKeys.onRevoked(() => this.verifier.forgetAll());
  }

  /** The decision for one media request (webhook outcomes cached per viewer session). */
  async decide(request: AccessRequest): Promise<AccessDecision> {
    const resolved = await this.deps.policies.resolve(request.playbackId);
    if (!resolved) {
      return { allowed: true, status: 200, policyType: 'PUBLIC', reason: 'unknown-playback-id', detail: '', ...NONE };
    }
    return this.evaluate(resolved, request, true);
  }

  /** The tenant owning a protected playback ID (undefined when it has no policy: it is public). */
  async ownerTenant(playbackId: string): Promise<string | undefined> {
    return (await this.deps.policies.resolve(playbackId))?.tenantId;
  }

  /** What the gate would decide for the caller's playback ID (security:read), without serving media. */
  async test(principal: Principal | null, input: TestAccessInput): Promise<AccessDecision> {
    const caller = requirePrincipal(principal, 'security:read');
    const playbackId = input.playbackId.trim();
    if (playbackId === '') {
      throw new ValidationError('input.playbackId', 'required', 'input.playbackId is required');
    }
    const resolved = await this.deps.policies.resolve(playbackId);
    if (!resolved || resolved.tenantId !== caller.tenantId) {
      throw new NotFoundError('PlaybackId', playbackId);
    }
    const request: AccessRequest = {
      playbackId,
      token: input.token ?? undefined,
      viewerIp: input.viewerIp ?? '0.0.0.0',
      requestUrl: input.requestUrl ?? `/play/${playbackId}/hls/index.m3u8`,
      protocol: shortText(input.connector ?? 'test', 'input.connector', TEST_CONNECTOR_MAX_LENGTH),
      sessionId: shortText(
        input.sessionId ?? `test-${this.now().toString(36)}`,
        'input.sessionId',
        TEST_SESSION_ID_MAX_LENGTH,
      ),
    };
    if (resolved.policy.type === 'WEBHOOK' && input.fireWebhook === false) {
      return {
        allowed: false,
        status: 403,
        policyType: 'WEBHOOK',
        reason: 'webhook-test-skipped',
        detail: `would POST to ${resolved.policy.webhook?.url ?? 'the webhook'}; fireWebhook is false`,
        ...NONE,
      };
    }
    return this.evaluate(resolved, request, false);
  }

  private async evaluate(resolved: ResolvedPolicy, request: AccessRequest, cached: boolean): Promise<AccessDecision> {
    const { policy } = resolved;
    if (policy.type === 'JWT') {
      const result = await this.verifier.verify(request.token, {
        playbackId: resolved.playbackId,
        tenantId: resolved.tenantId,
        allowedKids: policy.allowedKids,
      });
      if (!result.ok) {
        return {
          allowed: false,
          status: result.status,
          policyType: 'JWT',
          reason: result.reason,
          detail: result.message,
          ...NONE,
          kid: result.kid ?? null,
        };
      }
      this.deps.signingKeys.markUsed(result.keyId);
      return {
        allowed: true,
        status: 200,
        policyType: 'JWT',
        reason: 'jwt-valid',
        detail: `signed by ${result.kid}`,
        ...NONE,
        kid: result.kid,
        token: request.token ?? null,
        claims: result.claims,
      };
    }
    if (policy.type === 'WEBHOOK' && policy.webhook) {
      const target = policy.webhook;
      const call = (): Promise<WebhookOutcome> =>
        callPlaybackWebhook(
          target,
          {
            playbackId: resolved.playbackId,
            streamId: resolved.streamId,
            viewerIp: request.viewerIp,
            requestUrl: request.requestUrl,
            protocol: request.protocol,
            sessionId: request.sessionId,
            timestamp: new Date(this.now()).toISOString(),
          },
          {
            allowPrivate: this.deps.allowPrivateWebhooks,
            ...(this.deps.resolveHost ? { resolve: this.deps.resolveHost } : {}),
          },
        );
      const outcome = cached
        ? await this.decisions.decide(resolved.playbackId, request.sessionId, policy.version, call)
        : await call();
      return {
        allowed: outcome.allowed,
        status: outcome.allowed ? 200 : 403,
        policyType: 'WEBHOOK',
        reason: outcome.reason,
        detail: outcome.detail,
        ...NONE,
        webhookStatus: outcome.status,
        webhookLatencyMs: outcome.latencyMs,
      };
    }
    return { allowed: true, status: 200, policyType: 'PUBLIC', reason: 'public', detail: '', ...NONE };
  }
}
