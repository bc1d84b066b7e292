/**
 * The seam between playback routes and viewer analytics (issue 20): the routes report the bytes
 * of every answer to the viewer session they served. Without a sink nothing is recorded.
 */

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
