/**
 * GraphQL subscriptions over WebSocket at /graphql/ws, protocol graphql-transport-ws (the
 * `graphql-ws` package's server core on `@fastify/websocket`). The token comes in
 * `connectionParams.authToken` (or, for the dashboard, the session cookie of a same-origin upgrade);
 * a missing or bad one closes with 4401. Keep-alive pings find dead
 * clients, a client whose send buffer grows past a limit is closed with 4008, and connection
 * attempts per address, subscriptions per connection and connections per token are limited.
 */
import { createHash } from 'node:crypto';
import fastifyWebsocket from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  type DocumentNode,
  GraphQLError,
  type GraphQLSchema,
  getOperationAST,
  type OperationDefinitionNode,
  parse,
  specifiedRules,
  validate,
} from 'graphql';
import { handleProtocols, makeServer } from 'graphql-ws';
import type { WebSocket } from 'ws';
import type { Principal } from '../../auth/principal.js';
import { RateLimitedError, UnauthorizedError } from '../../domain/errors.js';
import type { EventFeed } from '../../events/event-feed.js';
import { QueueOverflowError } from '../../events/event-queue.js';
import { formatErrors } from '../../graphql/error-formatter.js';
import { depthLimitRule } from '../../graphql/limits/depth-limit.js';
import { type SubscriptionContext, subscriptionResolvers } from '../../graphql/modules/subscriptions.js';
import {
  CLOSE_GOING_AWAY,
  CLOSE_INTERNAL_ERROR,
  CLOSE_SLOW_CONSUMER,
  CLOSE_TOO_MANY_CONNECTIONS,
  CLOSE_TRY_AGAIN_LATER,
  CLOSE_UNAUTHORIZED,
} from './close-codes.js';
import { ConnectionCounter } from './connection-counter.js';
import { sameOriginCookieToken } from './cookie-token.js';
import { keepAlive } from './keep-alive.js';
import { sharedSubscribe } from './shared-execution.js';

/** Path of the subscription endpoint. */
export const GRAPHQL_WS_PATH = '/graphql/ws';

/** Limits and timings of the endpoint (all have generous defaults). */
export interface GraphQLWsLimits {
  /** Ping interval; a client that misses a pong until the next ping is dropped (default 12 s). */
  readonly keepAliveMs?: number;
  /** Bytes allowed to wait in a client's send buffer before it is closed with 4008 (default 4 MiB). */
  readonly maxBufferedBytes?: number;
  /** Active subscriptions per connection (default 100). */
  readonly maxSubscriptionsPerConnection?: number;
  /** Open connections per token or session (default 100). */
  readonly maxConnectionsPerToken?: number;
  /** Time allowed for connection_init after the upgrade (default 3 s). */
  readonly connectionInitTimeoutMs?: number;
  /** How often the token is checked again; an expired or revoked one closes with 4401 (default 60 s). */
  readonly reauthenticateMs?: number;
  /** Largest incoming message in bytes (default 64 KiB). */
  readonly maxMessageBytes?: number;
}

/** What the endpoint needs from the composition root. */
export interface GraphQLWsOptions extends GraphQLWsLimits {
  readonly feed: EventFeed;
  /** Verifies a session JWT or developer token; throws UnauthorizedError (or answers null) when bad. */
  readonly authenticateToken: (token: string) => Promise<Principal | null>;
  /** Counts one connection attempt of `key` (`ip:<address>`); throws RateLimitedError past the limit. */
  readonly rateLimit?: (key: string) => void;
}

type ConnectionParams = Record<string, unknown> & { readonly authToken?: unknown };

interface Extra {
  readonly socket: WebSocket;
  readonly request: FastifyRequest;
  principal?: Principal;
}

