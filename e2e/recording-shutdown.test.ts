/**
 * A graceful stop does not wait for recording jobs, and loses none: `airwave start` runs with an
 * ffmpeg that waits a minute before remuxing (a busy machine), a stopped recording's chapter is
 * FINALIZING (its MP4 and TS renditions being made) when SIGTERM arrives; the stop kills that job
 * and exits, and the next start makes the renditions: the chapter is FINALIZED and its MP4 and TS
 * HLS play to the end.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { isAlive } from '@airwave/server/db/data-dir-lock';
import { registerAccount } from './support/accounts.js';
import { airwaveReady, startCliOn } from './support/airwave-cli.js';
import { ffmpegMissing, ffprobeJson, publishPattern } from './support/ffmpeg.js';
import { graphqlOf } from './support/nodes.js';
import { type Tracked, waitFor } from './support/processes.js';

const START_TIMEOUT_MS = 120_000;

/** A directory whose `ffmpeg` writes its PID to `pids` and, for a rendition (`+faststart`), sleeps a minute before running the real one. */
function slowRenditionFfmpeg(dir: string): string {
  const real = execFileSync('sh', ['-c', 'command -v ffmpeg'], { encoding: 'utf8' }).trim();
  const script = join(dir, 'ffmpeg');
  writeFileSync(
    script,
    [
      '#!/bin/sh',
      `echo $$ >> '${join(dir, 'pids')}'`,
      'case "$*" in *faststart*) trap \'kill $! 2>/dev/null; exit 143\' TERM; sleep 60 & wait $! ;; esac',
      `exec '${real}' "$@"`,
      '',
    ].join('\n'),
  );
  chmodSync(script, 0o755);
  return dir;
}

describe('recording jobs across a graceful stop', { skip: ffmpegMissing || false }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'airwave-shutdown-'));
  const toolDir = slowRenditionFfmpeg(mkdtempSync(join(tmpdir(), 'airwave-slow-ffmpeg-')));
  const running: Tracked[] = [];
  after(async () => {
    for (const cli of running) {
      await cli.stop();
    }
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(toolDir, { recursive: true, force: true });
  });

  it('stops without waiting for a chapter rendition and makes it at the next start', async () => {
    const first = startCliOn(dataDir, { env: { PATH: `${toolDir}:${process.env.PATH ?? ''}` }, logLevel: 'info' });
    running.push(first);
    const ready = (await airwaveReady(first, START_TIMEOUT_MS)) as unknown as { ports: { http: number; rtmp: number } };
    let server = {
      baseUrl: `http://127.0.0.1:${ready.ports.http}`,
      ...graphqlOf(`http://127.0.0.1:${ready.ports.http}`),
    };
    const { token } = await registerAccount(server as never, 'shutdown');
    const created = await server.graphql<{ createStream: { id: string; streamKey: string } }>(
      'mutation { createStream(input: { name: "shutdown", record: true }) { ... on Stream { id streamKey } } }',
      {},
      token,
    );
    const stream = created.data?.createStream as { id: string; streamKey: string };
    const dvrs = async () =>
      (
        await server.graphql<{ storageArtifactsConnection: { nodes: { hash: string; durationSeconds: number }[] } }>(
          'query ($id: ID) { storageArtifactsConnection(input: { kinds: [DVR], streamId: $id }) { nodes { hash durationSeconds } } }',
          { id: stream.id },
          token,
        )
      ).data?.storageArtifactsConnection.nodes ?? [];
    const chapters = async (hash: string) =>
      (
        await server.graphql<{
          dvrChapters: { chapters: { state: string; playbackId: string; durationMs: number }[] };
        }>(
          'query ($id: ID!) { dvrChapters(dvrId: $id) { chapters { state playbackId durationMs } } }',
          { id: hash },
          token,
        )
      ).data?.dvrChapters.chapters ?? [];
    const encoder = publishPattern(`rtmp://127.0.0.1:${ready.ports.rtmp}/live/${stream.streamKey}`, {
      width: 320,
      height: 180,
      fps: 15,
      gop: 30,
    });
    let hash = '';
    try {
      hash = (
        await waitFor(
          'four seconds recorded',
          async () => (await dvrs()).find((dvr) => dvr.durationSeconds >= 4),
          60_000,
          250,
        )
      ).hash;
      const stopped = await server.graphql<{ stopDVR: { __typename: string } }>(
        'mutation ($hash: ID!) { stopDVR(dvrHash: $hash) { __typename } }',
        { hash },
        token,
      );
      assert.equal(stopped.data?.stopDVR.__typename, 'DeleteSuccess');
      const [chapter] = await chapters(hash);
      assert.equal(chapter?.state, 'FINALIZING', 'the chapter waits for its renditions');
      first.child.kill('SIGTERM');
      assert.equal(await first.exited, 0, 'a graceful stop exits 0');
    } finally {
      await encoder.stop();
    }
    const log = first.stdout() + first.stderr();
    assert.match(log, /recording jobs stopped by shutdown/, 'the stop says it left the rendition for the next start');
    const pidFile = join(toolDir, 'pids');
    const pids = existsSync(pidFile) ? readFileSync(pidFile, 'utf8').trim().split('\n').map(Number) : [];
    assert.deepEqual(pids.filter(isAlive), [], 'no ffmpeg outlives the service');

    const second = startCliOn(dataDir);
    running.push(second);
    const base = `http://127.0.0.1:${(await airwaveReady(second, START_TIMEOUT_MS)).ports.http}`;
    server = { baseUrl: base, ...graphqlOf(base) };
    const chapter = await waitFor(
      'the chapter rendered after the restart',
      async () => (await chapters(hash)).find((entry) => entry.state === 'FINALIZED'),
      120_000,
      250,
    );
    for (const url of [`${base}/play/${chapter.playbackId}.mp4`, `${base}/play/${chapter.playbackId}/hls/index.m3u8`]) {
      const probed = await ffprobeJson<{ format: { duration: string } }>(['-show_entries', 'format=duration'], url);
      assert.ok(Math.abs(Number(probed.format.duration) - chapter.durationMs / 1000) < 0.5, `${url} plays to the end`);
    }
  });
});
