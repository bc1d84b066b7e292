/**
 * Playback policy records (spec §2 "Playback policy", §5 "Viewer-side playback access"): PUBLIC
 * (the default when a stream has none), JWT (ES256 tokens of the tenant's signing keys) or
 * WEBHOOK (an HMAC-signed POST decides).
 */

/** Kinds of policy. */
export type PlaybackPolicyType = 'PUBLIC' | 'JWT' | 'WEBHOOK';

/** Webhook settings as stored (the secret never leaves the service). */
export interface WebhookSettings {
  readonly url: string;
  readonly secret: string;
  readonly timeoutMs: number;
}

/** A stream's policy. */
export interface PlaybackPolicy {
  readonly type: PlaybackPolicyType;
  /** JWT: kids accepted; empty accepts any active key of the tenant. */
  readonly allowedKids: readonly string[];
  /** WEBHOOK only. */
  readonly webhook: WebhookSettings | undefined;
  /** Increases on every change; cached decisions of older versions are void. */
  readonly version: number;
}

/** The policy that applies to a playback ID, with the stream it names. */
export interface ResolvedPolicy {
  readonly streamId: string;
  readonly tenantId: string;
  readonly playbackId: string;
  readonly policy: PlaybackPolicy;
}

/** Input of setPlaybackPolicy's `policy`. */
export interface PlaybackPolicyInput {
  readonly type: PlaybackPolicyType;
  readonly jwt?: { readonly allowedKids?: readonly string[] | null } | null;
  readonly webhook?: {
    readonly url?: string | null;
    /** Omitted on an update of a WEBHOOK policy: the stored secret is kept. */
    readonly secret?: string | null;
    readonly timeoutMs?: number | null;
  } | null;
}

/** The policy of a stream with no row. */
export const PUBLIC_POLICY: PlaybackPolicy = { type: 'PUBLIC', allowedKids: [], webhook: undefined, version: 0 };
