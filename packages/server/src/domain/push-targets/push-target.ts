/** The records of push targets (frameworks.md §1.3) and the statuses of ADR 0035. */

/** Platforms a target may name (`custom` for anything else). */
export const PUSH_PLATFORMS = ['twitch', 'youtube', 'facebook', 'kick', 'x', 'custom'] as const;
/** One of PUSH_PLATFORMS. */
export type PushPlatform = (typeof PUSH_PLATFORMS)[number];

/**
 * idle: not pushing (stream offline, target disabled, or a clean end); connecting: the first
 * attempt of a push is under way; pushing: media flows; retrying: the last attempt failed and the
 * next one is scheduled; failed: several consecutive attempts failed (retries go on, backed off).
 */
export type PushStatus = 'idle' | 'connecting' | 'pushing' | 'retrying' | 'failed';

/** A push target as its owner reads it (the URI masked). */
export interface PushTargetRecord {
  readonly id: string;
  readonly tenantId: string;
  readonly streamId: string;
  readonly platform: string;
  readonly name: string;
  /** The masked URI: no credentials, query or fragment, the key segment partly redacted. */
  readonly targetUri: string;
  readonly isEnabled: boolean;
  readonly status: PushStatus;
  readonly lastError: string | null;
  readonly lastPushedAt: Date | null;
  readonly bytesSent: number;
  readonly bitrateBps: number;
  readonly droppedUnits: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** What a node needs to push one target: its ID and its URI in the clear. */
export interface PushTargetSecret {
  readonly id: string;
  readonly streamId: string;
  readonly targetUri: string;
}

/** A state report of the node pushing a target. */
export interface PushStateReport {
  readonly status: PushStatus;
  readonly lastError: string | null;
  readonly lastPushedAt: Date | null;
  readonly bytesSent: number;
  readonly bitrateBps: number;
  readonly droppedUnits: number;
}

/** The counters of one target a node pushes, written for many targets at once. */
export interface PushCountersReport {
  readonly id: string;
  readonly lastPushedAt: Date | null;
  readonly bytesSent: number;
  readonly bitrateBps: number;
  readonly droppedUnits: number;
}

/** The node flag that allows private push targets. */
export const PRIVATE_PUSH_SETTING = 'AIRWAVE_ALLOW_PRIVATE_PUSH_TARGETS';
