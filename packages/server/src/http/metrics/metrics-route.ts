/**
 * `GET /metrics` in the Prometheus text exposition format, behind `Authorization: Bearer
 * <AIRWAVE_METRICS_TOKEN>` when one is configured (compared in constant time), and the hook that
 * records the duration of every `/graphql` request into the node's metrics. `GET /healthz` answers 200
 * with the node id while the process serves (the health endpoint of media-only nodes).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { bearerToken } from '../../auth/authenticator.js';
import type { NodeMetrics } from '../../metrics/metrics.js';

/** What the routes need. */
export interface MetricsRouteOptions {
  readonly metrics: NodeMetrics;
  /** Required bearer token; undefined: open. */
  readonly token: string | undefined;
  readonly nodeId: string;
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** The hook that times `/graphql` requests (register it before the routes). */
export function graphqlTiming(metrics: NodeMetrics): (app: FastifyInstance) => void {
  return (app) => {
    app.addHook('onResponse', async (request, reply) => {
      if (request.routeOptions.url === '/graphql') {
        metrics.graphqlRequest(reply.elapsedTime / 1000, reply.statusCode < 300);
      }
    });
  };
}

/** Registers `/metrics` and `/healthz`. */
export function metricsRoutes(options: MetricsRouteOptions): (app: FastifyInstance) => void {
  const expected = options.token === undefined ? undefined : digest(options.token);
  return (app) => {
    app.get('/metrics', async (request, reply) => {
      if (expected) {
        const given = bearerToken(request.headers.authorization);
        if (given === undefined || !timingSafeEqual(digest(given), expected)) {
          return reply
            .status(401)
            .header('www-authenticate', 'Bearer realm="metrics"')
            .send({
              error: { reason: 'metrics_token_required', message: 'send Authorization: Bearer <metrics token>' },
            });
        }
      }
      const { contentType, body } = await options.metrics.scrape();
      return reply.header('content-type', contentType).header('cache-control', 'no-store').send(body);
    });
    app.get('/healthz', async (_request, reply) =>
      reply.header('cache-control', 'no-store').send({ status: 'ok', nodeId: options.nodeId }),
    );
  };
}
