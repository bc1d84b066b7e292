/**
 * Live streams for viewer routing: a stream by its playback id, live or not, with its tracks as
 * last reported, its viewers over every node (the heartbeats' per-stream counts, or the origin's
 * own report when larger), and its ingesting node as the one node that already holds it.
 */
import type { NodeView } from '../node-status/node-status.service.js';
import type { LiveContentStore } from './live-content.store.js';
import { type ContentResolver, type ResolvedContent, viewersAcross } from './viewer-routing.service.js';

/** Resolves playback ids of live streams. */
export class LiveContentResolver implements ContentResolver {
  constructor(private readonly store: LiveContentStore) {}

  /** The stream with this playback id, or undefined. */
  async resolve(contentId: string, nodes: readonly NodeView[]): Promise<ResolvedContent | undefined> {
    const row = await this.store.byPlaybackId(contentId);
    if (!row) {
      return undefined;
    }
    const isLive = row.status === 'LIVE' || row.status === 'RECONNECTING';
    const viewers = viewersAcross(nodes, row.streamId);
    return {
      contentId,
      contentType: 'live',
      title: row.name,
      description: row.description,
      status: row.status,
      isLive,
      viewers: isLive ? Math.max(viewers, row.currentViewers) : 0,
      tracks: row.tracks.map((track) => ({
        type: track.kind,
        codec: track.codec,
        bitrateKbps: track.bitrate === null ? null : Math.round(track.bitrate / 1000),
        width: track.width,
        height: track.height,
        channels: track.channels,
        sampleRate: track.sampleRate,
      })),
      holders: isLive && row.origin ? [row.origin.nodeId] : [],
      outputs: ['HLS', 'HLS_CMAF', 'DASH', 'MP4', 'WHEP'],
    };
  }
}
