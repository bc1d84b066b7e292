/**
 * Makes a playback id that is not live on this node live here before it is served: an on-demand
 * pull of this node first, else a relay from the node that ingests it. Shared by the /play routes
 * and WHEP, so every protocol finds the same streams on an edge.
 */
import type { Hub } from '@airwave/media';
import type { FastifyBaseLogger } from 'fastify';

/** Streams this node can relay from the node that ingests them. */
export interface RemoteStreams {
  /** Resolves once `playbackId` is live on this node, or at once when it cannot be (the service then answers 404). */
  ensure(playbackId: string): Promise<void>;
}

/** Where a stream not live here can come from. */
export interface StreamSources {
  readonly hub: Hub;
  /** Brings a stream live elsewhere onto this node (origin → edge relay). */
  readonly remote?: RemoteStreams;
  /** Starts an on-demand pull of a playback id not live here; resolves once it is (or cannot be). */
  readonly wake?: (playbackId: string) => Promise<boolean>;
}

/** Returns a function that resolves once `playbackId` is live here, or once it cannot be. */
export function streamBringer(sources: StreamSources, log: Pick<FastifyBaseLogger, 'error'>) {
  return async (playbackId: string): Promise<void> => {
    if (sources.wake && !sources.hub.getByPlaybackId(playbackId)) {
      await sources
        .wake(playbackId)
        .catch((error: unknown) => log.error({ err: error, playbackId }, 'on-demand pull failed'));
    }
    if (sources.remote && !sources.hub.getByPlaybackId(playbackId)) {
      await sources.remote.ensure(playbackId);
    }
  };
}
