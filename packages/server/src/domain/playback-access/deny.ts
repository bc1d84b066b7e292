/**
 * Outcomes of a playback access check: machine-readable deny reasons (401: no or invalid
 * token; 403: a valid token or a webhook that does not allow this playback).
 */

/** A refusal with its HTTP status, reason and human message. */
export interface AccessDenial {
  readonly ok: false;
  readonly status: 401 | 403;
  /** e.g. `missing-token`, `jwt-expired`, `webhook-deny-403`, `webhook-timeout`. */
  readonly reason: string;
  readonly message: string;
}

/** Builds a denial. */
export function deny(status: 401 | 403, reason: string, message: string): AccessDenial {
  return { ok: false, status, reason, message };
}
