/**
 * Registers the playback plane (play-handler.ts) on a Fastify app: ahead of Fastify on the app's
 * node HTTP server, so `/play/` requests skip Fastify's per-request machinery, and as Fastify
 * routes that hand over to the same handler, for requests Fastify receives itself
 * (`app.inject`, servers Fastify adds when it listens on several addresses).
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { createPlayHandler, type PlayHandler, type PlayRoutesDeps } from './play-handler.js';

export {
  MAX_PLAYBACK_ID_LENGTH,
  type PlayRoutesDeps,
  type PlayService,
  type TsHlsPlayService,
} from './play-handler.js';

/** The paths Fastify routed to the playback plane before it ran ahead of Fastify. */
const ROUTES = ['/play/:id', '/play/:id/hls/*', '/play/:id/cmaf/*', '/play/:id/*'] as const;

/** Registers the `/play` routes on an app. */
export function registerPlayRoutes(app: FastifyInstance, deps: PlayRoutesDeps): void {
  const handler = createPlayHandler(deps, app.log);
  const handOver = (request: { raw: IncomingMessage }, reply: { raw: ServerResponse; hijack(): void }): void => {
    reply.hijack();
    handler(request.raw, reply.raw);
  };
  app.route({ method: 'OPTIONS', url: '/play/*', handler: handOver });
  for (const url of ROUTES) {
    app.route({ method: ['GET', 'HEAD'], url, handler: handOver });
  }
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  runAhead(app.server, (req, res) => !closing && handler(req, res));
}

/** Makes `handler` see every request of `server` first; what it declines goes on to the listeners before it. */
function runAhead(server: Server, handler: PlayHandler): void {
  const others = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (handler(req, res)) {
      return;
    }
    for (const listener of others) {
      listener.call(server, req, res);
    }
  });
}
