/**
 * A minimal LL-HLS viewer (RFC 8216bis §6.2.5.2 blocking playlist reload, §4.4.4.9 EXT-X-PART) for
 * load generation: it reloads the video media playlist with `_HLS_msn`/`_HLS_part` for the part
 * after the newest it has, then downloads every new part over a keep-alive connection, and
 * records when each part's playlist and bytes arrived.
 */
import { type Agent, get } from 'node:http';
import { fragmentTiming } from './fmp4-timing.js';
import { wallNow } from './paced-publisher.js';

/** One response: status, (the start of) its body and when its last byte arrived (wall-clock ms). */
export interface Fetched {
  readonly status: number;
  /** The body, or only its first chunks (at least `keepBytes`) when a limit was given. */
  readonly body: Buffer;
  /** Bytes received in all. */
  readonly length: number;
  readonly at: number;
}

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

/** What a viewer recorded for one part: its end decode time and arrival times. */
export interface PartRecord {
  /** Decode time (track timescale) just after the part's last sample. */
  readonly end: number;
  /** When the playlist that first listed it arrived. */
  readonly playlistAt: number;
  /** When the part's bytes had fully arrived. */
  readonly partAt: number;
}

/** Shared state of the viewers of one process: part timing parsed once per URI. */
export class PartTimingCache {
  private readonly ends = new Map<string, number>();

  /** End decode time of a part (tfdt + the sum of its trun durations), from its first bytes. */
  endOf(uri: string, head: Uint8Array): number {
    let end = this.ends.get(uri);
    if (end === undefined) {
      const traf = fragmentTiming(leadingBoxes(head))[0];
      end = traf ? traf.baseDecodeTime + traf.durations.reduce((sum, duration) => sum + duration, 0) : Number.NaN;
      this.ends.set(uri, end);
    }
    return end;
  }
}

/** Runs one viewer of `playlistUrl` until `until` (Date.now() ms), appending to `records`. */
export async function runLlHlsViewer(options: {
  readonly playlistUrl: string;
  readonly agent: Agent;
  readonly until: number;
  readonly cache: PartTimingCache;
  readonly records: PartRecord[];
  readonly onError: (error: string) => void;
}): Promise<void> {
  const { playlistUrl, agent, until, cache, records, onError } = options;
  let newest: ListedPart | undefined;
  while (Date.now() < until) {
    const url = newest ? `${playlistUrl}?_HLS_msn=${newest.msn}&_HLS_part=${newest.index + 1}` : playlistUrl;
    let playlist: Fetched;
    try {
      playlist = await httpGet(url, agent);
    } catch (error) {
      onError(`playlist: ${String(error)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      continue;
    }
    if (playlist.status !== 200) {
      onError(`playlist answered ${playlist.status}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      continue;
    }
    const parts = listedParts(playlist.body.toString('utf8'));
    const last = parts.at(-1);
    if (!last) {
      continue;
    }
    const fresh = newest ? parts.slice(parts.findIndex((part) => part.uri === newest?.uri) + 1) : [];
    newest = last;
    for (const part of fresh) {
      try {
        const fetched = await httpGet(new URL(part.uri, playlistUrl).toString(), agent, PART_HEAD_BYTES);
        if (fetched.status !== 200) {
          onError(`part answered ${fetched.status}`);
          continue;
        }
        records.push({ end: cache.endOf(part.uri, fetched.body), playlistAt: playlist.at, partAt: fetched.at });
      } catch (error) {
        onError(`part: ${String(error)}`);
      }
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
