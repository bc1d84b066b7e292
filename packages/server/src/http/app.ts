/**
 * The Fastify application: GraphQL at /graphql (POST and GET), the playground, and whatever
 * route plugins the composition root registers (playback, WebSocket subscriptions, …).
 */
import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import { GraphQLError, type ValidationRule } from 'graphql';
import mercurius from 'mercurius';
import { redactToken } from '../auth/playback-gate/playback-gate.js';
import type { Principal } from '../auth/principal.js';
import { DomainError, RateLimitedError } from '../domain/errors.js';
import type { GraphQLContext } from '../graphql/context.js';
import { formatErrors } from '../graphql/error-formatter.js';
import { depthLimitRule } from '../graphql/limits/depth-limit.js';
import type { GraphQLModule } from '../graphql/module.js';
import { buildResolvers, buildTypeDefs, modules as defaultModules } from '../graphql/schema.js';
import type { Services } from '../graphql/services.js';

/** Largest request body accepted (bytes). */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** HTTP status of a request that failed before execution: the client error's own 4xx, else 400. */
function clientStatus(error: { originalError?: unknown } | undefined): number {
  const status = (error?.originalError as { statusCode?: unknown } | undefined)?.statusCode;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : 400;
}

/** What the HTTP app needs from the composition root. */
export interface AppOptions {
  readonly services: Services;
  /**
   * Resolves the caller from a request (bearer token or cookie); null when anonymous. A
   * DomainError it throws (UNAUTHORIZED, RATE_LIMITED) answers the request as a GraphQL error.
   */
  readonly authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<Principal | null>;
  readonly logLevel?: string;
  readonly modules?: readonly GraphQLModule[];
  /** Extra GraphQL validation rules (cost limit, …), after the depth limit. */
  readonly validationRules?: readonly ValidationRule[];
  /** Route plugins registered after GraphQL. */
  readonly plugins?: readonly ((app: FastifyInstance) => Promise<void> | void)[];
}

/** Builds (but does not start) the HTTP application. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: options.logLevel ?? 'info',
      // Playback tokens (`?jwt=`) are bearer credentials: never write them to logs.
      serializers: {
        req: (request: FastifyRequest) => ({
          method: request.method,
          url: redactToken(request.url),
          host: request.host,
          remoteAddress: request.ip,
        }),
      },
    },
    // Media requests (playlists, parts, segments) are too many to log one by one; failures still log.
    logController: new LogController({ disableRequestLogging: (request) => request.url.startsWith('/play/') }),
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    trustProxy: false,
    forceCloseConnections: true,
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
    }
    const code =
      error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
        ? 'VALIDATION_ERROR'
        : status >= 500
          ? 'INTERNAL'
          : 'VALIDATION_ERROR';
    const message =
      error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
        ? `request body is larger than ${BODY_LIMIT_BYTES} bytes`
        : status >= 500
          ? `Internal server error (request id ${request.id})`
          : error.message;
    void reply.status(status).send({ data: null, errors: [{ message, extensions: { code, requestId: request.id } }] });
  });
  await app.register(fastifyCookie);
  const principals = new WeakMap<FastifyRequest, Principal | null>();
  app.addHook('preHandler', async (request, reply) => {
    if (request.routeOptions.url !== '/graphql') {
      return;
    }
    try {
      principals.set(request, await options.authenticate(request, reply));
    } catch (error) {
      if (!(error instanceof DomainError)) {
        throw error;
      }
      const errors = formatErrors([new GraphQLError(error.message, { originalError: error })], request.id, request.log);
      if (error instanceof RateLimitedError) {
        void reply.header('retry-after', String(error.retryAfterSeconds));
      }
      return reply.status(error instanceof RateLimitedError ? 429 : 200).send({ data: null, errors });
    }
  });
  const modules = options.modules ?? defaultModules;
  await app.register(mercurius, {
    schema: buildTypeDefs(modules),
    resolvers: buildResolvers(modules),
    path: '/graphql',
    graphiql: false,
    jit: 1,
    validationRules: [depthLimitRule(), ...(options.validationRules ?? [])],
    context: async (request, reply): Promise<GraphQLContext> => ({
      requestId: request.id,
      principal: principals.get(request) ?? null,
      services: options.services,
      request,
      reply,
      ip: request.ip,
    }),
    errorFormatter: (execution, context) => {
      const requestId =
        (context as unknown as { reply?: { request?: { id?: string } } }).reply?.request?.id ?? 'unknown';
      const errors = formatErrors((execution.errors ?? []) as GraphQLError[], requestId, app.log);
      const unauthorized = errors.some((e) => e.extensions.code === 'UNAUTHORIZED');
      return {
        statusCode: execution.data === undefined && !unauthorized ? clientStatus(execution.errors?.[0]) : 200,
        response: { data: execution.data ?? null, errors },
      };
    },
  });
  for (const plugin of options.plugins ?? []) {
    await plugin(app);
  }
  return app;
}
