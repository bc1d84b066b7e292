/** The records of pulling: the pull's state as the pulling node reports it, and attempt events. */

/** Phases of a pull (a media-plane PullSession's). */
export type PullPhase = 'CONNECTING' | 'PULLING' | 'RETRYING' | 'STOPPED';

/** A pull's state, from the node that holds it. */
export interface PullStatusRecord {
  readonly phase: PullPhase;
  readonly nodeId: string;
  readonly attempt: number;
  /** Consecutive failed attempts. */
  readonly failures: number;
  readonly nextAttemptAt: Date | null;
  /** What ended the last attempt (credentials redacted). */
  readonly lastError: string | null;
  readonly updatedAt: Date;
}

/** One connection attempt's outcome (or an enable/disable). */
export interface PullSourceEventRecord {
  readonly id: number;
  /** connected, failed, stalled, source_ended, not_found, private_not_allowed, blocked_uri, redirected, enabled, disabled. */
  readonly eventKind: string;
  readonly attempt: number;
  readonly message: string;
  /** The address dialled, when the attempt got that far. */
  readonly address: string | null;
  readonly nodeId: string;
  readonly createdAt: Date;
}

/** A stream a node may pull, as the scheduler sees it. */
export interface PullCandidate {
  readonly streamId: string;
  readonly tenantId: string;
  readonly playbackId: string;
  readonly sourceUri: string;
  readonly sourceClass: 'public' | 'private';
  readonly enabled: boolean;
  readonly onDemand: boolean;
}
