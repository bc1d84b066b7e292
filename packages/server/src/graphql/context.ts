/**
 * The per-request GraphQL context: request id, caller, services, logger.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../auth/principal.js';
import type { Services } from './services.js';

/** What every resolver receives as its context. */
export interface GraphQLContext {
  readonly requestId: string;
  readonly principal: Principal | null;
  readonly services: Services;
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  /** Client IP as the server sees it. */
  readonly ip: string;
}

declare module 'mercurius' {
  /** Resolvers receive the Airwave context. */
  interface MercuriusContext extends GraphQLContext {}
}
