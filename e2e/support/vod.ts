/**
 * VOD upload client for e2e tests and benchmarks, the way a browser or script uploads: create the
 * session over GraphQL, PUT every part to its presigned URL with fetch, complete with the ETags,
 * then wait for the asset to settle. Plus a test video made by ffmpeg.
 */
import { execFile } from 'node:child_process';
import { open } from 'node:fs/promises';
import { promisify } from 'node:util';
import type { TestServer } from '@airwave/server/testing/test-server';

const run = promisify(execFile);

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

/** Calls createVodUpload; answers the union member. */
export async function createVodUpload(
  server: TestServer,
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

/** PUTs every part of `file` to its URL (`parallel` at once); answers the parts with their ETags. */
export async function putParts(
  file: string,
  session: VodSession,
  parallel = 4,
): Promise<{ partNumber: number; etag: string }[]> {
  const handle = await open(file, 'r');
  const etags: { partNumber: number; etag: string }[] = [];
  let next = 0;
  try {
    const worker = async () => {
      while (next < session.parts.length) {
        const part = session.parts[next++] as VodSession['parts'][number];
        const offset = (part.partNumber - 1) * session.partSize;
        const buffer = Buffer.alloc(session.partSize);
        const { bytesRead } = await handle.read(buffer, 0, session.partSize, offset);
        const response = await fetch(part.presignedUrl, { method: 'PUT', body: buffer.subarray(0, bytesRead) });
        if (response.status !== 200) {
          throw new Error(`part ${part.partNumber}: HTTP ${response.status} ${await response.text()}`);
        }
        etags.push({ partNumber: part.partNumber, etag: response.headers.get('etag') ?? '' });
      }
    };
    await Promise.all(Array.from({ length: parallel }, worker));
  } finally {
    await handle.close();
  }
  return etags.sort((a, b) => a.partNumber - b.partNumber);
}

/** Calls completeVodUpload; answers the union member. */
export async function completeVodUpload(
  server: TestServer,
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
  server: TestServer,
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
export function waitSettled(server: TestServer, token: string, id: string, timeoutMs = 180_000): Promise<VodAssetView> {
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
  server: TestServer,
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
