/**
 * VOD uploads end to end over both storage backends (one table of tests): the local directory,
 * where Airwave serves the presigned part URLs itself, and S3 on a real radosgw that verifies
 * SigV4. A 60 MB file made by ffmpeg is uploaded in parts with fetch, completed and processed;
 * a tampered URL is refused; abort removes the parts; a corrupt upload ends FAILED with a reason;
 * bad input and the quota are ValidationErrors before anything is uploaded.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type Radosgw, radosgwMissing, startRadosgw } from '@airwave/server/testing/radosgw';
import { startTestServer, type TestServer } from '@airwave/server/testing/test-server';
import { registerAccount } from './support/accounts.js';
import { ffmpegMissing, ffprobeJson } from './support/ffmpeg.js';
import {
  completeVodUpload,
  createVodUpload,
  makeTestVideo,
  putParts,
  type VodSession,
  vodArtifacts,
  waitProcessed,
  waitSettled,
} from './support/vod.js';

const MIB = 1024 * 1024;
const work = mkdtempSync(join(tmpdir(), 'airwave-vod-e2e-'));
const bigFile = join(work, 'big.mp4');
let rgw: Radosgw | undefined;

interface Backend {
  readonly name: 'local' | 's3';
  readonly skip: string | false;
  env(): Record<string, string>;
}

let buckets = 0;
const backends: Backend[] = [
  { name: 'local', skip: ffmpegMissing, env: () => ({}) },
  {
    name: 's3',
    skip: ffmpegMissing || radosgwMissing,
    env: () => ({
      AIRWAVE_S3_ENDPOINT: (rgw as Radosgw).endpoint,
      AIRWAVE_S3_BUCKET: `vod-e2e-${++buckets}-${randomBytes(3).toString('hex')}`,
      AIRWAVE_S3_REGION: (rgw as Radosgw).region,
      AIRWAVE_S3_ACCESS_KEY_ID: (rgw as Radosgw).accessKeyId,
      AIRWAVE_S3_SECRET_ACCESS_KEY: (rgw as Radosgw).secretAccessKey,
    }),
  },
];

before(async () => {
  if (!ffmpegMissing) {
    await makeTestVideo(bigFile, 20, 60);
  }
  if (!radosgwMissing) {
    rgw = await startRadosgw();
  }
});
after(async () => {
  await rgw?.stop();
  rmSync(work, { recursive: true, force: true });
});

/** HLS (CMAF and TS), DASH and MP4 of the asset as ffprobe reads them; MP4 `moov` first and ranged; images. */
async function assertPlays(server: TestServer, playbackId: string): Promise<void> {
  const base = `${server.baseUrl}/play/${playbackId}`;
  for (const url of [`${base}/cmaf/index.m3u8`, `${base}/cmaf/index.mpd`, `${base}/hls/index.m3u8`, `${base}.mp4`]) {
    const probed = await ffprobeJson<{ streams: { codec_name: string }[]; format: { duration: string } }>(
      ['-show_streams', '-show_format'],
      url,
    );
    assert.deepEqual(probed.streams.map((stream) => stream.codec_name).sort(), ['aac', 'h264'], url);
    assert.ok(Math.abs(Number(probed.format.duration) - 20) < 1, `${url}: ${probed.format.duration} s`);
  }
  const head = await fetch(`${base}.mp4`, { headers: { range: 'bytes=0-65535' } });
  assert.equal(head.status, 206);
  const bytes = Buffer.from(await head.arrayBuffer());
  const boxes: string[] = [];
  for (let at = 0; at + 8 <= bytes.length; at += bytes.readUInt32BE(at)) {
    boxes.push(bytes.toString('latin1', at + 4, at + 8));
    if (bytes.readUInt32BE(at) < 8) {
      break;
    }
  }
  assert.ok(boxes.includes('moov') && !boxes.slice(0, boxes.indexOf('moov')).includes('mdat'), boxes.join(','));
  const poster = await fetch(`${base}/thumbnails/poster.jpg`);
  assert.equal(poster.headers.get('content-type'), 'image/jpeg');
  assert.deepEqual([...Buffer.from(await poster.arrayBuffer()).subarray(0, 2)], [0xff, 0xd8]);
  const vtt = await (await fetch(`${base}/thumbnails/sprite.vtt`)).text();
  assert.equal(vtt.match(/sprite\.jpg#xywh=/g)?.length, 100);
  const info = (await (await fetch(base)).json()) as { kind: string; urls: Record<string, string> };
  assert.equal(info.kind, 'vod');
  assert.ok(info.urls.hlsCmaf && info.urls.dash && info.urls.mp4);
}

for (const backend of backends) {
  describe(`VOD uploads on the ${backend.name} backend`, { skip: backend.skip }, () => {
    let server: TestServer;
    let token: string;

    before(async () => {
      server = await startTestServer(undefined, { AIRWAVE_VOD_PART_BYTES: String(5 * MIB), ...backend.env() });
      token = (await registerAccount(server, `vod-${backend.name}`)).token;
    });
    after(async () => {
      await server?.close();
    });

    test('a 60 MB file made by ffmpeg, PUT in parts with fetch, completes and is processed without re-encoding', async () => {
      const size = statSync(bigFile).size;
      assert.ok(size > 55 * MIB, `test file is ${size} bytes`);
      const session = (await createVodUpload(server, token, {
        filename: 'big.mp4',
        sizeBytes: size,
        contentType: 'video/mp4',
        title: 'Sixty megabytes',
      })) as unknown as VodSession & { __typename: string };
      assert.equal(session.__typename, 'VodUploadSession', JSON.stringify(session));
      assert.equal(session.partSize, 5 * MIB);
      assert.equal(session.parts.length, Math.ceil(size / (5 * MIB)));
      if (backend.name === 'local') {
        assert.ok(session.parts[0]?.presignedUrl.startsWith(`${server.baseUrl}/uploads/`));
      } else {
        assert.match(session.parts[0]?.presignedUrl ?? '', /X-Amz-Signature=/);
      }
      const parts = await putParts(bigFile, session);
      const completed = await completeVodUpload(server, token, session.id, parts);
      assert.equal(completed.__typename, 'VodAsset', JSON.stringify(completed));
      assert.equal(completed.status, 'PROCESSING');
      const playable = await waitSettled(server, token, session.artifactId);
      assert.equal(playable.status, 'READY', playable.errorMessage ?? '');
      // READY as soon as the streaming outputs are stored; MP4 and images may still follow.
      for (const output of ['cmaf', 'dash', 'hls']) {
        assert.ok(playable.outputs.includes(output), `READY without ${output}: ${playable.outputs.join()}`);
      }
      const hls = await fetch(`${server.baseUrl}/play/${playable.playbackId}/cmaf/index.m3u8`);
      assert.equal(hls.status, 200);
      const asset = await waitProcessed(server, token, session.artifactId);
      assert.equal(asset.status, 'READY', asset.errorMessage ?? '');
      assert.equal(asset.progressPercent, 100);
      assert.equal(asset.storageLocation, backend.name);
      assert.equal(asset.videoCodec, 'h264');
      assert.equal(asset.audioCodec, 'aac');
      assert.equal(asset.resolution, '1280x720');
      assert.ok(Math.abs((asset.durationMs ?? 0) - 20_000) < 500, `duration ${asset.durationMs}`);
      assert.deepEqual([...asset.outputs].sort(), ['cmaf', 'dash', 'hls', 'mp4', 'poster', 'sprite']);
      assert.ok((asset.storedBytes ?? 0) > size * 2, `stored ${asset.storedBytes}`);
      await assertPlays(server, asset.playbackId);
      assert.deepEqual(await vodArtifacts(server, token), [
        {
          key: `vod:${asset.artifactHash}`,
          kind: 'VOD',
          id: asset.id,
          playbackId: asset.playbackId,
          streamId: null,
          status: 'ready',
          sizeBytes: asset.storedBytes,
        },
      ]);
      const deleted = await server.graphql<{ deleteVodAsset: Record<string, unknown> }>(
        `mutation ($id: ID!) { deleteVodAsset(id: $id) { __typename ... on DeleteSuccess { success } } }`,
        { id: asset.id },
        token,
      );
      assert.deepEqual(deleted.data?.deleteVodAsset, { __typename: 'DeleteSuccess', success: true });
      assert.equal((await fetch(`${server.baseUrl}/play/${asset.playbackId}.mp4`)).status, 404);
      const gone = await server.graphql<{ vodAsset: unknown }>(
        `query ($id: ID!) { vodAsset(id: $id) { id } }`,
        { id: asset.id },
        token,
      );
      assert.equal(gone.errors?.[0]?.extensions?.code, 'NOT_FOUND');
      assert.deepEqual(await vodArtifacts(server, token), []);
      if (backend.name === 'local') {
        const left = await readdir(join(server.dataDir, 'storage', 'vod')).catch(() => []);
        assert.deepEqual(left, []);
      }
    });

    test('a tampered part URL is refused; abort removes the parts and ends the session', async () => {
      const session = (await createVodUpload(server, token, {
        filename: 'aborted.mov',
        sizeBytes: 6 * MIB,
      })) as unknown as VodSession & { __typename: string };
      assert.equal(session.__typename, 'VodUploadSession');
      const first = session.parts[0] as VodSession['parts'][number];
      const url = new URL(first.presignedUrl);
      const signatureName = url.searchParams.has('X-Amz-Signature') ? 'X-Amz-Signature' : 'signature';
      const signature = url.searchParams.get(signatureName) ?? '';
      url.searchParams.set(signatureName, `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`);
      const forged = await fetch(url, { method: 'PUT', body: randomBytes(1000) });
      assert.equal(forged.status, 403);
      assert.match(await forged.text(), /SignatureDoesNotMatch/);
      const put = await fetch(first.presignedUrl, { method: 'PUT', body: randomBytes(5 * MIB) });
      assert.equal(put.status, 200);
      const status = await server.graphql<{ vodUploadStatus: Record<string, unknown> }>(
        `query ($id: ID!) { vodUploadStatus(uploadId: $id) {
          __typename ... on VodUploadStatus { state uploadedParts { partNumber sizeBytes } missingParts } } }`,
        { id: session.id },
        token,
      );
      assert.deepEqual(status.data?.vodUploadStatus, {
        __typename: 'VodUploadStatus',
        state: 'UPLOADING',
        uploadedParts: [{ partNumber: 1, sizeBytes: 5 * MIB }],
        missingParts: [2],
      });
      const aborted = await server.graphql<{ abortVodUpload: Record<string, unknown> }>(
        `mutation ($id: ID!) { abortVodUpload(uploadId: $id) { __typename ... on DeleteSuccess { success } } }`,
        { id: session.id },
        token,
      );
      assert.deepEqual(aborted.data?.abortVodUpload, { __typename: 'DeleteSuccess', success: true });
      const late = await fetch((session.parts[1] as VodSession['parts'][number]).presignedUrl, {
        method: 'PUT',
        body: randomBytes(1000),
      });
      assert.equal(late.status, 404);
      if (backend.name === 'local') {
        assert.deepEqual(await readdir(join(server.dataDir, 'uploads')), []);
      }
      const again = await server.graphql<{ vodUploadStatus: { __typename: string } }>(
        `query ($id: ID!) { vodUploadStatus(uploadId: $id) { __typename } }`,
        { id: session.id },
        token,
      );
      assert.equal(again.data?.vodUploadStatus.__typename, 'NotFoundError');
    });

    test('a corrupt upload ends FAILED with the reason', async () => {
      const file = join(work, `corrupt-${backend.name}.mp4`);
      writeFileSync(file, Buffer.concat([Buffer.from('\x00\x00\x00\x18ftypisom'), randomBytes(200_000)]));
      const session = (await createVodUpload(server, token, {
        filename: 'corrupt.mp4',
        sizeBytes: statSync(file).size,
      })) as unknown as VodSession;
      const completed = await completeVodUpload(server, token, session.id, await putParts(file, session));
      assert.equal(completed.__typename, 'VodAsset');
      const asset = await waitSettled(server, token, session.artifactId);
      assert.equal(asset.status, 'FAILED');
      assert.match(asset.errorMessage ?? '', /not a readable media file|no video track|no duration/);
    });
  });
}

describe('VOD upload validation', { skip: ffmpegMissing }, () => {
  let server: TestServer;
  let token: string;

  before(async () => {
    server = await startTestServer(undefined, {
      AIRWAVE_VOD_MAX_UPLOAD_BYTES: String(100 * MIB),
      AIRWAVE_VOD_TENANT_QUOTA_BYTES: String(150 * MIB),
    });
    token = (await registerAccount(server, 'vod-limits')).token;
  });
  after(async () => {
    await server?.close();
  });

  test('bad names, types, sizes and the tenant quota are ValidationErrors before any upload', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ filename: 'notes.txt', sizeBytes: 10 }, 'input.filename', 'type'],
      [{ filename: '../etc/x.mp4', sizeBytes: 10 }, 'input.filename', 'format'],
      [{ filename: `${'a'.repeat(300)}.mp4`, sizeBytes: 10 }, 'input.filename', 'length'],
      [{ filename: 'a.mp4', sizeBytes: 0 }, 'input.sizeBytes', 'range'],
      [{ filename: 'a.mp4', sizeBytes: 1.5 }, 'input.sizeBytes', 'range'],
      [{ filename: 'a.mp4', sizeBytes: 101 * MIB }, 'input.sizeBytes', 'max'],
      [{ filename: 'a.mp4', sizeBytes: 10, contentType: 'text/html' }, 'input.contentType', 'type'],
      [{ filename: 'a.mp4', sizeBytes: 10, title: 'x'.repeat(201) }, 'input.title', 'length'],
    ];
    for (const [input, field, constraint] of cases) {
      const result = await createVodUpload(server, token, input);
      assert.deepEqual(
        [result.__typename, result.field, result.constraint],
        ['ValidationError', field, constraint],
        JSON.stringify(input),
      );
    }
    const first = await createVodUpload(server, token, { filename: 'a.mp4', sizeBytes: 100 * MIB });
    assert.equal(first.__typename, 'VodUploadSession');
    const over = await createVodUpload(server, token, { filename: 'b.mp4', sizeBytes: 60 * MIB });
    assert.deepEqual([over.__typename, over.field, over.constraint], ['ValidationError', 'input.sizeBytes', 'quota']);
    const other = (await registerAccount(server, 'vod-other')).token;
    assert.equal(
      (await createVodUpload(server, other, { filename: 'b.mp4', sizeBytes: 60 * MIB })).__typename,
      'VodUploadSession',
    );
  });
});