/** Registers /graphql/ws on `app` (after Mercurius, whose schema it serves). */
export function graphqlWsRoute(options: GraphQLWsOptions): (app: FastifyInstance) => Promise<void> {
  return async (app) => {
    const schema = app.graphql.schema;
    attachSubscriptionResolvers(schema);
    const maxBuffered = options.maxBufferedBytes ?? 4 * 1024 * 1024;
    const maxSubscriptions = options.maxSubscriptionsPerConnection ?? 100;
    const perToken = new ConnectionCounter(options.maxConnectionsPerToken ?? 100);
    const reauthenticateMs = options.reauthenticateMs ?? 60_000;

    await app.register(fastifyWebsocket, {
      options: { maxPayload: options.maxMessageBytes ?? 64 * 1024, handleProtocols },
      preClose(done) {
        for (const client of this.websocketServer.clients) {
          client.close(CLOSE_GOING_AWAY, 'server shutting down');
        }
        done();
      },
    });

    const server = makeServer<ConnectionParams | undefined, Extra>({
      schema,
      subscribe: sharedSubscribe(),
      connectionInitWaitTimeout: options.connectionInitTimeoutMs ?? 3000,
      onConnect: async (ctx) => {
        const { socket, request } = ctx.extra;
        try {
          options.rateLimit?.(`ip:${request.ip}`);
        } catch (error) {
          if (error instanceof RateLimitedError) {
            socket.close(CLOSE_TRY_AGAIN_LATER, error.message.slice(0, 120));
            return false;
          }
          throw error;
        }
        const token = ctx.connectionParams?.authToken ?? sameOriginCookieToken(request);
        if (typeof token !== 'string' || token.length === 0 || token.length > 4096) {
          socket.close(CLOSE_UNAUTHORIZED, 'Unauthorized: send connectionParams.authToken');
          return false;
        }
        const principal = await verify(options, token, request);
        if (principal === 'failed') {
          socket.close(CLOSE_INTERNAL_ERROR, 'Internal server error');
          return false;
        }
        if (!principal) {
          socket.close(CLOSE_UNAUTHORIZED, 'Unauthorized: invalid, expired or revoked token');
          return false;
        }
        if (socket.readyState !== socket.OPEN) {
          return false;
        }
        const release = perToken.acquire(connectionKey(principal, token));
        if (!release) {
          socket.close(CLOSE_TOO_MANY_CONNECTIONS, 'too many connections for this token');
          return false;
        }
        socket.once('close', release);
        ctx.extra.principal = principal;
        watchToken(options, token, socket, request, reauthenticateMs);
        return true;
      },
      onSubscribe: (ctx, _id, payload) => {
        if (Object.keys(ctx.subscriptions).length > maxSubscriptions) {
          return [
            new GraphQLError(`too many subscriptions on this connection (at most ${maxSubscriptions})`, {
              extensions: { code: 'RATE_LIMITED' },
            }),
          ];
        }
        const prepared = prepare(schema, payload.query, payload.operationName ?? undefined);
        if (Array.isArray(prepared)) {
          return prepared;
        }
        const contextValue: SubscriptionContext = { principal: ctx.extra.principal ?? null, feed: options.feed };
        return {
          schema,
          document: prepared,
          operationName: payload.operationName ?? null,
          variableValues: payload.variables ?? null,
          contextValue,
        };
      },
      onNext: (ctx, _id, _payload, _args, result) => {
        if (!result.errors || result.errors.length === 0) {
          return undefined;
        }
        const { request } = ctx.extra;
        return { data: result.data ?? null, errors: formatErrors(result.errors, request.id, request.log) };
      },
      onError: (ctx, _id, _payload, errors) => {
        const { request } = ctx.extra;
        return formatErrors(errors.map(slowSubscriberError), request.id, request.log);
      },
    });

    app.get(GRAPHQL_WS_PATH, { websocket: true }, (socket, request) => {
      const log = request.log;
      const stopKeepAlive = keepAlive(socket, options.keepAliveMs ?? 12_000, () =>
        log.info('subscription client missed a keep-alive pong; dropping it'),
      );
      let slow = false;
      const closed = server.opened(
        {
          protocol: socket.protocol,
          send: (data) => {
            if (socket.readyState !== socket.OPEN) {
              return;
            }
            socket.send(data);
            if (!slow && socket.bufferedAmount > maxBuffered) {
              slow = true;
              log.warn({ bufferedBytes: socket.bufferedAmount }, 'subscription client reads too slowly; closing');
              socket.close(CLOSE_SLOW_CONSUMER, `slow consumer: more than ${maxBuffered} bytes waiting`);
            }
          },
          close: (code, reason) => {
            socket.close(code, reason);
          },
          onMessage: (handle) => {
            socket.on('message', (data, isBinary) => {
              if (isBinary) {
                socket.close(4400, 'binary messages are not part of graphql-transport-ws');
                return;
              }
              handle(String(data)).catch((error: unknown) => {
                log.error({ err: error }, 'subscription message failed');
                socket.close(CLOSE_INTERNAL_ERROR, 'Internal server error');
              });
            });
          },
        },
        { socket, request },
      );
      socket.once('close', (code, reason) => {
        stopKeepAlive();
        closed(code, reason.toString()).catch((error: unknown) =>
          log.error({ err: error }, 'subscription cleanup failed'),
        );
      });
    });
  };
}

