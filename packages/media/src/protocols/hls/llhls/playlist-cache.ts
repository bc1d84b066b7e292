/**
 * Rendered LL-HLS media playlists (RFC 8216bis) cached per track state, so a thousand viewers
 * released by one new part cost one render. The viewer's query (a per-viewer token) is filled
 * into a slot on the way out.
 */
import type { CmafTrackWriter } from '../../shared/cmaf/cmaf-track-writer.js';
import { withUriQuery } from '../../shared/http-types.js';

/** Stands for the viewer's query in a cached body; cannot occur in playlist text. */
export const QUERY_SLOT = '\u0000uri-query\u0000';

/** Most viewer queries whose filled playlist is kept per entry; past it the map starts over. */
const FILLED_MAX = 64;

interface Cached {
  readonly version: number;
  readonly body: string;
  /**
   * The body filled per viewer query ('' for none): viewers that share a query (every viewer of a
   * public stream) get the same string, so it is not rebuilt, re-hashed and re-encoded per request.
   */
  readonly filled: Map<string, string>;
}

/** Cache of rendered playlists, keyed by track, variant (full or delta) and packager version. */
export class PlaylistCache {
  private readonly entries = new WeakMap<CmafTrackWriter, Map<string, Cached>>();

  /** The playlist for `uriQuery`, rendered with `render(slotQuery)` unless cached at `version`. */
  get(
    writer: CmafTrackWriter,
    variant: string,
    version: number,
    uriQuery: string | undefined,
    render: (slotQuery: string) => string,
  ): string {
    let byVariant = this.entries.get(writer);
    if (!byVariant) {
      byVariant = new Map();
      this.entries.set(writer, byVariant);
    }
    let cached = byVariant.get(variant);
    if (cached?.version !== version) {
      cached = { version, body: render(QUERY_SLOT), filled: new Map() };
      byVariant.set(variant, cached);
    }
    const key = uriQuery ?? '';
    let filled = cached.filled.get(key);
    if (filled === undefined) {
      filled = fillQuery(cached.body, uriQuery);
      if (cached.filled.size >= FILLED_MAX) {
        cached.filled.clear();
      }
      cached.filled.set(key, filled);
    }
    return filled;
  }
}

/** Replaces every slot URI suffix with the viewer's query (or nothing). */
export function fillQuery(body: string, uriQuery: string | undefined): string {
  const slotted = withUriQuery('', QUERY_SLOT);
  return body.replaceAll(slotted, () => withUriQuery('', uriQuery));
}
