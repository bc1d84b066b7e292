/**
 * A minimal LL-HLS viewer (RFC 8216bis §6.2.5.2 blocking playlist reload, §4.4.4.9 EXT-X-PART,
 * §4.4.5.3 EXT-X-PRELOAD-HINT) for load generation: it reloads the video media playlist with
 * `_HLS_msn`/`_HLS_part` for the part after the newest it has, then downloads every new part over
 * a keep-alive connection, and records when each part's playlist and bytes arrived. With
 * `preloadHint` it also requests the hinted part alongside each blocking reload (as Apple's
 * players do), so a part is on its way when it is published, not one playlist round trip later.
 */
import { type Agent, get } from 'node:http';
import { fragmentTiming } from './fmp4-timing.js';
import { type Fetched, KeepAliveConnection } from './keep-alive-client.js';
import { wallNow } from './paced-publisher.js';

/** One response as a viewer receives it (see keep-alive-client.ts). */
export type { Fetched } from './keep-alive-client.js';

/** GET over `agent`, resolving once the whole body arrived; keeps about `keepBytes` of it. */
export function httpGet(url: string, agent: Agent, keepBytes = Number.POSITIVE_INFINITY): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const request = get(url, { agent }, (response) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      let length = 0;
      response.on('data', (chunk: Buffer) => {
        length += chunk.length;
        if (kept < keepBytes) {
          chunks.push(chunk);
          kept += chunk.length;
        }
      });
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks), length, at: wallNow() }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

/** Bytes of a part kept for its timing: styp + moof come first and are far smaller. */
const PART_HEAD_BYTES = 16 * 1024;

/** One part as listed in a media playlist. */
interface ListedPart {
  readonly msn: number;
  readonly index: number;
  readonly uri: string;
}

/** The part preload hint of a media playlist (its URI), if it has one. */
export function preloadHint(playlist: string): string | undefined {
  return /#EXT-X-PRELOAD-HINT:TYPE=PART,URI="([^"]+)"/.exec(playlist)?.[1];
}

/** The parts of a media playlist in order, with their segment's media sequence number. */
export function listedParts(playlist: string): ListedPart[] {
  let msn = Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(playlist)?.[1] ?? 0);
  let index = 0;
  const parts: ListedPart[] = [];
  for (const line of playlist.split('\n')) {
    if (line.startsWith('#EXT-X-PART:')) {
      const uri = /URI="([^"]+)"/.exec(line)?.[1];
      if (uri) {
        parts.push({ msn, index, uri });
      }
      index++;
    } else if (line.startsWith('#EXT-X-SKIP:')) {
      msn += Number(/SKIPPED-SEGMENTS=(\d+)/.exec(line)?.[1] ?? 0);
    } else if (line !== '' && !line.startsWith('#')) {
      msn++;
      index = 0;
    }
  }
  return parts;
}

/**
 * What the viewers of a process recorded, three numbers per delivered part: its end decode time
 * (track timescale, just after its last sample), when the playlist that first listed it arrived
 * and when its bytes had fully arrived. A flat array of numbers, not an object per part: a
 * thousand viewers log 2,000 parts a second, and a growing heap of small objects kept the load
 * generator's garbage collector marking a third of its time.
 */
export class PartLog {
  /** [end, playlistAt, partAt] per part, in arrival order. */
  readonly values: number[] = [];

  /** Parts logged. */
  get count(): number {
    return this.values.length / 3;
  }

  /** Logs one delivered part. */
  add(end: number, playlistAt: number, partAt: number): void {
    this.values.push(end, playlistAt, partAt);
  }

  /** Forgets every part logged so far. */
  clear(): void {
    this.values.length = 0;
  }
}

/** A media playlist as a viewer reads it. */
interface ReadPlaylist {
  readonly parts: readonly ListedPart[];
  /** The part preload hint: its path (and query) on the origin. */
  readonly hint: string | undefined;
  /** Path (and query) of each listed part on the origin, by URI. */
  readonly paths: ReadonlyMap<string, string>;
}

/** Path and query of `uri` resolved against `base`. */
function pathOf(uri: string, base: string): string {
  const url = new URL(uri, base);
  return `${url.pathname}${url.search}`;
}

/** Most parsed playlists kept; the oldest goes first. */
const PLAYLISTS_KEPT = 8;

/**
 * Shared state of the viewers of one process: part timing parsed once per URI and each playlist
 * body parsed once. The viewers stand for players on separate machines, each parsing only its own
 * copy; parsing the same bytes a thousand times on the load generator's one thread would delay the
 * part requests of the last viewers by the load generator's own work, not the server's.
 */
export class PartTimingCache {
  private readonly ends = new Map<string, number>();
  /** Recently parsed playlist bodies, newest first (viewers released by one part share a body). */
  private readonly playlists: { readonly body: Buffer; readonly read: ReadPlaylist }[] = [];

  /** End decode time of the part at `path` (tfdt + the sum of its trun durations), from its first bytes. */
  endOf(path: string, head: Uint8Array): number {
    let end = this.ends.get(path);
    if (end === undefined) {
      const traf = fragmentTiming(leadingBoxes(head))[0];
      end = traf ? traf.baseDecodeTime + traf.durations.reduce((sum, duration) => sum + duration, 0) : Number.NaN;
      this.ends.set(path, end);
    }
    return end;
  }

