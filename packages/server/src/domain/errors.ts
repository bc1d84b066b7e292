/**
 * Domain errors. Services throw these; the GraphQL layer turns them into typed union members
 * for mutations and into `errors[].extensions.code` for queries. Anything else is masked as
 * INTERNAL and logged with the request id.
 */

/** Top-level error codes (spec §7, plus RATE_LIMITED and the masked INTERNAL). */
export type ErrorCode = 'UNAUTHORIZED' | 'FORBIDDEN' | 'NOT_FOUND' | 'VALIDATION_ERROR' | 'RATE_LIMITED' | 'INTERNAL';

/** Base of every expected failure. */
export abstract class DomainError extends Error {
  abstract readonly code: ErrorCode;
}

/** Token missing, invalid or expired. */
export class UnauthorizedError extends DomainError {
  override readonly name = 'UnauthorizedError';
  readonly code = 'UNAUTHORIZED' as const;
  constructor(message = 'authentication required: send Authorization: Bearer <token>') {
    super(message);
  }
}

/** Authenticated, but the token lacks the scope. */
export class ForbiddenError extends DomainError {
  override readonly name = 'ForbiddenError';
  readonly code = 'FORBIDDEN' as const;
  constructor(
    message: string,
    readonly requiredScope?: string,
  ) {
    super(message);
  }
}

/** The resource does not exist for this tenant (another tenant's IDs answer this too). */
export class NotFoundError extends DomainError {
  override readonly name = 'NotFoundError';
  readonly code = 'NOT_FOUND' as const;
  constructor(
    readonly resourceType: string,
    readonly resourceId: string,
  ) {
    super(`${resourceType} ${resourceId} not found`);
  }
}

/** An input field is invalid. */
export class ValidationError extends DomainError {
  override readonly name = 'ValidationError';
  readonly code = 'VALIDATION_ERROR' as const;
  constructor(
    readonly field: string,
    readonly constraint: string,
    message: string,
  ) {
    super(message);
  }
}

/** Too many attempts; retry after `retryAfterSeconds`. */
export class RateLimitedError extends DomainError {
  override readonly name = 'RateLimitedError';
  readonly code = 'RATE_LIMITED' as const;
  constructor(
    readonly retryAfterSeconds: number,
    message = `too many requests; retry after ${retryAfterSeconds} s`,
  ) {
    super(message);
  }
}
