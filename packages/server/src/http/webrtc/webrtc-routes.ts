/**
 * HTTP routes of WHIP (RFC 9725) and WHEP (draft-ietf-wish-whep): `POST /webrtc/<streamKey>` and
 * `POST /whip` (Authorization: Bearer <streamKey>, OBS's convention) publish; `POST
 * /play/<playbackId>/webrtc` and its alias `POST /whep/<playbackId>` play, through the playback
 * gate like every other output; `PATCH` (trickle ICE) and `DELETE` on the session URLs the
 * `Location` header names; `OPTIONS` answers CORS preflights of browser clients.
 */
import type { SessionKind, WebRtcResponse, WebRtcService } from '@airwave/media/protocols/webrtc/webrtc-service';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearerToken } from '../../auth/authenticator.js';
import type { PlaybackGate } from '../play/playback-gate.js';
import type { PlaybackSessionSink } from '../play/session-sink.js';

/** Largest SDP or trickle fragment accepted. */
const MAX_BODY_BYTES = 64 * 1024;

/** Headers on every WHIP/WHEP answer: browsers publish and play from other origins. */
const CORS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'Location, Link, Accept-Patch, ETag, Retry-After, WWW-Authenticate',
};

const PREFLIGHT = {
  ...CORS,
  'access-control-allow-methods': 'POST, PATCH, DELETE, OPTIONS',
  'access-control-allow-headers': 'Authorization, Content-Type, If-Match',
  'access-control-max-age': '86400',
};

/** What the routes need. */
export interface WebRtcRoutesDeps {
  readonly service: WebRtcService;
  /** Playback access control for WHEP; without it every playback id is public. */
  readonly gate?: PlaybackGate;
  /** `Link` headers (ICE servers) added to OPTIONS answers. */
  readonly iceServerLinks?: readonly string[];
  /** Makes a playback id not live here live (on-demand pull, edge relay) before a WHEP offer is answered. */
  readonly bringHere?: (playbackId: string) => Promise<void>;
  /** Told the bytes sent to every WHEP viewer (viewer analytics, as the `/play` routes tell theirs). */
  readonly sessions?: PlaybackSessionSink;
  /** The viewer's address (behind trusted proxies); default Fastify's `request.ip`. */
  readonly clientIp?: (req: FastifyRequest['raw']) => string | undefined;
}

/** Registers the WHIP and WHEP routes. */
export function registerWebRtcRoutes(app: FastifyInstance, deps: WebRtcRoutesDeps): void {
  app.register(async (scope) => {
    for (const type of ['application/sdp', 'application/trickle-ice-sdpfrag']) {
      scope.addContentTypeParser(type, { parseAs: 'string', bodyLimit: MAX_BODY_BYTES }, (_request, body, done) =>
        done(null, body),
      );
    }
    const preflight = (_request: FastifyRequest, reply: FastifyReply) => {
      const links = deps.iceServerLinks ?? [];
      void reply
        .headers({ ...PREFLIGHT, ...(links.length > 0 ? { link: [...links] } : {}) })
        .status(204)
        .send();
    };
    for (const url of [
      '/webrtc/:key',
      '/whip',
      '/play/:id/webrtc',
      '/whep/:id',
      '/whip/sessions/:sid',
      '/whep/sessions/:sid',
    ]) {
      scope.options(url, preflight);
    }
    scope.post<{ Params: { key: string } }>('/webrtc/:key', (request, reply) =>
      publish(request, reply, request.params.key),
    );
    scope.post('/whip', (request, reply) => publish(request, reply, bearerToken(request.headers.authorization)));
    scope.post<{ Params: { id: string } }>('/play/:id/webrtc', (request, reply) =>
      play(request, reply, request.params.id),
    );
    scope.post<{ Params: { id: string } }>('/whep/:id', (request, reply) => play(request, reply, request.params.id));
    for (const kind of ['whip', 'whep'] as const) {
      scope.patch<{ Params: { sid: string } }>(`/${kind}/sessions/:sid`, async (request, reply) =>
        answer(
          reply,
          await deps.service.patch(kind, request.params.sid, body(request), request.headers['content-type']),
        ),
      );
      scope.delete<{ Params: { sid: string } }>(`/${kind}/sessions/:sid`, (request, reply) =>
        answer(reply, deps.service.delete(kind as SessionKind, request.params.sid)),
      );
    }
  });

  async function publish(request: FastifyRequest, reply: FastifyReply, key: string | undefined): Promise<void> {
    const response = await deps.service.publish(key, body(request), request.headers['content-type'], '/whip/sessions');
    answer(reply, response);
  }

  async function play(request: FastifyRequest, reply: FastifyReply, playbackId: string): Promise<void> {
    const query = request.query as Record<string, string | undefined>;
    let gateSession: string | undefined;
    if (deps.gate) {
      const token = query.jwt ?? bearerToken(request.headers.authorization);
      let decision: Awaited<ReturnType<PlaybackGate['authorize']>>;
      try {
        decision = await deps.gate.authorize({
          playbackId,
          request: { ip: request.ip, url: request.url, headers: request.headers, query },
          protocol: 'webrtc',
          ...(token ? { token } : {}),
        });
      } catch (error) {
        request.log.error({ err: error, playbackId }, 'playback gate failed');
        answer(reply, {
          status: 503,
          headers: { 'content-type': 'application/json; charset=utf-8', 'retry-after': '1' },
          body: JSON.stringify({
            error: { reason: 'gate_unavailable', message: 'playback access could not be checked; try again' },
          }),
        });
        return;
      }
      if (!decision.allowed) {
        answer(reply, {
          status: decision.status,
          headers: {
            'content-type': 'application/json; charset=utf-8',
            ...(decision.status === 401 ? { 'www-authenticate': 'Bearer' } : {}),
          },
          body: JSON.stringify({ error: { reason: decision.reason, message: decision.message } }),
        });
        return;
      }
      gateSession = decision.sessionId;
    }
    await deps.bringHere?.(playbackId);
    // The viewer session the gate names (IP, user agent, `?session=`), as `/play` counts HLS.
    const sessionId = gateSession ?? `whep-${request.id}`;
    const sink = deps.sessions;
    const client = { ip: deps.clientIp?.(request.raw) ?? request.ip, userAgent: request.headers['user-agent'] };
    const response = await deps.service.play(
      playbackId,
      body(request),
      request.headers['content-type'],
      {
        sessionId,
        ...(sink ? { served: (bytes: number) => sink.served(playbackId, sessionId, 'webrtc', bytes, client) } : {}),
      },
      '/whep/sessions',
    );
    answer(reply, response);
  }
}

function body(request: FastifyRequest): string {
  return typeof request.body === 'string' ? request.body : '';
}

function answer(reply: FastifyReply, response: WebRtcResponse): void {
  const headers: Record<string, string | string[]> = { ...CORS };
  for (const [name, value] of Object.entries(response.headers)) {
    headers[name] = typeof value === 'string' ? value : [...value];
  }
  void reply.headers(headers).status(response.status).send(response.body);
}
