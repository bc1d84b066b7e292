/**
 * Writes playback answers on node's HTTP API (RFC 9110 §9.3.2: HEAD gets the headers of GET
 * without a body): complete bodies with Content-Length, streamed bodies chunked, every answer with
 * the playback CORS headers and its request id.
 */
import type { ServerResponse } from 'node:http';
import { finished, type Readable } from 'node:stream';
import type { LiveStream } from '@airwave/media';
import { errorResponse, type PlayResponse } from '@airwave/media/protocols/shared/http-types';
import { PLAY_CORS_HEADERS } from './cors.js';
import { answerFields, writeDirect } from './direct-answer.js';

/** The response side of one playback request. */
export interface PlayExchange {
  readonly res: ServerResponse;
  /** Its `x-request-id`. */
  readonly id: string;
  /** A HEAD request: headers only. */
  readonly head: boolean;
}

const CORS_FLAT = flat(PLAY_CORS_HEADERS);

/** Writes a complete answer (HEAD: without its body) with the CORS headers; returns the body bytes sent. */
export function send(request: PlayExchange, response: PlayResponse): number {
  const body = response.body as string | Uint8Array;
  const bytes = typeof body === 'string' ? encodedOnce(body) : body;
  if (
    !request.head &&
    response.status === 200 &&
    writeDirect(
      request.res,
      response.headers,
      CORS_FLAT,
      request.id,
      bytes,
      typeof body === 'string' ? body : undefined,
    )
  ) {
    return bytes.byteLength;
  }
  const head = answerFields(response.headers, CORS_FLAT, bytes.byteLength);
  head.push('x-request-id', request.id);
  request.res.writeHead(response.status, head);
  if (request.head) {
    request.res.end();
    return 0;
  }
  request.res.end(bytes);
  return bytes.byteLength;
}

/**
 * Pipes a streamed answer (chunked), counting its bytes as egress (and telling `onBytes` of each
 * chunk); ends it when the client goes away.
 */
export function sendStream(
  request: PlayExchange,
  response: PlayResponse,
  body: Readable,
  stream: LiveStream | undefined,
  onBytes?: (bytes: number) => void,
): void {
  const { res } = request;
  if (request.head) {
    body.destroy();
    res.writeHead(response.status, [...flat(response.headers), ...CORS_FLAT, 'x-request-id', request.id]).end();
    return;
  }
  res.statusCode = response.status;
  for (const name in response.headers) {
    res.setHeader(name, response.headers[name] as string);
  }
  for (const name in PLAY_CORS_HEADERS) {
    res.setHeader(name, PLAY_CORS_HEADERS[name] as string);
  }
  res.setHeader('x-request-id', request.id);
  if (stream || onBytes) {
    body.on('data', (chunk: Uint8Array) => {
      if (stream) {
        stream.stats.bytesOut += chunk.byteLength;
      }
      onBytes?.(chunk.byteLength);
    });
  }
  let open = true;
  finished(body, { readable: true, writable: false }, (error) => {
    open = false;
    if (error && !res.headersSent) {
      send(request, errorResponse(500, 'internal', 'the playback stream failed'));
    } else if (error) {
      res.destroy();
    }
  });
  finished(res, () => {
    if (open) {
      body.destroy();
    }
  });
  body.pipe(res);
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

/** Headers as the flat [name, value, …] list `writeHead` takes. */
export function flat(headers: Readonly<Record<string, string>>): string[] {
  return Object.entries(headers).flat();
}
