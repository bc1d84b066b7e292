/**
 * Crash safety of recording with a real process: `airwave start` records an ffmpeg publish, is
 * killed with SIGKILL mid-recording, and on restart (same data directory) finalizes the recording
 * it left open — completed, with the segments that were closed before the kill, cut into a
 * chapter that plays to the end.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { airwaveReady, startCliOn } from './support/airwave-cli.js';
import { ffmpegMissing, ffprobeJson, publishPattern } from './support/ffmpeg.js';
import { type Tracked, waitFor } from './support/processes.js';

const START_TIMEOUT_MS = 120_000;

describe('recording survives kill -9', { skip: ffmpegMissing || false }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'airwave-crash-'));
  const running: Tracked[] = [];
  after(async () => {
    for (const cli of running) {
      await cli.stop();
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('finalizes on restart what a killed process was recording; every closed segment plays', async () => {
    const first = startCliOn(dataDir);
    running.push(first);
    const ready = (await airwaveReady(first, START_TIMEOUT_MS)) as unknown as { ports: { http: number; rtmp: number } };
    let base = `http://127.0.0.1:${ready.ports.http}`;
    const gql = async <T>(query: string, variables: Record<string, unknown> = {}, token?: string): Promise<T> => {
      const response = await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ query, variables }),
      });
      const body = (await response.json()) as { data?: T; errors?: unknown };
      assert.equal(body.errors, undefined, JSON.stringify(body.errors));
      return body.data as T;
    };
    const registered = await gql<{ register: { token: string } }>(
      'mutation ($input: RegisterInput!) { register(input: $input) { ... on AuthPayload { token } } }',
      {
        input: {
          email: `crash-${randomBytes(4).toString('hex')}@example.test`,
          password: 'correct horse battery',
          name: 'c',
        },
      },
    );
    const token = registered.register.token;
    const created = await gql<{ createStream: { id: string; streamKey: string } }>(
      'mutation { createStream(input: { name: "crash", record: true }) { ... on Stream { id streamKey } } }',
      {},
      token,
    );
    const stream = created.createStream;
    const dvrs = async () =>
      (
        await gql<{
          storageArtifactsConnection: {
            nodes: { hash: string; status: string; durationSeconds: number }[];
          };
        }>(
          'query ($id: ID) { storageArtifactsConnection(input: { kinds: [DVR], streamId: $id }) { nodes { hash status durationSeconds } } }',
          { id: stream.id },
          token,
        )
      ).storageArtifactsConnection.nodes;
    const encoder = publishPattern(`rtmp://127.0.0.1:${ready.ports.rtmp}/live/${stream.streamKey}`, {
      width: 320,
      height: 180,
      fps: 15,
      gop: 30,
    });
    try {
      await waitFor(
        'six seconds recorded',
        async () => (await dvrs()).find((dvr) => dvr.durationSeconds >= 6),
        60_000,
        250,
      );
      first.child.kill('SIGKILL');
      await first.exited;
    } finally {
      await encoder.stop();
    }

    const second = startCliOn(dataDir);
    running.push(second);
    base = `http://127.0.0.1:${(await airwaveReady(second, START_TIMEOUT_MS)).ports.http}`;
    const [recording] = await dvrs();
    assert.ok(recording);
    assert.equal(recording.status, 'completed', 'the open recording was finalized at start');
    assert.ok(recording.durationSeconds >= 6, `kept ${recording.durationSeconds} s`);
    const chapter = await waitFor(
      'the chapter finalized',
      async () => {
        const page = await gql<{
          dvrChapters: { chapters: { state: string; playbackId: string; durationMs: number }[] };
        }>(
          'query ($id: ID!) { dvrChapters(dvrId: $id) { chapters { state playbackId durationMs } } }',
          { id: recording.hash },
          token,
        );
        return page.dvrChapters.chapters.find((entry) => entry.state === 'FINALIZED');
      },
      60_000,
    );
    assert.ok(Math.abs(chapter.durationMs / 1000 - recording.durationSeconds) < 0.5);
    for (const path of ['cmaf/index.m3u8', 'hls/index.m3u8']) {
      const probed = await ffprobeJson<{ format: { duration: string } }>(
        ['-show_entries', 'format=duration'],
        `${base}/play/${chapter.playbackId}/${path}`,
      );
      assert.ok(Math.abs(Number(probed.format.duration) - chapter.durationMs / 1000) < 0.5, `${path} plays to the end`);
    }
  });
});
