/**
 * The live DVR window and reconnects, with ffmpeg: while a `record: true` stream is live,
 * `/play/<id>/dvr/video.m3u8` is a sliding playlist of the last AIRWAVE_DVR_WINDOW_SECONDS (no
 * EXT-X-PLAYLIST-TYPE, media sequence moving on, segments served from storage) and
 * `/play/<id>/dvr/index.mpd` a dynamic MPD whose timeShiftBufferDepth is the window. An encoder
 * that reconnects inside the reconnect window continues the same recording, the reconnect marked
 * as a discontinuity; the chapter says it has a gap and still plays whole.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '@airwave/server/testing/test-server';
import { registerAccount } from './support/accounts.js';
import { ffmpegMissing, ffprobeJson, publishPattern } from './support/ffmpeg.js';
import { fetchText, segmentDurations } from './support/http.js';
import { sleep, waitFor } from './support/processes.js';

const WINDOW_SECONDS = 10;
const PATTERN = { width: 320, height: 180, fps: 15, gop: 30 } as const;

describe('live DVR window with ffmpeg', { skip: ffmpegMissing || false }, () => {
  let server: TestServer;
  let token: string;

  before(async () => {
    server = await startTestServer(undefined, {
      AIRWAVE_RECONNECT_WINDOW_SECONDS: '6',
      AIRWAVE_DVR_WINDOW_SECONDS: String(WINDOW_SECONDS),
    });
    token = (await registerAccount(server, 'dvr-window')).token;
  });
  after(() => server.close());

  async function gql<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
    const response = await server.graphql<T>(query, variables, token);
    assert.equal(response.errors, undefined, JSON.stringify(response.errors));
    assert.ok(response.data);
    return response.data;
  }

  it('slides over the last window from storage, and a reconnect inside the window continues one recording', async () => {
    const created = await gql<{ createStream: { id: string; streamKey: string; playbackId: string } }>(
      'mutation { createStream(input: { name: "dvr window", record: true }) { ... on Stream { id streamKey playbackId } } }',
    );
    const stream = created.createStream;
    const url = `rtmp://127.0.0.1:${server.running.ports.rtmp}/live/${stream.streamKey}`;
    const dvr = `${server.baseUrl}/play/${stream.playbackId}/dvr`;
    const first = publishPattern(url, { ...PATTERN, seconds: 16 });
    const slid = await waitFor(
      'the DVR playlist slides',
      async () => {
        const response = await fetch(`${dvr}/video.m3u8`);
        if (response.status !== 200) {
          return undefined;
        }
        const text = await response.text();
        return Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(text)?.[1]) > 0 ? text : undefined;
      },
      40_000,
      500,
    );
    assert.doesNotMatch(slid, /#EXT-X-PLAYLIST-TYPE/);
    assert.doesNotMatch(slid, /#EXT-X-ENDLIST/);
    const listed = segmentDurations(slid).reduce((sum, seconds) => sum + seconds, 0);
    assert.ok(listed <= WINDOW_SECONDS + 4.5, `${listed} s listed in a ${WINDOW_SECONDS} s window`);
    const segment = slid.split('\n').find((line) => line.endsWith('.m4s'));
    assert.ok(segment);
    assert.equal((await fetch(`${dvr}/${segment}`)).status, 200);
    const mpd = await fetchText(`${dvr}/index.mpd`);
    assert.match(mpd, /<MPD [^>]*type="dynamic"/);
    assert.match(mpd, new RegExp(`timeShiftBufferDepth="PT${WINDOW_SECONDS.toFixed(3)}S"`));
    assert.equal(await first.exited, 0, first.stderr());

    await sleep(1500);
    const second = publishPattern(url, { ...PATTERN, seconds: 6 });
    assert.equal(await second.exited, 0, second.stderr());
    const recordings = await waitFor(
      'the recording finalized',
      async () => {
        const data = await gql<{ storageArtifactsConnection: { nodes: { hash: string; status: string }[] } }>(
          'query ($id: ID) { storageArtifactsConnection(input: { kinds: [DVR], streamId: $id }) { nodes { hash status } } }',
          { id: stream.id },
        );
        const nodes = data.storageArtifactsConnection.nodes;
        return nodes.every((node) => node.status === 'completed') && nodes.length > 0 ? nodes : undefined;
      },
      40_000,
    );
    assert.equal(recordings.length, 1, 'one recording across the reconnect');
    const chapters = await gql<{
      dvrChapters: { chapters: { hasGaps: boolean; playbackId: string; durationMs: number }[] };
    }>('query ($id: ID!) { dvrChapters(dvrId: $id) { chapters { hasGaps playbackId durationMs } } }', {
      id: recordings[0]?.hash,
    });
    const [chapter] = chapters.dvrChapters.chapters;
    assert.ok(chapter);
    assert.equal(chapter.hasGaps, true);
    assert.ok(Math.abs(chapter.durationMs / 1000 - 22) <= 4, `chapter of ${chapter.durationMs} ms`);
    const playlist = await fetchText(`${server.baseUrl}/play/${chapter.playbackId}/cmaf/video.m3u8`);
    assert.match(playlist, /#EXT-X-DISCONTINUITY\n/);
    const ended = await fetchText(`${dvr}/video.m3u8`);
    assert.match(ended, /#EXT-X-ENDLIST/);
    const probed = await ffprobeJson<{ format: { duration: string } }>(
      ['-show_entries', 'format=duration'],
      `${server.baseUrl}/play/${chapter.playbackId}/cmaf/index.m3u8`,
    );
    assert.ok(Number(probed.format.duration) > 18);
  });
});
