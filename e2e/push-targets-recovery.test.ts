/**
 * A push target whose receiver dies and comes back, on the real `airwave start` process with its
 * log captured: nginx-rtmp killed → the target reports retrying, then failed, with a lastError
 * that holds no key; nginx restarted → pushing again and nginx writes new HLS fragments that
 * decode. The stream key of the target never appears in the captured log (debug level).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { TestServer } from '@airwave/server/testing/test-server';
import { createStream, registerAccount } from './support/accounts.js';
import { airwaveReady, spawnAirwave } from './support/airwave-cli.js';
import { byType, ffmpegMissing, probeStreams, publishPattern } from './support/ffmpeg.js';
import { graphqlOf } from './support/nodes.js';
import { waitFor } from './support/processes.js';
import { nginxRtmpMissing, startNginxRtmp } from './support/push-receivers.js';
import { createPushTarget, type PushTargetView, readPushTargets } from './support/push-targets.js';

const KEY = 'recover_key_9f8e7d6c5b';

describe('push target recovery with the receiver killed and restarted', {
  skip: ffmpegMissing || nginxRtmpMissing,
}, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'airwave-push-recovery-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('goes retrying, then failed, then pushing again with frames resuming; the key is in no log line', async () => {
    const nginx = await startNginxRtmp();
    const cli = spawnAirwave([], {
      ...process.env,
      AIRWAVE_HOST: '127.0.0.1',
      AIRWAVE_HTTP_PORT: '0',
      AIRWAVE_RTMP_PORT: '0',
      AIRWAVE_SRT_PORT: '0',
      AIRWAVE_DATA_DIR: dataDir,
      AIRWAVE_WEBRTC: 'false',
      AIRWAVE_LOG_LEVEL: 'debug',
      AIRWAVE_ALLOW_PRIVATE_PUSH_TARGETS: 'true',
      AIRWAVE_PUSH_RETRY_MAX_SECONDS: '2',
    });
    try {
      const ready = await airwaveReady(cli, 90_000);
      const rtmpPort = (ready.ports as { rtmp?: number }).rtmp ?? 0;
      const server = graphqlOf(`http://127.0.0.1:${ready.ports.http}`) as TestServer;
      const token = (await registerAccount(server, 'recovering')).token;
      const stream = await createStream(server, token, 'recovering');
      const created = await createPushTarget(server, token, stream.id, { name: 'nginx', targetUri: nginx.url(KEY) });
      assert.equal(created.__typename, 'PushTarget', JSON.stringify(created));
      const publisher = publishPattern(`rtmp://127.0.0.1:${rtmpPort}/live/${stream.streamKey}`, { fps: 25, gop: 25 });
      const status = async (wanted: readonly string[], what: string): Promise<PushTargetView> => {
        let last: PushTargetView | undefined;
        try {
          return await waitFor(
            what,
            async () => {
              last = (await readPushTargets(server, token, stream.id))[0];
              return last && wanted.includes(last.status) ? last : undefined;
            },
            60_000,
            200,
          );
        } catch (error) {
          throw new Error(`${String(error)}; last: ${JSON.stringify(last)}`);
        }
      };
      try {
        await status(['pushing'], 'pushing');
        const fragments = () => readdirSync(join(nginx.dir, 'hls')).filter((name) => name.endsWith('.ts'));
        await waitFor('a first fragment', () => fragments().length > 0, 30_000);
        await nginx.kill();
        const retrying = await status(['retrying', 'failed'], 'retrying after the receiver died');
        assert.ok(retrying.lastError, 'no lastError while retrying');
        const failed = await status(['failed'], 'failed after repeated attempts');
        assert.ok(failed.lastError && !failed.lastError.includes(KEY), failed.lastError ?? '');
        const before = new Set(fragments());
        await nginx.restart();
        const back = await status(['pushing'], 'pushing again after the receiver returned');
        assert.equal(back.status, 'pushing');
        const fresh = await waitFor(
          'a new fragment after the restart',
          () => {
            const added = fragments().filter((name) => !before.has(name));
            return added.length >= 2 ? added : undefined;
          },
          60_000,
        );
        const video = byType(await probeStreams(join(nginx.dir, 'hls', fresh[0] ?? '')), 'video');
        assert.equal(video.codec_name, 'h264');
        assert.ok(Number(video.nb_read_frames) > 0, 'no frames after the restart');
        assert.ok(!JSON.stringify(await readPushTargets(server, token, stream.id)).includes(KEY));
      } finally {
        await publisher.stop();
      }
    } finally {
      await cli.stop();
      await nginx.stop();
    }
    const log = cli.stdout() + cli.stderr();
    assert.match(log, /push status/, 'the push logged nothing: the log was not captured');
    assert.match(log, /push attempt failed/);
    assert.ok(!log.includes(KEY), 'the stream key appears in the log');
    assert.ok(!log.includes(KEY.slice(5)), 'part of the stream key appears in the log');
  });
});
