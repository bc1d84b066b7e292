/**
 * The seam between playback routes and access control (issue 4): every media request of a
 * playback id asks the gate first. Without a gate every playback id is public.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { PlaybackProtocol } from '@airwave/media';

/** What is being requested: a playback protocol, or `info` for the `/play/<id>` JSON. */
export type PlaybackGateProtocol = PlaybackProtocol | 'info';

/** What the gate may read of the HTTP request. */
export interface PlaybackHttpRequest {
  /** The client address (the socket's peer; no proxy headers are trusted). */
  readonly ip: string;
  /** The request target as sent (path and query). */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  /** Query parameters (first value of each). */
  readonly query: Readonly<Record<string, string | undefined>>;
}

/** The question asked for every playback request. */
export interface PlaybackGateInput {
  readonly playbackId: string;
  /** Token from `?jwt=` or `Authorization: Bearer`, when the viewer sent one. */
  readonly token?: string;
  readonly request: PlaybackHttpRequest;
  readonly protocol: PlaybackGateProtocol;
}

/** The request may go on. */
export interface PlaybackAllowed {
  readonly allowed: true;
  /** Appended to every URI a playlist, manifest or the JSON lists (e.g. `jwt=<token>`). */
  readonly uriQuery?: string;
  /** Viewer session id to count this viewer under (else the server derives one). */
  readonly sessionId?: string;
}

/** The request is refused with this status and JSON error body. */
export interface PlaybackDenied {
  readonly allowed: false;
  readonly status: 401 | 403;
  /** Machine-readable reason, e.g. `token_missing`, `token_expired`, `webhook_denied`. */
  readonly reason: string;
  readonly message: string;
}

/** Decides whether a playback request may be served. */
export interface PlaybackGate {
  /** Allows (optionally with a URI query and a session id) or denies one request; a throw denies with 503. */
  authorize(input: PlaybackGateInput): Promise<PlaybackAllowed | PlaybackDenied>;
}
