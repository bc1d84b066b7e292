/**
 * Formats GraphQL errors per spec §7: `message`, `path`, `extensions.code`. Domain errors keep
 * their message and code; GraphQL validation errors are VALIDATION_ERROR; anything unexpected
 * is masked as INTERNAL and logged with the request id.
 */

import type { FastifyBaseLogger } from 'fastify';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { DomainError, ForbiddenError, NotFoundError, RateLimitedError, ValidationError } from '../domain/errors.js';

/** Builds the extensions of one error, or undefined to mask it. */
function extensionsOf(error: GraphQLError): Record<string, unknown> | undefined {
  const original = error.originalError;
  if (original instanceof DomainError) {
    const ext: Record<string, unknown> = { code: original.code };
    if (original instanceof ValidationError) {
      ext.field = original.field;
      ext.constraint = original.constraint;
    }
    if (original instanceof NotFoundError) {
      ext.resourceType = original.resourceType;
    }
    if (original instanceof ForbiddenError && original.requiredScope) {
      ext.requiredScope = original.requiredScope;
    }
    if (original instanceof RateLimitedError) {
      ext.retryAfter = original.retryAfterSeconds;
    }
    return ext;
  }
  const code = error.extensions?.code;
  if (
    typeof code === 'string' &&
    ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND', 'VALIDATION_ERROR', 'RATE_LIMITED'].includes(code)
  ) {
    return { ...error.extensions };
  }
  if (!original || original instanceof GraphQLError) {
    return { code: 'VALIDATION_ERROR' };
  }
  return undefined;
}

/** Formats every error of a result; returns the errors as JSON-ready objects. */
export function formatErrors(
  errors: readonly GraphQLError[],
  requestId: string,
  log: FastifyBaseLogger,
): (GraphQLFormattedError & { extensions: Record<string, unknown> })[] {
  return errors.map((error) => {
    const extensions = extensionsOf(error);
    if (!extensions) {
      log.error({ err: error.originalError ?? error, requestId, path: error.path }, 'unexpected GraphQL error');
      return {
        message: `Internal server error (request id ${requestId})`,
        ...(error.path ? { path: error.path } : {}),
        extensions: { code: 'INTERNAL', requestId },
      };
    }
    return {
      message: error.message,
      ...(error.path ? { path: error.path } : {}),
      ...(error.locations ? { locations: error.locations } : {}),
      extensions,
    };
  });
}
