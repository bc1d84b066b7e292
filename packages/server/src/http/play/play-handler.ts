/**
 * The playback plane on node's HTTP API (RFC 9110 semantics for GET, HEAD and OPTIONS): routes
 * `/play/<id>` (JSON), `/play/<id>.mp4`, `/play/<id>/hls/*`, `/play/<id>/cmaf/*` and CORS
 * preflight, asks the playback gate, calls the protocol service and writes its answer. It runs
 * ahead of Fastify: a thousand LL-HLS viewers released by one part cost one pass each through
 * this file, not through Fastify's per-request machinery (ids, hooks, reply objects).
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { parse as parseQuery } from 'node:querystring';
import type { Hub } from '@airwave/media';
import type { TsHlsStatus } from '@airwave/media/protocols/hls/ts/ts-hls-service';
import {
  errorResponse,
  type PlayRequest,
  type PlayResponse,
  playbackIdNotFound,
} from '@airwave/media/protocols/shared/http-types';
import type { FastifyBaseLogger } from 'fastify';
import { bearerToken } from '../../auth/authenticator.js';
import { type RemoteStreams, streamBringer } from './bring-here.js';
import { cmafTarget } from './cmaf-dispatch.js';
import { PLAY_PREFLIGHT_HEADERS } from './cors.js';
import { buildPlayInfo } from './play-info.js';
import { flat, type PlayExchange, send, sendStream } from './play-response.js';
import type { PlaybackAllowed, PlaybackDenied, PlaybackGate, PlaybackGateProtocol } from './playback-gate.js';
import type { PlaybackSessionSink, StoredSessionContent, StoredViewerSink } from './session-sink.js';
import type { StoredPlayback } from './stored/stored-playback.js';
import { storedInfo, storedTarget } from './stored/stored-target.js';
import { viewerSessionId } from './viewer-session.js';
import { type VodOutput, type VodPlayback, vodInfo } from './vod/vod-playback.js';

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

/** What the playback plane needs. */
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
  /** Told the bytes of every answer (viewer analytics); without it nothing is recorded. */
  readonly sessions?: PlaybackSessionSink;
  /** Counts the viewer sessions of recordings, chapters, clips and VOD (analytics); without it they are not counted. */
  readonly storedViewers?: StoredViewerSink;
  /** Told the bytes of every answer from storage (recordings, clips, VOD): egress no live stream counts. */
  readonly storageEgress?: (bytes: number) => void;
  /** The viewer's address (behind trusted proxies); default the socket peer. */
  readonly clientIp?: (req: IncomingMessage) => string | undefined;
  /** Brings a stream live elsewhere onto this node (origin → edge relay) before it is served. */
  readonly remote?: RemoteStreams;
  /** Starts an on-demand pull of a playback id not live here; resolves once it is (or cannot be). */
  readonly wake?: (playbackId: string) => Promise<boolean>;
  /** Recordings, chapters and clips in storage, served when the playback id is not live here. */
  readonly stored?: StoredPlayback;
  /** Uploaded VOD assets in storage (issue 18), served like stored content. */
  readonly vod?: VodPlayback;
}

/** Answers a request when it is a playback request; returns false (untouched) otherwise. */
export type PlayHandler = (req: IncomingMessage, res: ServerResponse) => boolean;

/** Longest playback id accepted in a URL. */
export const MAX_PLAYBACK_ID_LENGTH = 128;
const PLAYBACK_ID = /^[A-Za-z0-9_-]+$/;
const PREFIX = '/play/';

/** Header lists ([name, value, …]) written with every answer. */
const PREFLIGHT_FLAT = flat(PLAY_PREFLIGHT_HEADERS);
/** Process-unique prefix of the `x-request-id` of playback answers (a counter follows). */
const REQUEST_ID_PREFIX = `play-${process.pid.toString(36)}-${Date.now().toString(36)}-`;

/** One playback request as the gate and the services see it. */
interface Incoming extends PlayExchange {
  readonly req: IncomingMessage;
  /** What the gate reads: the client address, headers, query and URL. */
  readonly ip: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly query: Readonly<Record<string, string | undefined>>;
}

interface Admitted {
  readonly uriQuery?: string;
  readonly sessionId: string;
}