/** A subscription that fell too far behind ends with RATE_LIMITED rather than a masked INTERNAL. */
function slowSubscriberError(error: GraphQLError): GraphQLError {
  return error.originalError instanceof QueueOverflowError
    ? new GraphQLError(error.message, { extensions: { code: 'RATE_LIMITED' } })
    : error;
}

/** Installs subscribe/resolve of every Subscription field on the schema Mercurius built. */
function attachSubscriptionResolvers(schema: GraphQLSchema): void {
  const fields = schema.getSubscriptionType()?.getFields();
  if (!fields) {
    throw new Error('the schema has no Subscription type; register the subscriptions module');
  }
  for (const [name, resolver] of Object.entries(subscriptionResolvers)) {
    const field = fields[name];
    if (!field) {
      throw new Error(`the schema has no Subscription.${name}`);
    }
    field.subscribe = resolver.subscribe as typeof field.subscribe;
    field.resolve = resolver.resolve as typeof field.resolve;
  }
}

/** Parses and validates one subscription document; answers the errors to send otherwise. */
function prepare(
  schema: GraphQLSchema,
  query: string,
  operationName: string | undefined,
): DocumentNode | GraphQLError[] {
  let document: DocumentNode;
  try {
    document = parse(query, { maxTokens: 2000 });
  } catch (error) {
    return [
      error instanceof GraphQLError
        ? new GraphQLError(error.message, { extensions: { code: 'VALIDATION_ERROR' } })
        : new GraphQLError('invalid GraphQL document', { extensions: { code: 'VALIDATION_ERROR' } }),
    ];
  }
  const errors = validate(schema, document, [...specifiedRules, depthLimitRule()]);
  if (errors.length > 0) {
    return errors.map((e) => new GraphQLError(e.message, { nodes: e.nodes, extensions: { code: 'VALIDATION_ERROR' } }));
  }
  const operation: OperationDefinitionNode | null | undefined = getOperationAST(document, operationName);
  if (!operation) {
    return [new GraphQLError('unable to identify the operation', { extensions: { code: 'VALIDATION_ERROR' } })];
  }
  if (operation.operation !== 'subscription') {
    return [
      new GraphQLError(`only subscriptions are served here; send a ${operation.operation} to POST /graphql`, {
        extensions: { code: 'VALIDATION_ERROR' },
      }),
    ];
  }
  return document;
}

/** The caller of `token`; null when the token is bad, 'failed' when it could not be checked. */
async function verify(
  options: GraphQLWsOptions,
  token: string,
  request: FastifyRequest,
): Promise<Principal | null | 'failed'> {
  try {
    return await options.authenticateToken(token);
  } catch (error) {
    if (error instanceof UnauthorizedError) {
      return null;
    }
    request.log.error({ err: error }, 'subscription authentication failed');
    return 'failed';
  }
}

/** Checks the token again now and then; closes with 4401 when it expired or was revoked. */
function watchToken(
  options: GraphQLWsOptions,
  token: string,
  socket: WebSocket,
  request: FastifyRequest,
  intervalMs: number,
): void {
  if (!(intervalMs > 0)) {
    return;
  }
  const timer = setInterval(() => {
    verify(options, token, request)
      .then((principal) => {
        if (principal === null && socket.readyState === socket.OPEN) {
          socket.close(CLOSE_UNAUTHORIZED, 'Unauthorized: token expired or revoked');
        }
      })
      .catch(() => undefined);
  }, intervalMs);
  timer.unref();
  socket.once('close', () => clearInterval(timer));
}

/** What the per-token connection limit counts: the developer token, the session, or the token text. */
function connectionKey(principal: Principal, token: string): string {
  if (principal.tokenId) {
    return `token:${principal.tokenId}`;
  }
  if (principal.sessionId) {
    return `session:${principal.sessionId}`;
  }
  return `hash:${createHash('sha256').update(token).digest('hex')}`;
}
