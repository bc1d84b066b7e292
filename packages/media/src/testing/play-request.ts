/** Test-only PlayRequest builder for the HTTP protocol services. */
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
