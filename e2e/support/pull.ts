/**
 * Test support for pulled streams: create a PULL stream, read its status, pull state and events
 * through GraphQL, and check that its LL-HLS and progressive-MP4 outputs decode in ffprobe with
 * the expected codecs.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '@airwave/server/testing/test-server';
import { registerAccount } from './accounts.js';
import { byType, probeStreams } from './ffmpeg.js';
import { readFor } from './http.js';
import { waitFor } from './processes.js';

/** What a PULL stream reads back. */
export interface PulledStream {
  id: string;
  playbackId: string;
  metrics: {
    status: string;
    isLive: boolean;
    pull: { state: string; attempt: number; failures: number; lastError: string | null; nodeId: string } | null;
  };
  tracks: { trackType: string; codec: string }[];
  pullSource: { sourceUriRedacted: string; class: string; enabled: boolean; onDemand: boolean } | null;
  recentPullSourceEvents: { eventKind: string; attempt: number; message: string; address: string | null }[];
}

const FIELDS = `id playbackId
  metrics { status isLive pull { state attempt failures lastError nodeId } }
  tracks { trackType codec }
  pullSource { sourceUriRedacted class enabled onDemand }
  recentPullSourceEvents(limit: 20) { eventKind attempt message address }`;

/** A server that pulls private (loopback) sources and retries within 2 s, and an account's token on it. */
export async function startPullServer(
  label: string,
  env: Record<string, string> = {},
): Promise<{ server: TestServer; token: string }> {
  const server = await startTestServer(undefined, {
    AIRWAVE_ALLOW_PRIVATE_PULL_SOURCES: 'true',
    AIRWAVE_PULL_RETRY_MAX_SECONDS: '2',
    ...env,
  });
  return { server, token: (await registerAccount(server, label)).token };
}

/** Creates a PULL stream; returns it, or the ValidationError's field, constraint and message. */
export async function createPullStream(
  server: TestServer,
  token: string,
  sourceUri: string,
  options: { onDemand?: boolean; name?: string } = {},
): Promise<PulledStream | { __typename: 'ValidationError'; field: string; constraint: string; message: string }> {
  const response = await server.graphql<{ createStream: Record<string, unknown> }>(
    `mutation ($input: CreateStreamInput!) { createStream(input: $input) {
      __typename ... on Stream { ${FIELDS} } ... on ValidationError { field constraint message }
    } }`,
    {
      input: {
        name: options.name ?? 'pulled',
        ingestMode: 'PULL',
        pullSource: { sourceUri, ...(options.onDemand ? { onDemand: true } : {}) },
        sourceLocation: 'test',
      },
    },
    token,
  );
  assert.equal(response.errors, undefined, JSON.stringify(response.errors));
  const result = response.data?.createStream;
  assert.ok(result);
  return result as unknown as PulledStream;
}

/** Reads a stream with its pull state and events. */
export async function readPulledStream(server: TestServer, token: string, id: string): Promise<PulledStream> {
  const response = await server.graphql<{ stream: PulledStream }>(
    `query ($id: ID!) { stream(id: $id) { ${FIELDS} } }`,
    { id },
    token,
  );
  assert.equal(response.errors, undefined, JSON.stringify(response.errors));
  assert.ok(response.data?.stream);
  return response.data.stream;
}

/** Waits until the stream is LIVE with `tracks` tracks, pulling, and its connection recorded; fails with what it last read. */
export async function waitPulling(
  server: TestServer,
  token: string,
  id: string,
  tracks = 2,
  timeoutMs = 30_000,
): Promise<PulledStream> {
  let last: PulledStream | undefined;
  try {
    return await waitFor(
      'the pulled stream LIVE and PULLING',
      async () => {
        last = await readPulledStream(server, token, id);
        const pulling = last.metrics.status === 'LIVE' && last.metrics.pull?.state === 'PULLING';
        const recorded = last.recentPullSourceEvents[0]?.eventKind === 'connected';
        return pulling && recorded && last.tracks.length === tracks ? last : undefined;
      },
      timeoutMs,
    );
  } catch (error) {
    throw new Error(`${(error as Error).message}; last read: ${JSON.stringify(last)}`);
  }
}

/** The LL-HLS playlist and a few seconds of progressive MP4 decode with these codecs. */
export async function assertOutputsDecode(
  server: TestServer,
  playbackId: string,
  dir: string,
  codecs: { video: string; audio?: string },
): Promise<void> {
  const llhls = await probeStreams(`${server.baseUrl}/play/${playbackId}/cmaf/index.m3u8`, [
    '-read_intervals',
    '%+#20',
  ]);
  assert.equal(byType(llhls, 'video').codec_name, codecs.video, 'LL-HLS video codec');
  if (codecs.audio) {
    assert.equal(byType(llhls, 'audio').codec_name, codecs.audio, 'LL-HLS audio codec');
  }
  assert.ok(Number(byType(llhls, 'video').nb_read_frames) > 0, 'LL-HLS video frames decode');
  const mp4 = await readFor(`${server.baseUrl}/play/${playbackId}.mp4`, 2_500);
  const file = join(dir, `${playbackId}.mp4`);
  writeFileSync(file, mp4);
  const progressive = await probeStreams(file);
  assert.equal(byType(progressive, 'video').codec_name, codecs.video, 'MP4 video codec');
  assert.ok(Number(byType(progressive, 'video').nb_read_frames) > 0, 'MP4 video frames decode');
  if (codecs.audio) {
    assert.equal(byType(progressive, 'audio').codec_name, codecs.audio, 'MP4 audio codec');
  }
}
