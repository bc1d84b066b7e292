/**
 * Low-Latency HLS (RFC 8216bis) over the CMAF packager, under `/play/<id>/cmaf/`: `index.m3u8`
 * (multivariant), `video.m3u8` / `audio.m3u8` (media playlists with parts, blocking reload and
 * delta updates) and the CMAF files they list.
 */
import type { Hub } from '../../../hub/hub.js';
import { partName } from '../../shared/cmaf/cmaf-names.js';
import { firstSegmentWaitMs } from '../../shared/cmaf/cmaf-options.js';
import type { CmafPackager } from '../../shared/cmaf/cmaf-packager.js';
import { CmafRegistry, type CmafRegistryOptions } from '../../shared/cmaf/cmaf-registry.js';
import { blockingTimeoutMs, serveCmafPath } from '../../shared/cmaf/cmaf-resources.js';
import type { CmafStatus } from '../../shared/cmaf/cmaf-status.js';
import type { CmafTrackName } from '../../shared/cmaf/cmaf-types.js';
import { CACHE_LIVE_PLAYLIST, errorResponse, type PlayRequest, type PlayResponse } from '../../shared/http-types.js';
import { noSegmentYet } from '../../shared/packaged-streams.js';
import { parseDirectives, satisfies, tooFarAhead } from './blocking-reload.js';
import { renderLlHlsMediaPlaylist } from './llhls-media-playlist.js';
import { renderLlHlsMultivariant } from './llhls-multivariant.js';
import { PlaylistCache } from './playlist-cache.js';

/** Options of the LL-HLS service. */
export interface LlHlsOptions extends CmafRegistryOptions {
  /** How long a playlist request waits for a new stream's first segment (default: max segment length). */
  readonly firstSegmentWaitMs?: number;
  /**
   * Fetches a path under `/play/` through the cache in front of this node and resolves once it
   * is done (or given up). With it, a public playlist that lists a new part is answered only after
   * that part went through the cache once, so the viewers released together find it cached
   * (ADR 0083).
   */
  readonly warmThroughCache?: (path: string) => Promise<void>;
}

/** Content-Type of HLS playlists (RFC 8216bis §4). */
export const LLHLS_PLAYLIST_TYPE = 'application/vnd.apple.mpegurl';

const MEDIA_PLAYLISTS: Readonly<Record<string, CmafTrackName>> = { 'video.m3u8': 'video', 'audio.m3u8': 'audio' };

/** Serves LL-HLS for every stream of a hub. */
export class LlHlsService {
  /** The packagers this service reads (shared with the DASH service of the same hub). */
  readonly registry: CmafRegistry;
  private readonly firstSegmentWaitMs: number | undefined;
  private readonly cache = new PlaylistCache();
  private readonly warmThroughCache: ((path: string) => Promise<void>) | undefined;

  constructor(hub: Hub, options: LlHlsOptions = {}) {
    this.registry = CmafRegistry.forHub(hub, options);
    this.firstSegmentWaitMs = options.firstSegmentWaitMs;
    this.warmThroughCache = options.warmThroughCache;
  }

  /** Answers one request under `/play/<id>/cmaf/` (everything but the DASH manifest). */
  async handle(req: PlayRequest): Promise<PlayResponse> {
    const entry = this.registry.forViewer(req, 'llhls');
    if ('status' in entry) {
      return entry;
    }
    const { packager } = entry;
    if (req.path === 'index.m3u8') {
      return this.multivariant(packager, req);
    }
    const trackName = MEDIA_PLAYLISTS[req.path];
    if (trackName) {
      return this.mediaPlaylist(packager, trackName, req);
    }
    return serveCmafPath(packager, req.path, 'LL-HLS', req.signal);
  }

  /** Measurements and state of one stream, or undefined when the service does not know it. */
  status(playbackId: string): CmafStatus | undefined {
    return this.registry.status(playbackId);
  }

  private async multivariant(packager: CmafPackager, req: PlayRequest): Promise<PlayResponse> {
    await packager.waitFor(() => packager.ready, this.firstWait(packager), req.signal);
    if (!packager.ready) {
      return noSegmentYet(packager, req.playbackId);
    }
    const measured = packager.measurements();
    const video = packager.track('video')?.track;
    const audio = packager.track('audio')?.track;
    const body = renderLlHlsMultivariant({
      video: video?.kind === 'video' ? video : undefined,
      audio: audio?.kind === 'audio' ? audio : undefined,
      bandwidth: measured.peakBandwidth ?? 1,
      averageBandwidth: measured.averageBandwidth,
      frameRate: (video?.kind === 'video' ? video.fps : undefined) ?? measured.fps,
      uriQuery: req.uriQuery,
    });
    return body ? playlist(body) : noSegmentYet(packager, req.playbackId);
  }

  private async mediaPlaylist(packager: CmafPackager, name: CmafTrackName, req: PlayRequest): Promise<PlayResponse> {
    const writer = packager.track(name);
    if (!writer) {
      return errorResponse(404, 'resource_not_found', `this stream has no ${name} track`);
    }
    const parsed = parseDirectives(req.query);
    if (!parsed.ok) {
      return errorResponse(400, 'bad_directive', parsed.reason);
    }
    const directives = parsed.value;
    await packager.waitFor(() => writer.segments.length > 0, this.firstWait(packager), req.signal);
    if (writer.segments.length === 0) {
      return noSegmentYet(packager, req.playbackId);
    }
    const partTarget = packager.partTargetOf(writer);
    if (packager.ended === undefined) {
      const ahead = tooFarAhead(writer, directives, partTarget);
      if (ahead) {
        return errorResponse(400, 'too_far_ahead', ahead);
      }
      await packager.waitFor(() => satisfies(writer, directives), blockingTimeoutMs(packager), req.signal);
      // Only URIs without a query are shared by every viewer (a token or session gives its own).
      if (this.warmThroughCache && !req.uriQuery && writer.nextPart > 0) {
        await this.warmThroughCache(`/play/${req.playbackId}/cmaf/${partName(name, writer.nextPart - 1)}`);
      }
    }
    const other: CmafTrackName = name === 'video' ? 'audio' : 'video';
    const otherWriter = packager.track(other);
    const body = this.cache.get(writer, directives.skip ? 'delta' : 'full', packager.version, req.uriQuery, (slot) =>
      renderLlHlsMediaPlaylist(writer, {
        targetDuration: packager.targetDuration,
        partTarget,
        ended: packager.ended !== undefined,
        skip: directives.skip,
        uriQuery: slot,
        reports: otherWriter ? [{ uri: `${other}.m3u8`, writer: otherWriter }] : [],
      }),
    );
    return playlist(body);
  }

  private firstWait(packager: CmafPackager): number {
    return firstSegmentWaitMs(packager.options, this.firstSegmentWaitMs);
  }
}

function playlist(body: string): PlayResponse {
  return { status: 200, headers: { 'content-type': LLHLS_PLAYLIST_TYPE, 'cache-control': CACHE_LIVE_PLAYLIST }, body };
}
