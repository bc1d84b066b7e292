/**
 * Fastify routes of the playback plane: `/play/<id>` (JSON), `/play/<id>.mp4`,
 * `/play/<id>/hls/*`, `/play/<id>/cmaf/*` (LL-HLS and DASH) and CORS preflight. Every media
 * request passes the playback gate first; services get a framework-free PlayRequest.
 */
import type { Hub, LiveStream } from '@airwave/media';
import type { TsHlsStatus } from '@airwave/media/protocols/hls/ts/ts-hls-service';
import {
  errorResponse,
  type PlayRequest,
  type PlayResponse,
  playbackIdNotFound,
} from '@airwave/media/protocols/shared/http-types';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearerToken } from '../../auth/authenticator.js';
import { cmafTarget } from './cmaf-dispatch.js';
import { PLAY_CORS_HEADERS, PLAY_PREFLIGHT_HEADERS } from './cors.js';
import { buildPlayInfo } from './play-info.js';
import type { PlaybackAllowed, PlaybackDenied, PlaybackGate, PlaybackGateProtocol } from './playback-gate.js';
import { viewerSessionId } from './viewer-session.js';

/** A protocol service: answers one playback request. */
export interface PlayService {
  /** Answers one request; long-lived answers end when `req.signal` aborts. */
  handle(req: PlayRequest): Promise<PlayResponse>;
}

/** The classic HLS service, which also reports what it measured. */
export interface TsHlsPlayService extends PlayService {
  /** What the packager measured for a playback id it knows (live, or ended within the grace period). */
  status(playbackId: string): TsHlsStatus | undefined;
}

/** What the playback routes need. */
export interface PlayRoutesDeps {
  readonly hub: Hub;
  /** Classic HLS (MPEG-TS) under `/play/<id>/hls/`. */
  readonly tsHls: TsHlsPlayService;
  /** LL-HLS over CMAF under `/play/<id>/cmaf/` (every path but DASH manifests). */
  readonly cmaf: PlayService;
  /** DASH over CMAF under `/play/<id>/cmaf/` (`*.mpd`). */
  readonly dash: PlayService;
  /** Progressive MP4 at `/play/<id>.mp4`. */
  readonly mp4: PlayService;
  /** Origin the JSON's absolute URLs start with, e.g. `https://play.example.com`. */
  readonly publicBaseUrl: string;
  /** Access control; without it every playback id is public. */
  readonly gate?: PlaybackGate;
  /** Lists a WHEP URL (`/play/<id>/webrtc`) in the JSON when WebRTC playback is served. */
  readonly webrtc?: boolean;
}

/** Longest playback id accepted in a URL. */
export const MAX_PLAYBACK_ID_LENGTH = 128;
const PLAYBACK_ID = /^[A-Za-z0-9_-]+$/;

interface Admitted {
  readonly uriQuery?: string;
  readonly sessionId: string;
}

/** Registers the `/play` routes on an app. */
export function registerPlayRoutes(app: FastifyInstance, deps: PlayRoutesDeps): void {
  app.options('/play/*', async (_request, reply) => {
    return reply.code(204).headers(PLAY_PREFLIGHT_HEADERS).send();
  });

  app.get<{ Params: { id: string } }>('/play/:id', async (request, reply) => {
    const raw = request.params.id;
    if (raw.endsWith('.mp4')) {
      return serve(deps, request, reply, raw.slice(0, -'.mp4'.length), 'mp4', deps.mp4, '');
    }
    const playbackId = checkedId(raw, reply);
    if (playbackId === undefined) {
      return reply;
    }
    const admitted = await admit(deps, request, reply, firstValues(request.query), playbackId, 'info');
    if (!admitted) {
      return reply;
    }
    const stream = deps.hub.getByPlaybackId(playbackId);
    const hls = deps.tsHls.status(playbackId);
    if (!stream && !hls) {
      return sendResponse(reply, playbackIdNotFound(playbackId));
    }
    const info = buildPlayInfo({
      playbackId,
      ...(stream ? { stream } : {}),
      ...(hls ? { hls } : {}),
      publicBaseUrl: deps.publicBaseUrl,
      webrtc: deps.webrtc ?? false,
      ...(admitted.uriQuery ? { uriQuery: admitted.uriQuery } : {}),
    });
    return reply.code(200).headers(PLAY_CORS_HEADERS).header('cache-control', 'no-store').send(info);
  });

  app.get<{ Params: { id: string; '*': string } }>('/play/:id/hls/*', async (request, reply) => {
    return serve(deps, request, reply, request.params.id, 'hls', deps.tsHls, request.params['*']);
  });

  app.get<{ Params: { id: string; '*': string } }>('/play/:id/cmaf/*', async (request, reply) => {
    const path = request.params['*'];
    const target = cmafTarget(path);
    const service = target === 'dash' ? deps.dash : deps.cmaf;
    return serve(deps, request, reply, request.params.id, target, service, path);
  });

  app.get<{ Params: { id: string; '*': string } }>('/play/:id/*', async (request, reply) => {
    return sendError(
      reply,
      404,
      'output_not_found',
      `no playback output at ${request.params['*']}; use hls/index.m3u8, cmaf/index.m3u8, cmaf/index.mpd or <id>.mp4`,
    );
  });
}

