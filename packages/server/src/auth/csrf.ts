/**
 * CSRF defence of the dashboard's cookie (docs/adr/0055-dashboard-auth-and-preview.md): besides
 * SameSite=Lax, a mutation authenticated by the session cookie must carry `X-Airwave-CSRF`, a
 * header a cross-site form cannot send and a cross-site script cannot send without a CORS
 * preflight the service never grants. Bearer-token callers are not affected.
 */
import type { FastifyInstance } from 'fastify';
import { GraphQLError, Kind } from 'graphql';
import { SESSION_COOKIE } from './authenticator.js';

/** The header (any non-empty value) the dashboard and playground send with every request. */
export const CSRF_HEADER = 'x-airwave-csrf';

/** The parts of a request the check reads. */
export interface CsrfRequest {
  readonly headers: { readonly authorization?: string | undefined; readonly [name: string]: unknown };
  readonly cookies?: { readonly [name: string]: string | undefined };
}

/** True when the request is authenticated by the session cookie and lacks the CSRF header. */
export function cookieWithoutCsrfHeader(request: CsrfRequest): boolean {
  const cookie = request.cookies?.[SESSION_COOKIE];
  const header = request.headers[CSRF_HEADER];
  return (
    request.headers.authorization === undefined &&
    typeof cookie === 'string' &&
    cookie.length > 0 &&
    (typeof header !== 'string' || header.length === 0)
  );
}

/** Registers the check on every GraphQL execution (after mercurius): FORBIDDEN for such mutations. */
export function csrfPlugin(app: FastifyInstance): void {
  app.graphql.addHook('preExecution', (_schema, document, context) => {
    const request = (context as { request?: CsrfRequest }).request;
    if (!request || !cookieWithoutCsrfHeader(request)) {
      return;
    }
    const mutation = document.definitions.some(
      (definition) => definition.kind === Kind.OPERATION_DEFINITION && definition.operation === 'mutation',
    );
    if (mutation) {
      throw new GraphQLError(`a mutation signed in by the session cookie needs the ${CSRF_HEADER} header`, {
        extensions: { code: 'FORBIDDEN' },
      });
    }
  });
}
