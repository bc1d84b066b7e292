/**
 * Test support for the media e2e tests: the real server with an account and a stream, URLs of
 * its playback outputs, waiting for HLS segments, and its stream state through GraphQL.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '@airwave/server/testing/test-server';
import { createStream, registerAccount } from './accounts.js';
import { fetchText, segmentDurations } from './http.js';
import { waitFor } from './processes.js';

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

/** Media sequence number of the newest segment of the classic HLS playlist. */
export async function lastHlsSequence(stream: MediaStream): Promise<number> {
  const playlist = await fetchText(stream.playUrl('/hls/stream.m3u8'));
  const first = Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(playlist)?.[1]);
  return first + segmentDurations(playlist).length - 1;
}

/** Waits until classic HLS lists `count` segments. */
export async function waitForSegments(stream: MediaStream, count: number, timeoutMs = 30_000): Promise<void> {
  await waitFor(
    `${count} HLS segments`,
    async () => {
      const response = await fetch(stream.playUrl('/hls/stream.m3u8'));
      return response.status === 200 && segmentDurations(await response.text()).length >= count;
    },
    timeoutMs,
    200,
  );
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
