/** Routes a path under `/play/<id>/cmaf/` to the DASH or the LL-HLS service of the CMAF packager. */
import { DashService } from '@airwave/media/protocols/dash/dash-service';

/**
 * Which service answers a CMAF path: the MPD goes to DASH, everything else (playlists, init
 * segments, segments and parts, which both list) to LL-HLS.
 */
export function cmafTarget(path: string): 'dash' | 'llhls' {
  return DashService.owns(path) ? 'dash' : 'llhls';
}
