/**
 * Test support for the media e2e tests: the real server with an account and a stream, URLs of
 * its playback outputs, and playlist reading.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '@airwave/server/testing/test-server';
import { createStream, registerAccount } from './accounts.js';

/** One stream of the test account, with its ingest and playback addresses. */
export interface MediaStream {
  /** Global ID (the argument of `stream(id)`). */
  readonly streamId: string;
  readonly streamKey: string;
  readonly playbackId: string;
  /** `rtmp://127.0.0.1:<port>/live/<key>`. */
  readonly rtmpUrl: string;
  /** `rtmps://127.0.0.1:<port>/live/<key>` when the server listens for RTMPS. */
  readonly rtmpsUrl: string | undefined;
  /** `<base>/play/<playbackId><path>`, e.g. `playUrl('/hls/index.m3u8')` or `playUrl('.mp4')`. */
  playUrl(path?: string): string;
}

/** A started server with a signed-up owner and one stream. */
export interface MediaServer extends MediaStream {
  readonly server: TestServer;
  /** Session token of the owner. */
  readonly token: string;
  /** Creates another stream of the same owner. */
  addStream(name: string): Promise<MediaStream>;
  close(): Promise<void>;
}

/** Starts the real server (PGlite) with `env`, registers an owner and creates a stream. */
export async function startMediaServer(
  env: Record<string, string> = {},
  options: { dataDir?: string } = {},
): Promise<MediaServer> {
  const server = await startTestServer({ name: 'pglite' }, env, options);
  try {
    const { token } = await registerAccount(server, 'media');
    const describeStream = async (name: string): Promise<MediaStream> => {
      const created = await createStream(server, token, name);
      return streamAddresses(server, created.id, created.streamKey, created.playbackId);
    };
    const first = await describeStream('media e2e');
    return {
      ...first,
      server,
      token,
      addStream: describeStream,
      close: () => server.close(),
    };
  } catch (error) {
    await server.close();
    throw error;
  }
}

/** The addresses of a stream on a (possibly restarted) server. */
export function streamAddresses(
  server: TestServer,
  streamId: string,
  streamKey: string,
  playbackId: string,
): MediaStream {
  const { rtmp, rtmps } = server.running.ports;
  return {
    streamId,
    streamKey,
    playbackId,
    rtmpUrl: `rtmp://127.0.0.1:${rtmp}/live/${streamKey}`,
    rtmpsUrl: rtmps === undefined ? undefined : `rtmps://127.0.0.1:${rtmps}/live/${streamKey}`,
    playUrl: (path = '') => `${server.baseUrl}/play/${playbackId}${path}`,
  };
}

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

/** Writes `parts` concatenated to a temporary file, runs `use` on its path and removes it. */
export async function withTempFile<T>(
  name: string,
  parts: readonly Uint8Array[],
  use: (path: string) => Promise<T>,
): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'airwave-media-'));
  try {
    const path = join(dir, name);
    writeFileSync(path, Buffer.concat(parts));
    return await use(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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

/** The `stream(id)` fields the media tests read. */
export interface StreamState {
  readonly metrics: { status: string; isLive: boolean; startedAt: string | null; currentViewers: number };
  readonly tracks: {
    trackType: string;
    codec: string;
    width: number | null;
    height: number | null;
    fps: number | null;
    bitrateKbps: number | null;
    channels: number | null;
    sampleRate: number | null;
  }[];
}

/** Reads `stream(id) { metrics tracks }` through GraphQL as the owner. */
export async function streamState(media: MediaServer, streamId = media.streamId): Promise<StreamState> {
  const response = await media.server.graphql<{ stream: StreamState }>(
    `query ($id: ID!) { stream(id: $id) {
      metrics { status isLive startedAt currentViewers }
      tracks { trackType codec width height fps bitrateKbps channels sampleRate }
    } }`,
    { id: streamId },
    media.token,
  );
  assert.ok(response.data?.stream, `stream(id) failed: ${JSON.stringify(response)}`);
  return response.data.stream;
}
