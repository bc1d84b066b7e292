/**
 * VOD uploads (issue 18): upload throughput through presigned parts (fetch, 4 parts in flight)
 * against the SDK's own multipart upload (@aws-sdk/lib-storage `Upload`, same part size and
 * concurrency) to the same radosgw, and through Airwave's own part URLs to the local backend
 * against a plain streamed write into the same local store; then the time from
 * `completeVodUpload` to READY (playable) and to every output stored for a 10 min 720p H.264/AAC
 * file on the remux path.
 */

import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, mkdirSync, rmSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { LocalStorage } from '@airwave/server/storage/local-storage';
import { S3Storage } from '@airwave/server/storage/s3-storage';
import { radosgwMissing, startRadosgw } from '@airwave/server/testing/radosgw';
import { Upload } from '@aws-sdk/lib-storage';
import {
  completeVodUpload,
  createVodUpload,
  httpServer,
  makeTestVideo,
  putParts,
  type VodSession,
  waitProcessed,
  waitSettled,
} from '../../e2e/support/vod.js';
import { registerBenchAccount, startAirwave } from '../lib/airwave-server.js';
import { WORK_DIR } from '../lib/media-file.js';
import { nginxMissing } from '../lib/nginx-cache.js';
import { startNginxDav } from '../lib/nginx-dav.js';
import { percentile } from '../lib/percentile.js';

/** Section title. */
export const title = 'issue 18: VOD uploads (presigned parts vs SDK upload, complete → playable)';

const exec = promisify(execFile);
const MIB = 2 ** 20;
const SIZE_MIB = Number(process.env.BENCH_VOD_MIB ?? 200);
const RUNS = Number(process.env.BENCH_VOD_RUNS ?? 3);
const PART = 8 * MIB;
const LONG_SECONDS = Number(process.env.BENCH_VOD_LONG_SECONDS ?? 600);

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

/** Parts PUT by fetch to presigned URLs of the S3 backend, 4 at once, then completed. */
async function presignedToS3(storage: S3Storage, file: string, key: string): Promise<void> {
  const size = statSync(file).size;
  const uploadId = await storage.createMultipart(key, 'application/octet-stream');
  const count = Math.ceil(size / PART);
  const parts = [];
  for (let n = 1; n <= count; n++) {
    parts.push({ partNumber: n, presignedUrl: await storage.presignPart(key, uploadId, n, 3600) });
  }
  const session = { id: uploadId, partSize: PART, parts } as unknown as VodSession;
  await storage.completeMultipart(key, uploadId, await putParts(file, session, 4));
}

function mbps(bytes: number, ms: number): number {
  return bytes / MIB / (ms / 1000);
}

