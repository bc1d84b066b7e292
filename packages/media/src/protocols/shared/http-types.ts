/**
 * Framework-agnostic shapes for HTTP delivery. Protocol services (HLS, DASH, MP4) answer a
 * PlayRequest with a PlayResponse; the server's Fastify routes translate both ways and apply
 * the playback gate before calling a service.
 */
import type { Readable } from 'node:stream';

/** One playback request, already routed to a playback id. */
export interface PlayRequest {
  /** Public playback id from the URL. */
  readonly playbackId: string;
  /** Path after `/play/<id>/<protocol>/`, e.g. `index.m3u8`, `seg-12.m4s`. */
  readonly path: string;
  /** Query parameters (first value of each). */
  readonly query: Readonly<Record<string, string | undefined>>;
  /** Viewer session id for counting viewers (derived by the server). */
  readonly sessionId: string;
  /** Aborted when the client goes away (long polls, progressive streams). */
  readonly signal: AbortSignal;
  /**
   * Suffix the server wants appended to every URI a playlist or manifest lists
   * (e.g. `jwt=<token>` for protected playback), without a leading `?` or `&`.
   */
  readonly uriQuery?: string;
}

/** The answer of a protocol service. */
export interface PlayResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** A complete body, or a stream for long-lived responses (progressive MP4). */
  readonly body: string | Uint8Array | Readable;
}

/** Cache-Control for playlists and manifests that change while live. */
export const CACHE_LIVE_PLAYLIST = 'no-store';
/** Cache-Control for segments and parts, which never change once published. */
export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';

/** A JSON error body with a machine-readable reason. */
export function errorResponse(status: number, reason: string, message: string): PlayResponse {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
    body: JSON.stringify({ error: { reason, message } }),
  };
}

/** 404 for a playback id with no live stream. */
export function playbackIdNotFound(playbackId: string): PlayResponse {
  return errorResponse(404, 'playback_id_not_found', `no live stream with playback id ${playbackId}`);
}

/** 503 with Retry-After: 1, for a stream that exists but has nothing to serve yet. */
export function notReady(message: string): PlayResponse {
  const response = errorResponse(503, 'not_ready', message);
  return { ...response, headers: { ...response.headers, 'retry-after': '1' } };
}

/** Appends `uriQuery` to a URI that may already carry a query string. */
export function withUriQuery(uri: string, uriQuery: string | undefined): string {
  if (!uriQuery) {
    return uri;
  }
  return `${uri}${uri.includes('?') ? '&' : '?'}${uriQuery}`;
}
