/**
 * The `authenticate` hook of the HTTP app: verifies the caller, clears a session cookie that no
 * longer works, and applies the per-caller request rate limit.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { UnauthorizedError } from '../domain/errors.js';
import type { Authenticator } from './authenticator.js';
import type { Principal } from './principal.js';
import type { RequestRateLimiter } from './request-rate-limiter.js';
import type { SessionCookie } from './session-cookie.js';

/** Builds the function the HTTP app calls once per GraphQL request. */
export function requestAuthenticator(
  authenticator: Authenticator,
  limiter: RequestRateLimiter,
  cookie: SessionCookie,
): (request: FastifyRequest, reply: FastifyReply) => Promise<Principal | null> {
  return async (request, reply) => {
    let principal: Principal | null;
    try {
      ({ principal } = await authenticator.authenticate(request));
    } catch (error) {
      if (error instanceof UnauthorizedError && request.headers.authorization === undefined) {
        cookie.clear(reply);
      }
      // Failed credentials count against the client IP, which bounds guessing and lookups.
      limiter.take(`ip:${request.ip}`);
      throw error;
    }
    const id = principal?.tokenId ?? principal?.sessionId ?? principal?.userId;
    limiter.take(principal ? `${principal.kind}:${id}` : `ip:${request.ip}`);
    return principal;
  };
}
