/**
 * The dashboard's only way to the API: POST /graphql on the same origin with the httpOnly session
 * cookie (credentials: 'same-origin') and the CSRF header the service requires of cookie mutations.
 */
import type { TypedDocumentString } from '../generated/graphql';

/** Header the service requires on cookie-authenticated mutations (docs/adr/0055-dashboard-auth-and-preview.md). */
export const CSRF_HEADER = 'x-airwave-csrf';

/** A top-level GraphQL error (UNAUTHORIZED, FORBIDDEN, NOT_FOUND, VALIDATION_ERROR, …) or a network failure. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** Listeners told when the API answers UNAUTHORIZED (the session ended). */
const unauthorizedListeners = new Set<() => void>();

/** Calls `listener` whenever a request comes back UNAUTHORIZED; returns the unsubscribe. */
export function onUnauthorized(listener: () => void): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

interface GraphQLResponse<T> {
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

/** Runs one typed operation; throws ApiError for top-level errors. */
export async function request<TResult, TVariables>(
  document: TypedDocumentString<TResult, TVariables>,
  ...[variables]: TVariables extends Record<string, never> ? [] : [TVariables]
): Promise<TResult> {
  let response: Response;
  try {
    response = await fetch('/graphql', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', [CSRF_HEADER]: '1' },
      body: JSON.stringify({ query: document.toString(), variables: variables ?? {} }),
    });
  } catch {
    throw new ApiError('The service cannot be reached. Check your connection and try again.', 'NETWORK');
  }
  let body: GraphQLResponse<TResult>;
  try {
    body = (await response.json()) as GraphQLResponse<TResult>;
  } catch {
    throw new ApiError(`The service answered ${response.status} without JSON.`, 'INTERNAL');
  }
  const first = body.errors?.[0];
  if (first) {
    const code = first.extensions?.code ?? 'INTERNAL';
    if (code === 'UNAUTHORIZED') {
      for (const listener of unauthorizedListeners) {
        listener();
      }
    }
    throw new ApiError(first.message, code);
  }
  if (!body.data) {
    throw new ApiError('The service answered without data.', 'INTERNAL');
  }
  return body.data;
}
