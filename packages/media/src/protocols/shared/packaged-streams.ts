/**
 * One packager per live stream of a hub, looked up by playback id, for the request-based
 * protocols (classic HLS, LL-HLS, DASH). A republished playback id gets a fresh packager; an
 * ended stream's packager keeps answering for a grace period so players see its end
 * (EXT-X-ENDLIST of RFC 8216 §4.3.3.4, a static MPD of ISO/IEC 23009-1 §5.4).
 */
import type { Hub, StreamOutput } from '../../hub/hub.js';
import type { LiveStream, StreamSink } from '../../hub/live-stream.js';
import type { PlaybackProtocol } from '../../hub/viewer-sessions.js';
import { errorResponse, notReady, type PlayRequest, type PlayResponse, playbackIdNotFound } from './http-types.js';

/** What the registry needs of a packager: a stream sink that remembers why its stream ended. */
export interface EndingPackager extends StreamSink {
  /** Why the stream ended, undefined while it is live or reconnecting. */
  readonly ended: string | undefined;
  onEnd(reason: string): void;
}

/** A packaged stream. */
export interface PackagedStream<P extends EndingPackager> {
  readonly stream: LiveStream;
  readonly packager: P;
}

interface Held<P extends EndingPackager> extends PackagedStream<P> {
  timer: NodeJS.Timeout | undefined;
}

/** Default of how long an ended stream keeps answering. */
export const DEFAULT_ENDED_GRACE_MS = 60_000;

/** The packagers of every stream of one hub. */
export class PackagedStreams<P extends EndingPackager> {
  private readonly entries = new Map<string, Held<P>>();

  constructor(
    hub: Hub,
    private readonly create: (stream: LiveStream) => P,
    private readonly endedGraceMs = DEFAULT_ENDED_GRACE_MS,
  ) {
    hub.addOutput((stream) => this.open(stream));
  }

  /** The packaged stream with this playback id (live, reconnecting, or ended within the grace period). */
  get(playbackId: string): PackagedStream<P> | undefined {
    return this.entries.get(playbackId);
  }

  /**
   * The packaged stream a viewer request names, counting the viewer under `protocol` while the
   * stream is live; the 404 answer when there is none.
   */
  forViewer(req: PlayRequest, protocol: PlaybackProtocol): PackagedStream<P> | PlayResponse {
    const entry = this.entries.get(req.playbackId);
    if (!entry) {
      return playbackIdNotFound(req.playbackId);
    }
    if (entry.packager.ended === undefined) {
      entry.stream.viewers.touch(req.sessionId, protocol);
    }
    return entry;
  }

  /** Forgets every stream and stops the grace timers (shutdown). */
  close(): void {
    for (const entry of this.entries.values()) {
      clearTimeout(entry.timer);
    }
    this.entries.clear();
  }

  private open(stream: LiveStream): StreamOutput {
    clearTimeout(this.entries.get(stream.playbackId)?.timer);
    const packager = this.create(stream);
    const entry: Held<P> = { stream, packager, timer: undefined };
    this.entries.set(stream.playbackId, entry);
    const detach = stream.attach(packager);
    return {
      close: () => {
        detach();
        packager.onEnd(stream.endReason ?? 'stream closed');
        clearTimeout(entry.timer);
        entry.timer = setTimeout(() => {
          if (this.entries.get(stream.playbackId) === entry) {
            this.entries.delete(stream.playbackId);
          }
        }, this.endedGraceMs);
        entry.timer.unref();
      },
    };
  }
}

/**
 * The answer when a packager has no segment: 503 (try again) while its stream is live, 404 once
 * it ended without producing one.
 */
export function noSegmentYet(packager: EndingPackager, playbackId: string): PlayResponse {
  if (packager.ended !== undefined) {
    return errorResponse(404, 'playback_id_not_found', `the stream of playback id ${playbackId} ended without media`);
  }
  return notReady('the stream has not produced a segment yet');
}
