/**
 * VOD processing survives kill -9 (issue 18): `airwave start` transcodes an upload whose codec
 * cannot be copied (MPEG-4 Part 2), with its progress on liveProcessingEvents (no streamId: the
 * tenant's processing, uploads included: STARTED, then PROGRESS with the asset's hash); it is
 * killed mid-transcode, and on restart (same data directory) the job is requeued: the events
 * start again and end COMPLETED, the asset is READY at 100 % with every output and plays.
 * The killed process's ffmpeg children are found by their arguments and stopped by PID.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { airwaveReady, startCliOn } from './support/airwave-cli.js';
import { ffmpegMissing, ffprobeJson } from './support/ffmpeg.js';
import type { Tracked } from './support/processes.js';
import { record, type SubscriptionResult } from './support/subscriptions.js';
import {
  completeVodUpload,
  createVodUpload,
  httpServer,
  makeTestVideo,
  putParts,
  type VodSession,
  waitProcessed,
} from './support/vod.js';

const START_TIMEOUT_MS = 120_000;
const EVENTS = `subscription { liveProcessingEvents { stage processType vodHash playbackId progressPercent streamId } }`;

/** Kills (by PID) the processes whose command line mentions `dir`: what a killed server left running. */
function killOrphans(dir: string): void {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(dir)) {
        process.kill(Number(pid), 'SIGKILL');
      }
    } catch {
      // gone meanwhile
    }
  }
}

const event = (result: SubscriptionResult) => result.data?.liveProcessingEvents as Record<string, unknown> | undefined;

describe('VOD processing survives kill -9', { skip: ffmpegMissing }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'airwave-vod-crash-'));
  const running: Tracked[] = [];
  after(async () => {
    for (const cli of running) {
      await cli.stop();
    }
    killOrphans(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('requeues on start the job a killed process left mid-transcode; progress shows on liveProcessingEvents', async () => {
    const file = join(dataDir, 'mpeg4.mp4');
    await makeTestVideo(file, 12, 6, ['-c:v', 'mpeg4', '-q:v', '5']);
    const first = startCliOn(join(dataDir, 'node'));
    running.push(first);
    let server = httpServer(`http://127.0.0.1:${(await airwaveReady(first, START_TIMEOUT_MS)).ports.http}`);
    const registered = await server.graphql<{ register: { token: string } }>(
      'mutation ($input: RegisterInput!) { register(input: $input) { ... on AuthPayload { token } } }',
      { input: { email: `vod-${randomBytes(4).toString('hex')}@example.test`, password: 'correct horse battery' } },
    );
    const token = registered.data?.register.token as string;
    const wsUrl = () => `${server.baseUrl.replace(/^http/, 'ws')}/graphql/ws`;
    const before = record(wsUrl(), token, EVENTS);
    const session = (await createVodUpload(server, token, {
      filename: 'mpeg4.mp4',
      sizeBytes: readFileSync(file).length,
    })) as unknown as VodSession;
    assert.equal(
      (await completeVodUpload(server, token, session.id, await putParts(file, session))).status,
      'PROCESSING',
    );
    const ours = (stage: string) => (result: SubscriptionResult) =>
      event(result)?.stage === stage && event(result)?.vodHash === session.artifactHash;
    await before.waitFor(ours('STARTED'), 'STARTED');
    const progress = await before.waitFor(
      (result) => ours('PROGRESS')(result) && Number(event(result)?.progressPercent) > 0,
      'transcode progress',
      60_000,
    );
    assert.deepEqual(
      { ...event(progress), progressPercent: undefined },
      {
        stage: 'PROGRESS',
        processType: 'vod',
        vodHash: session.artifactHash,
        playbackId: session.playbackId,
        progressPercent: undefined,
        streamId: null,
      },
    );
    first.child.kill('SIGKILL');
    await first.exited;
    await before.close();
    killOrphans(dataDir);

    const second = startCliOn(join(dataDir, 'node'));
    running.push(second);
    server = httpServer(`http://127.0.0.1:${(await airwaveReady(second, START_TIMEOUT_MS)).ports.http}`);
    const afterRestart = record(wsUrl(), token, EVENTS);
    try {
      await afterRestart.waitFor(ours('COMPLETED'), 'COMPLETED after the restart', 120_000);
    } finally {
      await afterRestart.close();
    }
    const asset = await waitProcessed(server, token, session.artifactId);
    assert.equal(asset.status, 'READY', asset.errorMessage ?? '');
    assert.equal(asset.progressPercent, 100);
    assert.equal(asset.videoCodec, 'h264');
    assert.deepEqual([...asset.outputs].sort(), ['cmaf', 'dash', 'hls', 'mp4', 'poster', 'sprite']);
    const probed = await ffprobeJson<{ format: { duration: string } }>(
      ['-show_format'],
      `${server.baseUrl}/play/${asset.playbackId}/cmaf/index.m3u8`,
    );
    assert.ok(Math.abs(Number(probed.format.duration) - 12) < 1, probed.format.duration);
  });
});
