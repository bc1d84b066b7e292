/**
 * Rewrites a pulled HLS playlist (RFC 8216 §4) so that every URI it names — media segments,
 * variant playlists, EXT-X-MAP, EXT-X-KEY, EXT-X-MEDIA, EXT-X-PART, EXT-X-PRELOAD-HINT and the
 * other `URI="…"` attributes — points at the guarded relay, resolved against the URL the playlist
 * finally came from. A URI of another scheme than http(s) refuses the playlist. A multivariant
 * playlist keeps only its highest-bandwidth variant (one rendition is pulled).
 */
import { PullRefusedError } from './address-guard.js';

/** Largest playlist accepted. */
export const MAX_PLAYLIST_BYTES = 1024 * 1024;

/** A rewritten playlist and the hosts of the URIs it names. */
export interface RewrittenPlaylist {
  readonly text: string;
  readonly hosts: ReadonlySet<string>;
  readonly multivariant: boolean;
}

const URI_ATTRIBUTE = /URI="([^"]*)"/g;

/** Whether the bytes look like an M3U8 playlist. */
export function isPlaylist(text: string): boolean {
  return text.replace(/^\uFEFF/, '').startsWith('#EXTM3U');
}

/** Rewrites every URI of `text` (fetched from `base`) with `relay`; throws PullRefusedError on a refused URI. */
export function rewritePlaylist(text: string, base: URL, relay: (absolute: URL) => string): RewrittenPlaylist {
  if (!isPlaylist(text)) {
    throw new PullRefusedError('blocked_uri', 'the playlist does not start with #EXTM3U');
  }
  const hosts = new Set<string>();
  const absolute = (uri: string): URL => {
    let url: URL;
    try {
      url = new URL(uri, base);
    } catch {
      throw new PullRefusedError('blocked_uri', 'the playlist names an invalid URI');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new PullRefusedError(
        'blocked_uri',
        `the playlist names a ${url.protocol.replace(/:$/, '')} URI; only http(s) URIs are pulled`,
      );
    }
    hosts.add(url.hostname.replace(/^\[|\]$/g, ''));
    return url;
  };
  const lines = keepBestVariant(text.replace(/^\uFEFF/, '').split(/\r?\n/));
  const out = lines.map((line) => {
    if (line.startsWith('#')) {
      return line.startsWith('#EXT')
        ? line.replace(URI_ATTRIBUTE, (_match, uri: string) => `URI="${relay(absolute(uri))}"`)
        : line;
    }
    return line.trim() === '' ? line : relay(absolute(line.trim()));
  });
  return { text: out.join('\n'), hosts, multivariant: lines.some((line) => line.startsWith('#EXT-X-STREAM-INF')) };
}

/** Lines of a multivariant playlist with one variant left (the highest BANDWIDTH); others as they are. */
function keepBestVariant(lines: string[]): string[] {
  let best = -1;
  let bestBandwidth = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.startsWith('#EXT-X-STREAM-INF')) {
      const bandwidth = Number(/[:,]BANDWIDTH=(\d+)/.exec(line)?.[1] ?? 0);
      if (bandwidth > bestBandwidth) {
        bestBandwidth = bandwidth;
        best = i;
      }
    }
  }
  if (best < 0) {
    return lines;
  }
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.startsWith('#EXT-X-I-FRAME-STREAM-INF')) {
      continue;
    }
    if (line.startsWith('#EXT-X-STREAM-INF') && i !== best) {
      i = nextUriLine(lines, i);
      continue;
    }
    out.push(line);
  }
  return out;
}

function nextUriLine(lines: readonly string[], from: number): number {
  for (let i = from + 1; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.trim() !== '' && !line.startsWith('#')) {
      return i;
    }
  }
  return lines.length;
}
