/**
 * The origin's end of the Airwave relay (docs/relay-protocol.md): `GET /internal/relay/<streamId>`
 * with `Authorization: Bearer <relay token>` answers a live stream of this node as relay frames
 * (chunked) until the stream ends or the edge goes away. 401 without a valid token for that
 * stream, 404 when the stream is not live here.
 */
import type { Hub } from '@airwave/media';
import { relayStream } from '@airwave/media/protocols/relay/from-stream';
import { RELAY_CONTENT_TYPE } from '@airwave/media/protocols/relay/relay-wire';
import type { FastifyInstance } from 'fastify';
import { bearerToken } from '../../auth/authenticator.js';
import { verifyRelayToken } from '../../auth/relay-token.js';
import { isUuid } from '../../domain/ids.js';

/** What the route needs. */
export interface RelayRouteOptions {
  readonly hub: Hub;
  /** The deployment's relay key. */
  readonly key: string;
  /** Counts relays served to edges (metrics). */
  readonly onServing?: (delta: 1 | -1) => void;
}

/** Registers the relay route. */
export function relayRoutes(options: RelayRouteOptions): (app: FastifyInstance) => void {
  return (app) => {
    app.get<{ Params: { streamId: string } }>('/internal/relay/:streamId', async (request, reply) => {
      const { streamId } = request.params;
      const token = bearerToken(request.headers.authorization);
      const edge = isUuid(streamId) && token ? verifyRelayToken(options.key, streamId, token) : undefined;
      if (!edge) {
        return reply
          .status(401)
          .send({ error: { reason: 'relay_token_invalid', message: 'a relay token for this stream is required' } });
      }
      const stream = options.hub.getByStreamId(streamId);
      if (!stream || stream.endReason !== undefined) {
        return reply
          .status(404)
          .send({ error: { reason: 'stream_not_here', message: `stream ${streamId} is not live on this node` } });
      }
      reply.hijack();
      const res = reply.raw;
      request.raw.socket.setTimeout(0);
      request.raw.socket.setNoDelay(true);
      res.writeHead(200, { 'content-type': RELAY_CONTENT_TYPE, 'cache-control': 'no-store' });
      request.log.info({ streamId, edge }, 'relaying a stream to an edge');
      options.onServing?.(1);
      const source = relayStream(stream, {
        write: (chunk) => {
          res.write(chunk);
        },
        get pending() {
          return res.writableLength;
        },
        end: () => res.end(),
      });
      res.once('close', () => {
        source.stop();
        options.onServing?.(-1);
        request.log.info({ streamId, edge, skipped: source.skipped }, 'relay to an edge ended');
      });
    });
  };
}
