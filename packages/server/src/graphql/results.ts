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
import type {
  AuthError as AuthErrorType,
  NotFoundError as NotFoundErrorType,
  RateLimitError as RateLimitErrorType,
  ValidationError as ValidationErrorType,
} from './generated/resolvers-types.js';

/** A union member tagged with its GraphQL type name. */
export type Tagged<T, Name extends string = string> = T & { readonly __typename: Name };

/** An expected failure as the union member that reports it. */
export type ErrorMember =
  | Tagged<ValidationErrorType, 'ValidationError'>
  | Tagged<AuthErrorType, 'AuthError'>
  | Tagged<NotFoundErrorType, 'NotFoundError'>
  | Tagged<RateLimitErrorType, 'RateLimitError'>;

/** GraphQL type name of an error member. */
export type ErrorTypename = ErrorMember['__typename'];

/** Converts an expected domain error into its union member, or rethrows anything else. */
export function errorMember(error: unknown): ErrorMember {
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

function isMemberOf<E extends ErrorTypename>(
  member: ErrorMember,
  errors: readonly E[],
): member is Extract<ErrorMember, { __typename: E }> {
  return (errors as readonly ErrorTypename[]).includes(member.__typename);
}

/**
 * Runs a mutation and returns its success value tagged `typename`, or the member of an expected
 * error that the result union lists in `errors`; an error the union cannot carry is thrown (a
 * top-level error with its code) instead of resolving to a type the union does not have.
 */
export async function unionResult<Name extends string, T extends object, E extends ErrorTypename>(
  typename: Name,
  errors: readonly E[],
  run: () => Promise<T>,
): Promise<Tagged<T, Name> | Extract<ErrorMember, { __typename: E }>> {
  try {
    const value = await run();
    return { ...value, __typename: typename };
  } catch (error) {
    const member = errorMember(error);
    if (!isMemberOf(member, errors)) {
      throw error;
    }
    return member;
  }
}
