/** Test-only PlayRequest builder for the HTTP protocol services. */
import type { Readable } from 'node:stream';
import type { PlayRequest } from '../protocols/shared/http-types.js';

/** A request of viewer `viewer-1` for playback id `p1`, no path or query, a signal nobody aborts; `fields` override. */
export function playRequest(fields: Partial<PlayRequest> = {}): PlayRequest {
  return {
    playbackId: 'p1',
    path: '',
    query: {},
    sessionId: 'viewer-1',
    signal: new AbortController().signal,
    ...fields,
  };
}

/** The bytes of a response body, read to its end when it is a stream (a spooled file). */
export async function bodyBytes(body: string | Uint8Array | Readable): Promise<Buffer> {
  if (typeof body === 'string' || body instanceof Uint8Array) {
    return Buffer.from(body);
  }
  const chunks: Buffer[] = [];
  for await (const chunk of body) {
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
