/**
 * VOD upload client for e2e tests and benchmarks, the way a browser or script uploads: create the
 * session over GraphQL, PUT every part to its presigned URL with fetch, complete with the ETags,
 * then wait for the asset to settle. Plus a test video made by ffmpeg.
 */
import { execFile } from 'node:child_process';
import { openAsBlob, statSync } from 'node:fs';
import { basename } from 'node:path';
import { promisify } from 'node:util';
import type { TestServer } from '@airwave/server/testing/test-server';

const run = promisify(execFile);

/** What the helpers use of a server: its origin and GraphQL (a TestServer, or a bench's child process). */
export type VodServer = Pick<TestServer, 'baseUrl' | 'graphql'>;

/** The session createVodUpload answers. */
export interface VodSession {
  readonly id: string;
  readonly artifactId: string;
  readonly artifactHash: string;
  readonly playbackId: string;
  readonly partSize: number;
  readonly parts: { partNumber: number; presignedUrl: string }[];
  readonly expiresAt: string;
}

/** Fields of a VodAsset the tests read. */
export const VOD_ASSET_FIELDS = `id artifactHash playbackId status progressPercent sizeBytes storedBytes durationMs resolution
  videoCodec audioCodec errorMessage storageLocation outputs manifestPath thumbnailUrl filename title`;

/** A VodAsset as the tests read it. */
export interface VodAssetView {
  id: string;
  artifactHash: string;
  playbackId: string;
  status: string;
  progressPercent: number;
  sizeBytes: number;
  storedBytes: number | null;
  durationMs: number | null;
  resolution: string | null;
  videoCodec: string | null;
  audioCodec: string | null;
  errorMessage: string | null;
  storageLocation: string;
  outputs: string[];
}

const CREATE = `mutation ($input: CreateVodUploadInput!) {
  createVodUpload(input: $input) {
    __typename
    ... on VodUploadSession { id artifactId artifactHash playbackId partSize parts { partNumber presignedUrl } expiresAt }
    ... on ValidationError { message field constraint }
    ... on AuthError { message }
  }
}`;
const COMPLETE = `mutation ($input: CompleteVodUploadInput!) {
  completeVodUpload(input: $input) {
    __typename
    ... on VodAsset { ${VOD_ASSET_FIELDS} }
    ... on Error { message code }
    ... on ValidationError { field constraint }
  }
}`;
const ASSET = `query ($id: ID!) { vodAsset(id: $id) { ${VOD_ASSET_FIELDS} } }`;