/** Gate, build the PlayRequest, call the service and translate its answer. */
async function serve(
  deps: PlayRoutesDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  rawId: string,
  protocol: PlaybackGateProtocol,
  service: PlayService,
  path: string,
): Promise<FastifyReply> {
  const playbackId = checkedId(rawId, reply);
  if (playbackId === undefined) {
    return reply;
  }
  const query = firstValues(request.query);
  const admitted = await admit(deps, request, reply, query, playbackId, protocol);
  if (!admitted) {
    return reply;
  }
  request.raw.socket.setTimeout(0);
  const controller = new AbortController();
  // Aborting builds a DOMException (costly per request): only a waiting service or a streamed
  // body still listens once the response is ready, so a finished in-memory answer skips it.
  let listening = true;
  reply.raw.once('close', () => {
    if (listening) {
      controller.abort();
    }
  });
  const playRequest: PlayRequest = {
    playbackId,
    path,
    query,
    sessionId: admitted.sessionId,
    signal: controller.signal,
    ...(admitted.uriQuery ? { uriQuery: admitted.uriQuery } : {}),
  };
  let response: PlayResponse;
  try {
    response = await service.handle(playRequest);
  } catch (error) {
    request.log.error({ err: error, playbackId, protocol, path }, 'playback service failed');
    return sendError(reply, 500, 'internal', 'the playback service failed');
  }
  listening = typeof response.body !== 'string' && !(response.body instanceof Uint8Array);
  countEgress(deps.hub.getByPlaybackId(playbackId), response.body);
  return sendResponse(reply, response);
}

/** Sends a service's answer with the playback CORS headers. */
function sendResponse(reply: FastifyReply, response: PlayResponse): FastifyReply {
  const body = response.body;
  let payload: Buffer | PlayResponse['body'] = body;
  if (body instanceof Uint8Array) {
    payload = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  } else if (typeof body === 'string' && response.headers['content-type'] !== undefined) {
    payload = encodedOnce(body);
  }
  return reply.code(response.status).headers(response.headers).headers(PLAY_CORS_HEADERS).send(payload);
}

/** Playlists and manifests encoded lately: every viewer released by the same part gets the same string. */
const encodedBodies = new Map<string, Buffer>();
/** Most bodies kept encoded; past it the map starts over. */
const ENCODED_BODIES_MAX = 64;

/** The UTF-8 bytes of a text body, encoded once for all the viewers it is sent to. */
function encodedOnce(body: string): Buffer {
  const known = encodedBodies.get(body);
  if (known) {
    return known;
  }
  const encoded = Buffer.from(body, 'utf8');
  if (encodedBodies.size >= ENCODED_BODIES_MAX) {
    encodedBodies.clear();
  }
  encodedBodies.set(body, encoded);
  return encoded;
}

/** Adds what a response delivers to its stream's egress counter (streamed bodies as they flow). */
function countEgress(stream: LiveStream | undefined, body: PlayResponse['body']): void {
  if (!stream) {
    return;
  }
  if (typeof body === 'string') {
    stream.stats.bytesOut += Buffer.byteLength(body);
  } else if (body instanceof Uint8Array) {
    stream.stats.bytesOut += body.byteLength;
  } else {
    body.on('data', (chunk: Uint8Array) => {
      stream.stats.bytesOut += chunk.byteLength;
    });
  }
}

/** Asks the gate; on refusal sends the error and returns undefined. */
async function admit(
  deps: PlayRoutesDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  query: Readonly<Record<string, string | undefined>>,
  playbackId: string,
  protocol: PlaybackGateProtocol,
): Promise<Admitted | undefined> {
  const session = query.session;
  const sessionQuery = session ? `session=${encodeURIComponent(session)}` : undefined;
  const fallbackSession = (): string => viewerSessionId(request.ip, request.headers['user-agent'], session);
  if (!deps.gate) {
    return { sessionId: fallbackSession(), ...(sessionQuery ? { uriQuery: sessionQuery } : {}) };
  }
  const token = query.jwt ?? bearerToken(request.headers.authorization);
  let decision: PlaybackAllowed | PlaybackDenied;
  try {
    decision = await deps.gate.authorize({ playbackId, request, protocol, ...(token ? { token } : {}) });
  } catch (error) {
    request.log.error({ err: error, playbackId, protocol }, 'playback gate failed');
    reply.header('retry-after', '1');
    sendError(reply, 503, 'gate_unavailable', 'playback access could not be checked; try again');
    return undefined;
  }
  if (!decision.allowed) {
    if (decision.status === 401) {
      reply.header('www-authenticate', 'Bearer');
    }
    sendError(reply, decision.status, decision.reason, decision.message);
    return undefined;
  }
  const uriQuery = [decision.uriQuery, sessionQuery].filter((part) => part).join('&');
  return { sessionId: decision.sessionId ?? fallbackSession(), ...(uriQuery ? { uriQuery } : {}) };
}

/** The playback id when well-formed; else sends a 404 and returns undefined. */
function checkedId(raw: string, reply: FastifyReply): string | undefined {
  if (raw.length === 0 || raw.length > MAX_PLAYBACK_ID_LENGTH || !PLAYBACK_ID.test(raw)) {
    sendError(reply, 404, 'playback_id_not_found', 'no live stream with this playback id');
    return undefined;
  }
  return raw;
}

function sendError(reply: FastifyReply, status: number, reason: string, message: string): FastifyReply {
  return sendResponse(reply, errorResponse(status, reason, message));
}

/** Query parameters reduced to their first value. */
function firstValues(query: unknown): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  if (query && typeof query === 'object') {
    for (const [key, value] of Object.entries(query)) {
      const first: unknown = Array.isArray(value) ? value[0] : value;
      if (typeof first === 'string') {
        out[key] = first;
      }
    }
  }
  return out;
}
