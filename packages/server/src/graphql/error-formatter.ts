/**
 * Formats GraphQL errors per spec §7: `message`, `path`, `extensions.code`. Domain errors keep
 * their message and code; GraphQL validation errors are VALIDATION_ERROR; anything unexpected
 * is masked as INTERNAL and logged with the request id.
 */

import type { FastifyBaseLogger } from 'fastify';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { DomainError, ForbiddenError, NotFoundError, RateLimitedError, ValidationError } from '../domain/errors.js';

/** Shape of the client errors Fastify and Mercurius throw (parse, validation, method, body). */
interface ClientFailure extends Error {
  readonly code?: string;
  readonly statusCode?: number;
  readonly errors?: unknown;
}

function isClientFailure(error: Error | undefined): error is ClientFailure {
  const status = (error as ClientFailure | undefined)?.statusCode;
  return typeof status === 'number' && status >= 400 && status < 500;
}

const CLEARER_MESSAGES: Readonly<Record<string, string>> = {
  MER_ERR_METHOD_NOT_ALLOWED: 'mutations must be sent with POST; GET /graphql runs queries only',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'send the request as Content-Type: application/json',
  MER_ERR_GQL_PERSISTED_QUERY_NOT_FOUND: 'the request has no query: send {"query": "<GraphQL document>"}',
};

/** What a GraphQL request body looks like, for the schema errors of a wrongly shaped one ("body must be object"). */
const BODY_SHAPE = 'the request body must be a JSON object: {"query": "<GraphQL document>", "variables": {…}}';

/**
 * Unwraps Mercurius' container errors (a validation failure carries the GraphQL validation or
 * syntax errors in `errors`) into one error each; `client` marks client mistakes.
 */
function expand(error: GraphQLError): { error: GraphQLError; client: boolean }[] {
  const original = error.originalError as ClientFailure | undefined;
  if (!isClientFailure(original)) {
    return [{ error, client: false }];
  }
  const clearer = original.code ? CLEARER_MESSAGES[original.code] : undefined;
  const nested = Array.isArray(original.errors) ? (original.errors as unknown[]) : [];
  if (clearer || nested.length === 0) {
    return [{ error: new GraphQLError(clearer ?? original.message, { originalError: original }), client: true }];
  }
  return nested.map((item) => {
    if (item instanceof GraphQLError) {
      return { error: item, client: true };
    }
    const message = item instanceof Error ? item.message : String(item);
    const ofBody = (item as { validationContext?: unknown } | null)?.validationContext === 'body';
    return { error: new GraphQLError(ofBody ? `${BODY_SHAPE} (${message})` : message), client: true };
  });
}

/** Builds the extensions of one error, or undefined to mask it. */
function extensionsOf(error: GraphQLError, client: boolean): Record<string, unknown> | undefined {
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
  if (client || !original || original instanceof GraphQLError) {
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
  return errors.flatMap(expand).map(({ error, client }) => {
    const extensions = extensionsOf(error, client);
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