/** GraphQL over HTTP to a server known by its origin (a child process), as the helpers want it. */
export function httpServer(baseUrl: string): VodServer {
  return {
    baseUrl,
    graphql: async <T>(query: string, variables?: Record<string, unknown>, token?: string) => {
      const response = await fetch(`${baseUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ query, variables }),
      });
      const body = (await response.json()) as { data: T | null; errors?: [] };
      return { status: response.status, data: body.data, errors: body.errors, headers: response.headers };
    },
  };
}

/** Calls createVodUpload; answers the union member. */
export async function createVodUpload(
  server: VodServer,
  token: string,
  input: Record<string, unknown>,
): Promise<Record<string, unknown> & { __typename: string }> {
  const response = await server.graphql<{ createVodUpload: Record<string, unknown> & { __typename: string } }>(
    CREATE,
    { input },
    token,
  );
  if (!response.data) {
    throw new Error(`createVodUpload: ${JSON.stringify(response.errors)}`);
  }
  return response.data.createVodUpload;
}

/** PUTs every part of `file` to its URL (`parallel` at once) as a slice of the file, the way a browser sends `File.slice`; answers the parts with their ETags. */
export async function putParts(
  file: string,
  session: VodSession,
  parallel = 4,
): Promise<{ partNumber: number; etag: string }[]> {
  const blob = await openAsBlob(file);
  const etags: { partNumber: number; etag: string }[] = [];
  let next = 0;
  const worker = async () => {
    while (next < session.parts.length) {
      const part = session.parts[next++] as VodSession['parts'][number];
      const offset = (part.partNumber - 1) * session.partSize;
      const response = await fetch(part.presignedUrl, {
        method: 'PUT',
        body: blob.slice(offset, offset + session.partSize),
      });
      if (!response.ok) {
        throw new Error(`part ${part.partNumber}: HTTP ${response.status} ${await response.text()}`);
      }
      etags.push({ partNumber: part.partNumber, etag: response.headers.get('etag') ?? '' });
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return etags.sort((a, b) => a.partNumber - b.partNumber);
}

/** Calls completeVodUpload; answers the union member. */
export async function completeVodUpload(
  server: VodServer,
  token: string,
  uploadId: string,
  parts: { partNumber: number; etag: string }[],
): Promise<Record<string, unknown> & { __typename: string }> {
  const response = await server.graphql<{ completeVodUpload: Record<string, unknown> & { __typename: string } }>(
    COMPLETE,
    { input: { uploadId, parts } },
    token,
  );
  if (!response.data) {
    throw new Error(`completeVodUpload: ${JSON.stringify(response.errors)}`);
  }
  return response.data.completeVodUpload;
}

/** Polls vodAsset until `done` holds of it (or `timeoutMs` passes). */
async function pollAsset(
  server: VodServer,
  token: string,
  id: string,
  timeoutMs: number,
  done: (asset: VodAssetView) => boolean,
): Promise<VodAssetView> {
  const deadline = Date.now() + timeoutMs;
  let last: VodAssetView | null = null;
  while (Date.now() < deadline) {
    const response = await server.graphql<{ vodAsset: VodAssetView | null }>(ASSET, { id }, token);
    last = response.data?.vodAsset ?? null;
    if (last && done(last)) {
      return last;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`asset ${id} did not settle: ${JSON.stringify(last)}`);
}

/** Polls vodAsset until it leaves PROCESSING: READY (playable, outputs may still follow) or FAILED. */
export function waitSettled(server: VodServer, token: string, id: string, timeoutMs = 180_000): Promise<VodAssetView> {
  return pollAsset(
    server,
    token,
    id,
    timeoutMs,
    (asset) => asset.status !== 'PROCESSING' && asset.status !== 'UPLOADING',
  );
}

/** Polls vodAsset until processing is over: READY with every output (100 %), or FAILED. */
export function waitProcessed(
  server: VodServer,
  token: string,
  id: string,
  timeoutMs = 180_000,
): Promise<VodAssetView> {
  return pollAsset(
    server,
    token,
    id,
    timeoutMs,
    (asset) =>
      asset.status !== 'PROCESSING' &&
      asset.status !== 'UPLOADING' &&
      (asset.status !== 'READY' || asset.progressPercent === 100),
  );
}

/** The VOD rows of storageArtifactsConnection (default kinds) as the tests read them. */
export async function vodArtifacts(
  server: VodServer,
  token: string,
): Promise<
  {
    key: string;
    kind: string;
    id: string;
    playbackId: string;
    streamId: string | null;
    status: string;
    sizeBytes: number;
  }[]
> {
  const response = await server.graphql<{ storageArtifactsConnection: { nodes: { kind: string }[] } }>(
    `{ storageArtifactsConnection(input: { first: 500 }) { nodes { key kind id playbackId streamId status sizeBytes } } }`,
    {},
    token,
  );
  const nodes = response.data?.storageArtifactsConnection.nodes;
  if (!nodes) {
    throw new Error(`storageArtifactsConnection: ${JSON.stringify(response.errors)}`);
  }
  return nodes.filter((node) => node.kind === 'VOD') as Awaited<ReturnType<typeof vodArtifacts>>;
}

/** Uploads a file in parts, completes it and waits until processing is over; answers the asset. */
export async function uploadVod(server: VodServer, token: string, file: string): Promise<VodAssetView> {
  const session = (await createVodUpload(server, token, {
    filename: basename(file),
    sizeBytes: statSync(file).size,
  })) as unknown as VodSession;
  await completeVodUpload(server, token, session.id, await putParts(file, session));
  return waitProcessed(server, token, session.artifactId);
}

/** Writes an H.264/AAC test video of about `megabytes` MB (720p, keyframe every 2 s) with ffmpeg. */
export async function makeTestVideo(
  path: string,
  seconds: number,
  megabytes: number,
  extra: readonly string[] = [],
): Promise<void> {
  const kbps = Math.round((megabytes * 8 * 1000) / seconds);
  await run(
    'ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-nostdin',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=1280x720:rate=30`,
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:sample_rate=48000',
      '-t',
      String(seconds),
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-g',
      '60',
      '-b:v',
      `${kbps}k`,
      '-minrate',
      `${kbps}k`,
      '-maxrate',
      `${kbps}k`,
      '-bufsize',
      `${kbps}k`,
      '-x264-params',
      'nal-hrd=cbr',
      '-c:a',
      'aac',
      '-b:a',
      '96k',
      ...extra,
      path,
    ],
    { timeout: 300_000 },
  );
}