/** Builds the handler of every `/play/` request (logging failures to `log`). */
export function createPlayHandler(deps: PlayRoutesDeps, log: FastifyBaseLogger): PlayHandler {
  let served = 0;
  const bringHere = streamBringer(deps, log);
  return (req, res) => {
    const target = req.url ?? '';
    const method = req.method;
    if (!target.startsWith(PREFIX) || (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS')) {
      return false;
    }
    const hashAt = target.indexOf('#');
    const url = hashAt < 0 ? target : target.slice(0, hashAt);
    const queryAt = url.indexOf('?');
    const pathname = queryAt < 0 ? url : url.slice(0, queryAt);
    const rest = pathname.slice(PREFIX.length);
    const slash = rest.indexOf('/');
    const rawId = slash < 0 ? rest : rest.slice(0, slash);
    if (method === 'OPTIONS') {
      res.writeHead(204, PREFLIGHT_FLAT).end();
      return true;
    }
    const request: Incoming = {
      req,
      res,
      id: `${REQUEST_ID_PREFIX}${(++served).toString(36)}`,
      head: method === 'HEAD',
      ip: deps.clientIp?.(req) ?? req.socket.remoteAddress ?? '',
      url,
      headers: req.headers,
      query: queryAt < 0 ? {} : firstValues(url.slice(queryAt + 1)),
    };
    const id = decoded(rawId);
    const path = slash < 0 ? '' : decoded(rest.slice(slash + 1));
    if (id === undefined || path === undefined) {
      send(request, errorResponse(400, 'bad_url', `${pathname} is not a valid URL path`));
      return true;
    }
    route(request, id, slash < 0 ? undefined : path).catch((error: unknown) => {
      log.error({ err: error, reqId: request.id }, 'playback request failed');
      if (!res.headersSent) {
        send(request, errorResponse(500, 'internal', `the playback request failed (request id ${request.id})`));
      } else {
        res.destroy();
      }
    });
    return true;
  };

  async function route(request: Incoming, rawId: string, path: string | undefined): Promise<void> {
    if (deps.stored && (await serveStored(request, deps.stored, rawId, path))) {
      return;
    }
    if (deps.vod && (await serveVod(request, deps.vod, rawId, path))) {
      return;
    }
    if (path === undefined) {
      if (rawId.endsWith('.mp4')) {
        return serve(request, rawId.slice(0, -'.mp4'.length), 'mp4', deps.mp4, '');
      }
      return info(request, rawId);
    }
    if (path.startsWith('hls/')) {
      return serve(request, rawId, 'hls', deps.tsHls, path.slice('hls/'.length));
    }
    if (path.startsWith('cmaf/')) {
      const cmafPath = path.slice('cmaf/'.length);
      const target = cmafTarget(cmafPath);
      return serve(request, rawId, target, target === 'dash' ? deps.dash : deps.cmaf, cmafPath);
    }
    send(
      request,
      errorResponse(
        404,
        'output_not_found',
        `no playback output at ${path}; use hls/index.m3u8, cmaf/index.m3u8, cmaf/index.mpd or <id>.mp4`,
      ),
    );
  }

  /** Serves stored content when the playback id names some (and is not live here); false otherwise. */
  async function serveStored(
    request: Incoming,
    stored: StoredPlayback,
    rawId: string,
    path: string | undefined,
  ): Promise<boolean> {
    const target = storedTarget(rawId, path);
    if (!target || !PLAYBACK_ID.test(target.playbackId)) {
      return false;
    }
    if (target.output === 'thumbnail') {
      const content = (await stored.find(target.playbackId)) ?? (await stored.findLive(target.playbackId));
      if (!content && deps.vod) {
        return false;
      }
      const response = content
        ? await stored.handle({
            content,
            output: 'thumbnail',
            path: target.path,
            range: undefined,
            uriQuery: undefined,
          })
        : playbackIdNotFound(target.playbackId);
      if (typeof response.body === 'string' || response.body instanceof Uint8Array) {
        send(request, response);
      } else {
        sendStream(request, response, response.body, undefined);
      }
      return true;
    }
    if (!target.live && deps.hub.getByPlaybackId(target.playbackId)) {
      return false;
    }
    const content = await (target.live ? stored.findLive(target.playbackId) : stored.find(target.playbackId));
    if (!content) {
      return false;
    }
    const admitted = await admit(request, target.playbackId, target.protocol);
    if (!admitted) {
      return true;
    }
    countStoredViewer(
      request,
      { streamId: content.streamId, contentType: content.artifact ? 'clip' : 'dvr', contentId: target.playbackId },
      target.protocol,
      admitted.sessionId,
      target.live === true,
    );
    const response =
      target.output === 'info'
        ? storedInfo(content, deps.publicBaseUrl, admitted.uriQuery)
        : await stored.handle({
            content,
            output: target.output,
            path: target.path,
            range: typeof request.headers.range === 'string' ? request.headers.range : undefined,
            uriQuery: admitted.uriQuery,
            ...(target.live ? { windowSeconds: stored.windowSeconds } : {}),
          });
    sendFromStorage(request, response, target.playbackId, admitted.sessionId, target.protocol);
    return true;
  }

  /** Serves a VOD asset when the playback id names one (and is not live here); false otherwise. */
  async function serveVod(
    request: Incoming,
    vod: VodPlayback,
    rawId: string,
    path: string | undefined,
  ): Promise<boolean> {
    const target = storedTarget(rawId, path);
    if (!target || target.live || !PLAYBACK_ID.test(target.playbackId) || deps.hub.getByPlaybackId(target.playbackId)) {
      return false;
    }
    const asset = await vod.find(target.playbackId);
    if (!asset) {
      return false;
    }
    const admitted =
      target.output === 'thumbnail' ? { sessionId: '' } : await admit(request, target.playbackId, target.protocol);
    if (!admitted) {
      return true;
    }
    const uriQuery = 'uriQuery' in admitted ? admitted.uriQuery : undefined;
    countStoredViewer(
      request,
      { streamId: null, contentType: 'vod', contentId: target.playbackId },
      target.protocol,
      admitted.sessionId,
      false,
    );
    const response =
      target.output === 'info'
        ? vodInfo(asset, deps.publicBaseUrl, uriQuery)
        : await vod.handle({
            content: asset,
            output: (target.output === 'thumbnail' ? 'asset' : target.output) as VodOutput,
            path: target.path,
            range: typeof request.headers.range === 'string' ? request.headers.range : undefined,
            uriQuery,
          });
    sendFromStorage(request, response, target.playbackId, admitted.sessionId, target.protocol);
    return true;
  }

  /**
   * Sends an answer read from storage (recording, chapter, clip, VOD) and reports its bytes: to the
   * node's storage egress and to the viewer session that asked for `playbackId`.
   */
  function sendFromStorage(
    request: Incoming,
    response: PlayResponse,
    playbackId: string,
    sessionId: string,
    protocol: PlaybackGateProtocol,
  ): void {
    const served = (bytes: number): void => {
      deps.storageEgress?.(bytes);
      deps.sessions?.served(playbackId, sessionId, protocol, bytes, {
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      });
    };
    if (typeof response.body === 'string' || response.body instanceof Uint8Array) {
      served(send(request, response));
    } else {
      sendStream(request, response, response.body, undefined, served);
    }
  }

  /**
   * Counts a viewer of stored content as a session, as a live stream counts its own: the DVR window
   * of a stream live here in that stream's viewers, anything else in the stored viewers. The JSON
   * and thumbnails are not viewing; a progressive MP4 session lasts as long as its response.
   */
  function countStoredViewer(
    request: Incoming,
    content: StoredSessionContent,
    protocol: PlaybackGateProtocol,
    sessionId: string,
    live: boolean,
  ): void {
    if (protocol === 'info' || sessionId === '') {
      return;
    }
    const viewers = live ? deps.hub.getByPlaybackId(content.contentId)?.viewers : undefined;
    if (protocol !== 'mp4') {
      if (viewers) {
        viewers.touch(sessionId, protocol);
      } else {
        deps.storedViewers?.touch(content, sessionId, protocol);
      }
      return;
    }
    const close = viewers ? viewers.open(sessionId, protocol) : deps.storedViewers?.open(content, sessionId, protocol);
    if (close) {
      request.res.once('close', close);
    }
  }

  /** The `/play/<id>` JSON. */
  async function info(request: Incoming, rawId: string): Promise<void> {
    const playbackId = checkedId(request, rawId);
    if (playbackId === undefined) {
      return;
    }
    const admitted = await admit(request, playbackId, 'info');
    if (!admitted) {
      return;
    }
    await bringHere(playbackId);
    const stream = deps.hub.getByPlaybackId(playbackId);
    const hls = deps.tsHls.status(playbackId);
    if (!stream && !hls) {
      send(request, playbackIdNotFound(playbackId));
      return;
    }
    const body = buildPlayInfo({
      playbackId,
      ...(stream ? { stream } : {}),
      ...(hls ? { hls } : {}),
      publicBaseUrl: deps.publicBaseUrl,
      webrtc: deps.webrtc ?? false,
      ...(admitted.uriQuery ? { uriQuery: admitted.uriQuery } : {}),
    });
    send(request, {
      status: 200,
      headers: { 'cache-control': 'no-store', 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify(body),
    });
  }

  /** Gate, build the PlayRequest, call the service and write its answer. */
  async function serve(
    request: Incoming,
    rawId: string,
    protocol: PlaybackGateProtocol,
    service: PlayService,
    path: string,
  ): Promise<void> {
    const playbackId = checkedId(request, rawId);
    if (playbackId === undefined) {
      return;
    }
    const admitted = await admit(request, playbackId, protocol);
    if (!admitted) {
      return;
    }
    await bringHere(playbackId);
    const socket: Partial<Socket> = request.req.socket;
    // Long polls and live bodies outlast any idle timeout (`app.inject` sockets have none).
    socket.setTimeout?.(0);
    const playRequest: PlayRequest = {
      playbackId,
      path,
      query: request.query,
      sessionId: admitted.sessionId,
      signal: clientGone(request.req.socket),
      ...(admitted.uriQuery ? { uriQuery: admitted.uriQuery } : {}),
    };
    let response: PlayResponse;
    try {
      response = await service.handle(playRequest);
    } catch (error) {
      log.error({ err: error, reqId: request.id, playbackId, protocol, path }, 'playback service failed');
      send(request, errorResponse(500, 'internal', 'the playback service failed'));
      return;
    }
    const stream = deps.hub.getByPlaybackId(playbackId);
    const sessions = deps.sessions;
    const served = sessions
      ? (bytes: number) =>
          sessions.served(playbackId, admitted.sessionId, protocol, bytes, {
            ip: request.ip,
            userAgent: request.headers['user-agent'],
          })
      : undefined;
    if (typeof response.body === 'string' || response.body instanceof Uint8Array) {
      const bytes = send(request, response);
      if (stream) {
        stream.stats.bytesOut += bytes;
      }
      served?.(bytes);
    } else {
      sendStream(request, response, response.body, stream, served);
    }
  }

  /** Wakes an on-demand pull when the playback id is not live on this node. */

  /** Asks the gate; on refusal answers and returns undefined. */
  async function admit(
    request: Incoming,
    playbackId: string,
    protocol: PlaybackGateProtocol,
  ): Promise<Admitted | undefined> {
    const session = request.query.session;
    const sessionQuery = session ? `session=${encodeURIComponent(session)}` : undefined;
    const fallbackSession = (): string => viewerSessionId(request.ip, request.headers['user-agent'], session);
    if (!deps.gate) {
      return { sessionId: fallbackSession(), ...(sessionQuery ? { uriQuery: sessionQuery } : {}) };
    }
    const token = request.query.jwt ?? bearerToken(request.headers.authorization);
    let decision: PlaybackAllowed | PlaybackDenied;
    try {
      decision = await deps.gate.authorize({ playbackId, request, protocol, ...(token ? { token } : {}) });
    } catch (error) {
      log.error({ err: error, reqId: request.id, playbackId, protocol }, 'playback gate failed');
      const denied = errorResponse(503, 'gate_unavailable', 'playback access could not be checked; try again');
      send(request, { ...denied, headers: { ...denied.headers, 'retry-after': '1' } });
      return undefined;
    }
    if (!decision.allowed) {
      const denied = errorResponse(decision.status, decision.reason, decision.message);
      send(
        request,
        decision.status === 401 ? { ...denied, headers: { ...denied.headers, 'www-authenticate': 'Bearer' } } : denied,
      );
      return undefined;
    }
    const uriQuery = [decision.uriQuery, sessionQuery].filter((part) => part).join('&');
    return { sessionId: decision.sessionId ?? fallbackSession(), ...(uriQuery ? { uriQuery } : {}) };
  }
}

/** The abort signal of the requests of one connection. */
const GONE = Symbol('playback client gone');

/**
 * Aborts when the client closes the connection, the only way an HTTP/1.1 client can give up a
 * request: one controller per connection, not per request (each costs an EventTarget, and its
 * abort a DOMException), shared by the requests that connection carries one after the other.
 */
function clientGone(socket: Socket & { [GONE]?: AbortSignal }): AbortSignal {
  let signal = socket[GONE];
  if (!signal) {
    const controller = new AbortController();
    signal = controller.signal;
    socket[GONE] = signal;
    socket.once('close', () => controller.abort());
  }
  return signal;
}

/** The playback id when well-formed; else answers 404 and returns undefined. */
function checkedId(request: Incoming, raw: string): string | undefined {
  if (raw.length === 0 || raw.length > MAX_PLAYBACK_ID_LENGTH || !PLAYBACK_ID.test(raw)) {
    send(request, errorResponse(404, 'playback_id_not_found', 'no live stream with this playback id'));
    return undefined;
  }
  return raw;
}

/** A path segment with its percent-escapes decoded; undefined when they are malformed. */
function decoded(segment: string): string | undefined {
  if (!segment.includes('%')) {
    return segment;
  }
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** Query parameters reduced to their first value. */
function firstValues(search: string): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(parseQuery(search))) {
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string') {
      out[key] = first;
    }
  }
  return out;
}
