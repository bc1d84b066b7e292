/**
 * Maps domain errors to typed union members of mutation results (DESIGN §5).
 */
import {
  DomainError,
  ForbiddenError,
  NotFoundError,
  RateLimitedError,
  UnauthorizedError,
  ValidationError,
} from '../domain/errors.js';

/** A union member tagged with its GraphQL type name. */
export type Tagged<T> = T & { readonly __typename: string };

/** Converts an expected domain error into its union member, or rethrows anything else. */
export function errorMember(error: unknown): Tagged<Record<string, unknown>> {
  if (error instanceof ValidationError) {
    return {
      __typename: 'ValidationError',
      message: error.message,
      code: error.code,
      field: error.field,
      constraint: error.constraint,
    };
  }
  if (error instanceof UnauthorizedError || error instanceof ForbiddenError) {
    return { __typename: 'AuthError', message: error.message, code: error.code };
  }
  if (error instanceof NotFoundError) {
    return {
      __typename: 'NotFoundError',
      message: error.message,
      code: error.code,
      resourceType: error.resourceType,
      resourceId: error.resourceId,
    };
  }
  if (error instanceof RateLimitedError) {
    return {
      __typename: 'RateLimitError',
      message: error.message,
      code: error.code,
      retryAfter: error.retryAfterSeconds,
    };
  }
  if (error instanceof DomainError) {
    return { __typename: 'ValidationError', message: error.message, code: error.code, field: null, constraint: null };
  }
  throw error;
}

/** Runs a mutation and returns its success value tagged `typename`, or the error's member. */
export async function unionResult<T extends object>(
  typename: string,
  run: () => Promise<T>,
): Promise<Tagged<T> | Tagged<Record<string, unknown>>> {
  try {
    const value = await run();
    return { ...value, __typename: typename };
  } catch (error) {
    return errorMember(error);
  }
}
