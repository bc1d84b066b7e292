/** Routes a path under `/play/<id>/cmaf/` to the DASH or the LL-HLS service of the CMAF packager. */

/** Which service answers a CMAF path: DASH manifests go to DASH, everything else to LL-HLS. */
export function cmafTarget(path: string): 'dash' | 'llhls' {
  return path.endsWith('.mpd') ? 'dash' : 'llhls';
}
