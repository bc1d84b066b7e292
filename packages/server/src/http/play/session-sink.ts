/**
 * The seam between playback routes and viewer analytics (issue 20): the routes report the bytes
 * of every answer to the viewer session they served. Without a sink nothing is recorded.
 */
import type { PlaybackProtocol } from '@airwave/media';

/** Who an answer was sent to. */
export interface PlaybackClient {
  readonly ip: string;
  readonly userAgent: string | undefined;
}

/** Receives the bytes of playback answers (ViewerSessionRecorder implements it). */
export interface PlaybackSessionSink {
  /** `bytes` of `contentId` (a playback id) were sent to `sessionId` over `protocol`. */
  served(contentId: string, sessionId: string, protocol: string, bytes: number, client: PlaybackClient): void;
}

/** Stored content as analytics sees it: its stream (none for VOD), its kind and its playback id. */
export interface StoredSessionContent {
  readonly streamId: string | null;
  readonly contentType: 'dvr' | 'clip' | 'vod';
  readonly contentId: string;
}

/** Keeps the viewer sessions of stored content, which has no hub stream to count them (StoredViewers implements it). */
export interface StoredViewerSink {
  /** A request of a request-based session (HLS, DASH). */
  touch(content: StoredSessionContent, sessionId: string, protocol: PlaybackProtocol): void;
  /** A connection-bound session (progressive MP4); the returned function ends it. */
  open(content: StoredSessionContent, sessionId: string, protocol: PlaybackProtocol): () => void;
}