  /** Bytes of the part at `path` a viewer must keep: its head until one viewer's copy was parsed. */
  keepOf(path: string): number {
    return this.ends.has(path) ? 0 : PART_HEAD_BYTES;
  }

  /** The parts, hint and part paths of a playlist body fetched from `playlistUrl`. */
  read(body: Buffer, playlistUrl: string): ReadPlaylist {
    const known = this.playlists.find((entry) => entry.body.equals(body));
    if (known) {
      return known.read;
    }
    const text = body.toString('utf8');
    const parts = listedParts(text);
    const hint = preloadHint(text);
    const read: ReadPlaylist = {
      parts,
      hint: hint === undefined ? undefined : pathOf(hint, playlistUrl),
      paths: new Map(parts.map((part) => [part.uri, pathOf(part.uri, playlistUrl)])),
    };
    this.playlists.unshift({ body, read });
    this.playlists.length = Math.min(this.playlists.length, PLAYLISTS_KEPT);
    return read;
  }
}

/** GETs of one viewer by path on the playlist's origin. */
type Getter = (path: string, keepBytes?: number) => Promise<Fetched>;

/**
 * Runs one viewer of `playlistUrl` until `until` (Date.now() ms), logging each part to `log`: over
 * `agent` when given, else over its own lean keep-alive connections (keep-alive-client.ts).
 */
export async function runLlHlsViewer(options: {
  readonly playlistUrl: string;
  readonly agent?: Agent;
  readonly until: number;
  readonly cache: PartTimingCache;
  readonly log: PartLog;
  readonly onError: (error: string) => void;
  /** Request the preload-hinted part together with each blocking reload. */
  readonly preloadHint?: boolean;
}): Promise<void> {
  const { playlistUrl, agent, until, cache, log, onError } = options;
  const origin = new URL(playlistUrl);
  const playlistPath = origin.pathname;
  const connections: KeepAliveConnection[] = [];
  const getter = (): Getter => {
    if (agent) {
      return (path, keepBytes) => httpGet(`${origin.origin}${path}`, agent, keepBytes);
    }
    const connection = new KeepAliveConnection(origin.hostname, Number(origin.port || 80));
    connections.push(connection);
    return (path, keepBytes) => connection.get(path, keepBytes);
  };
  const fetch = getter();
  const fetchHint = options.preloadHint ? getter() : undefined;
  let newest: ListedPart | undefined;
  let hint: string | undefined;
  try {
    while (Date.now() < until) {
      const path = newest ? `${playlistPath}?_HLS_msn=${newest.msn}&_HLS_part=${newest.index + 1}` : playlistPath;
      const hintPath = hint;
      const hinted =
        fetchHint && hintPath
          ? fetchHint(hintPath, cache.keepOf(hintPath)).then(
              (fetched) => ({ path: hintPath, fetched }),
              (error: unknown) => {
                onError(`hinted part: ${String(error)}`);
                return undefined;
              },
            )
          : undefined;
      let playlist: Fetched;
      try {
        playlist = await fetch(path);
      } catch (error) {
        onError(`playlist: ${String(error)}`);
        await hinted;
        await new Promise((resolve) => setTimeout(resolve, 200));
        continue;
      }
      if (playlist.status !== 200) {
        onError(`playlist answered ${playlist.status}`);
        await hinted;
        await new Promise((resolve) => setTimeout(resolve, 200));
        continue;
      }
      const read = cache.read(playlist.body, playlistUrl);
      const last = read.parts.at(-1);
      const early = await hinted;
      hint = read.hint;
      if (!last) {
        continue;
      }
      const fresh = newest ? read.parts.slice(read.parts.findIndex((part) => part.uri === newest?.uri) + 1) : [];
      newest = last;
      for (const part of fresh) {
        const partPath = read.paths.get(part.uri) ?? pathOf(part.uri, playlistUrl);
        try {
          const fetched =
            early?.path === partPath && early.fetched.status === 200
              ? early.fetched
              : await fetch(partPath, cache.keepOf(partPath));
          if (fetched.status !== 200) {
            onError(`part answered ${fetched.status}`);
            continue;
          }
          log.add(cache.endOf(partPath, fetched.body), playlist.at, fetched.at);
        } catch (error) {
          onError(`part: ${String(error)}`);
        }
      }
    }
  } finally {
    for (const connection of connections) {
      connection.close();
    }
  }
}

/** Polls a media playlist until it lists a part preload hint (the stream is packaged); returns it. */
export async function waitForLlHls(url: string, deadline: number): Promise<string> {
  while (Date.now() < deadline) {
    const response = await fetch(url).catch(() => undefined);
    const text = response ? await response.text() : '';
    if (response?.status === 200 && text.includes('#EXT-X-PRELOAD-HINT')) {
      return text;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not list a preload hint in time`);
}

/** The complete top-level boxes at the start of `bytes` (a part cut short after its moof). */
function leadingBoxes(bytes: Uint8Array): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 0;
  while (offset + 8 <= bytes.length) {
    const size = view.getUint32(offset);
    if (size < 8 || offset + size > bytes.length) {
      break;
    }
    offset += size;
  }
  return bytes.subarray(0, offset);
}
