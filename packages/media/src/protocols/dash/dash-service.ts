/**
 * Live DASH (ISO/IEC 23009-1) over the CMAF packager, under `/play/<id>/cmaf/`: `index.mpd` and
 * the CMAF init segments and segments it lists (the same files LL-HLS lists).
 */
import type { Hub } from '../../hub/hub.js';
import { firstSegmentWaitMs } from '../shared/cmaf/cmaf-options.js';
import { CmafRegistry, type CmafRegistryOptions } from '../shared/cmaf/cmaf-registry.js';
import { serveCmafPath } from '../shared/cmaf/cmaf-resources.js';
import type { CmafStatus } from '../shared/cmaf/cmaf-status.js';
import { CACHE_LIVE_PLAYLIST, type PlayRequest, type PlayResponse } from '../shared/http-types.js';
import { noSegmentYet } from '../shared/packaged-streams.js';
import { mpdReady, renderMpd } from './dash-mpd.js';

/** Options of the DASH service. */
export interface DashOptions extends CmafRegistryOptions {
  /** How long an MPD request waits for a new stream's first segment (default: max segment length). */
  readonly firstSegmentWaitMs?: number;
}

/** Content-Type of the MPD (ISO/IEC 23009-1 Annex C). */
export const DASH_MPD_TYPE = 'application/dash+xml';
/** Path of the MPD under `/play/<id>/cmaf/`. */
export const DASH_MPD_PATH = 'index.mpd';

/** Serves DASH for every stream of a hub. */
export class DashService {
  /** The packagers this service reads (shared with the LL-HLS service of the same hub). */
  readonly registry: CmafRegistry;
  private readonly firstSegmentWaitMs: number | undefined;

  constructor(hub: Hub, options: DashOptions = {}) {
    this.registry = CmafRegistry.forHub(hub, options);
    this.firstSegmentWaitMs = options.firstSegmentWaitMs;
  }

  /** True for the paths this service must answer (the MPD); LL-HLS answers the rest of `cmaf/`. */
  static owns(path: string): boolean {
    return path === DASH_MPD_PATH;
  }

  /** Answers one request under `/play/<id>/cmaf/` (the MPD or a CMAF file). */
  async handle(req: PlayRequest): Promise<PlayResponse> {
    const entry = this.registry.forViewer(req, 'dash');
    if ('status' in entry) {
      return entry;
    }
    const { packager } = entry;
    if (req.path === DASH_MPD_PATH) {
      const wait = firstSegmentWaitMs(packager.options, this.firstSegmentWaitMs);
      await packager.waitFor(() => mpdReady(packager), wait, req.signal);
      if (!mpdReady(packager)) {
        return noSegmentYet(packager, req.playbackId);
      }
      const body = renderMpd(packager, { uriQuery: req.uriQuery, nowMs: packager.options.now() });
      return { status: 200, headers: { 'content-type': DASH_MPD_TYPE, 'cache-control': CACHE_LIVE_PLAYLIST }, body };
    }
    return serveCmafPath(packager, req.path, 'DASH', req.signal);
  }

  /** Measurements and state of one stream, or undefined when the service does not know it. */
  status(playbackId: string): CmafStatus | undefined {
    return this.registry.status(playbackId);
  }
}
