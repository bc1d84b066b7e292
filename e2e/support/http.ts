/**
 * HTTP reading for e2e tests: GET a body (failing unless 200), read a live body for a while, and
 * the URIs, attributes and segment durations of an HLS playlist (RFC 8216).
 */
import assert from 'node:assert/strict';

/** GETs `url` and returns its body, failing with the body when the status is not 200. */
export async function fetchText(url: string, init: RequestInit = {}): Promise<string> {
  const response = await fetch(url, init);
  const body = await response.text();
  assert.equal(response.status, 200, `${url} answered ${response.status}: ${body}`);
  return body;
}

/** GETs `url` and returns its bytes, failing when the status is not 200. */
export async function fetchBytes(url: string): Promise<Uint8Array> {
  const response = await fetch(url);
  assert.equal(response.status, 200, `${url} answered ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** URI lines of a playlist (not tags), resolved against its URL. */
export function playlistUris(text: string, base: string): string[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => new URL(line, base).toString());
}

/** The EXTINF durations (seconds) of a media playlist, in order. */
export function segmentDurations(playlist: string): number[] {
  return [...playlist.matchAll(/#EXTINF:([\d.]+),/g)].map((match) => Number(match[1]));
}

/** The attributes of the first line starting with `tag` (e.g. `#EXT-X-STREAM-INF:`), parsed. */
export function tagAttributes(text: string, tag: string): Record<string, string> {
  const line = text.split('\n').find((candidate) => candidate.startsWith(tag));
  assert.ok(line, `no ${tag} in\n${text}`);
  const attributes: Record<string, string> = {};
  for (const match of line.slice(tag.length).matchAll(/([A-Z0-9-]+)=("[^"]*"|[^,]*)/g)) {
    attributes[match[1] as string] = (match[2] as string).replace(/^"|"$/g, '');
  }
  return attributes;
}

/** Reads a live (endless) HTTP body for `ms` milliseconds and returns what arrived. */
export async function readFor(url: string, ms: number, init: RequestInit = {}): Promise<Uint8Array> {
  const controller = new AbortController();
  const response = await fetch(url, { ...init, signal: controller.signal });
  assert.equal(response.status, 200, `${url} answered ${response.status}`);
  const chunks: Uint8Array[] = [];
  const timer = setTimeout(() => controller.abort(), ms);
  try {
    const reader = response.body?.getReader();
    assert.ok(reader, `${url} has no body`);
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        break;
      }
      chunks.push(value);
    }
  } catch (error) {
    if (!controller.signal.aborted) {
      throw error;
    }
  } finally {
    clearTimeout(timer);
  }
  return Buffer.concat(chunks);
}