/** Runs the section. */
export async function run(): Promise<string> {
  const dir = join(WORK_DIR, 'vod');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `random-${SIZE_MIB}.bin`);
  await writeFile(file, randomBytes(SIZE_MIB * MIB));
  const size = statSync(file).size;
  const rows: string[] = [];
  const rssBefore = process.memoryUsage().rss;
  if (!radosgwMissing) {
    const rgw = await startRadosgw({ memoryBytes: 10 * SIZE_MIB * MIB });
    try {
      const storage = new S3Storage({
        endpoint: rgw.endpoint,
        bucket: 'bench',
        region: rgw.region,
        credentials: { accessKeyId: rgw.accessKeyId, secretAccessKey: rgw.secretAccessKey },
        forcePathStyle: true,
      });
      await storage.ensureBucket();
      const presigned: number[] = [];
      const sdk: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        presigned.push(await timed(() => presignedToS3(storage, file, `p/${i}`)));
        sdk.push(
          await timed(() =>
            new Upload({
              client: storage.client,
              params: { Bucket: 'bench', Key: `s/${i}`, Body: createReadStream(file) },
              partSize: PART,
              queueSize: 4,
            }).done(),
          ),
        );
        await storage.deletePrefix('');
      }
      const p = mbps(size, percentile(presigned, 50));
      const s = mbps(size, percentile(sdk, 50));
      rows.push(
        `| S3 (radosgw) | presigned parts, fetch | ${p.toFixed(1)} | SDK Upload | ${s.toFixed(1)} | **${(p / s).toFixed(2)}×** |`,
      );
      storage.client.destroy();
    } finally {
      await rgw.stop();
    }
  }
  // Airwave runs as deployed, in its own process: the client's costs (fetch) are not counted as its.
  const airwave = await startAirwave({ AIRWAVE_VOD_PART_BYTES: String(PART) });
  const server = httpServer(airwave.baseUrl);
  try {
    const token = await registerBenchAccount(airwave);
    const through: number[] = [];
    const dav: number[] = [];
    const direct: number[] = [];
    const local = new LocalStorage(join(dir, 'direct'));
    await local.open();
    const nginx = nginxMissing ? undefined : await startNginxDav();
    try {
      for (let i = 0; i < RUNS; i++) {
        through.push(
          await timed(async () => {
            const session = (await createVodUpload(server, token, {
              filename: `r${i}.mp4`,
              sizeBytes: size,
            })) as unknown as VodSession;
            const parts = await putParts(file, session, 4);
            await completeVodUpload(server, token, session.id, parts);
          }),
        );
        if (nginx) {
          const count = Math.ceil(size / PART);
          const parts = Array.from({ length: count }, (_, n) => ({
            partNumber: n + 1,
            presignedUrl: `${nginx.baseUrl}/r${i}/${n + 1}`,
          }));
          const session = { partSize: PART, parts } as unknown as VodSession;
          dav.push(await timed(() => putParts(file, session, 4)));
        }
        direct.push(await timed(() => local.put(`d/${i}`, createReadStream(file))));
      }
    } finally {
      await nginx?.stop();
    }
    rmSync(join(dir, 'direct'), { recursive: true, force: true });
    const p = mbps(size, percentile(through, 50));
    const d = mbps(size, percentile(direct, 50));
    if (dav.length > 0) {
      const n = mbps(size, percentile(dav, 50));
      rows.push(
        `| local directory | Airwave part URLs + complete | ${p.toFixed(1)} | nginx WebDAV PUT of the same parts (1 worker) | ${n.toFixed(1)} | **${(p / n).toFixed(2)}×** |`,
      );
    }
    rows.push(
      `| local directory | Airwave part URLs + complete | ${p.toFixed(1)} | streamed put into the store (no HTTP) | ${d.toFixed(1)} | ${(p / d).toFixed(2)}× |`,
    );

    const long = join(dir, `long-${LONG_SECONDS}s-720p.mp4`);
    // One minute encoded, then looped without re-encoding: a 10 min encode takes too long here.
    const minute = join(dir, 'minute-720p.mp4');
    await makeTestVideo(minute, 60, (60 * 1.6) / 8);
    await exec('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-nostdin',
      '-y',
      '-stream_loop',
      String(Math.ceil(LONG_SECONDS / 60) - 1),
      '-i',
      minute,
      '-c',
      'copy',
      long,
    ]);
    rmSync(minute, { force: true });
    const longSize = statSync(long).size;
    const session = (await createVodUpload(server, token, {
      filename: 'long.mp4',
      sizeBytes: longSize,
    })) as unknown as VodSession;
    const parts = await putParts(long, session, 4);
    const started = performance.now();
    await completeVodUpload(server, token, session.id, parts);
    const asset = await waitSettled(server, token, session.artifactId, 600_000);
    const playableMs = performance.now() - started;
    const playlist = await fetch(`${server.baseUrl}/play/${asset.playbackId}/cmaf/index.m3u8`);
    const processed = await waitProcessed(server, token, session.artifactId, 600_000);
    const processedMs = performance.now() - started;
    rmSync(long, { force: true });
    const rss = process.memoryUsage().rss;
    return [
      `File of ${SIZE_MIB} MiB, ${PART / MIB} MiB parts sent as file slices (as a browser sends \`File.slice\`), 4 in flight,`,
      `median of ${RUNS} runs (MiB/s). Clients and the store's SDK in the bench process (RSS ${(rssBefore / MIB).toFixed(0)} → ${(rss / MIB).toFixed(0)} MiB);`,
      'Airwave (local backend) in its own process, as deployed. Local references: nginx taking the same parts by WebDAV PUT',
      '(an HTTP server writing bodies to disk; no join step), and a plain write of the file into a local store (no HTTP at all).',
      '',
      '| store | Airwave path | MiB/s | reference | MiB/s | ratio |',
      '|---|---|---|---|---|---|',
      ...rows,
      '',
      `Complete → READY (playable) for a ${LONG_SECONDS / 60} min 720p30 H.264/AAC file (${(longSize / MIB).toFixed(0)} MiB, remux path,`,
      'local backend; READY once CMAF+DASH and TS HLS, made by one ffmpeg run, are in storage):',
      `**${(playableMs / 1000).toFixed(1)} s** (asset ${asset.status} with ${asset.outputs.join(', ')}, CMAF playlist HTTP ${playlist.status}; target ≤ 5 s).`,
      `Complete → every output stored (faststart MP4, poster, sprite too; progress 100 %): ${(processedMs / 1000).toFixed(1)} s`,
      `(${processed.outputs.join(', ')}).`,
      '',
      'Measured on the shared 2-core machine while other engineers ran tests (see the load average above).',
    ].join('\n');
  } finally {
    await airwave.stop();
    rmSync(file, { force: true });
  }
}
