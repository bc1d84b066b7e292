/**
 * Recording with real clients: ffmpeg publishes to a `record: true` stream; when the stream ends
 * the recording is completed and cut into a chapter with its own playback ID, and ffprobe decodes
 * that chapter as HLS over CMAF, HLS over MPEG-TS, DASH and progressive MP4 (moov before mdat,
 * byte ranges) with the published duration (± one GOP). startDVR records a live stream that was
 * not recording; stopDVR finalizes it; deleteDVR removes it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { jpegSize } from '@airwave/server/jobs/thumbnails/sprite-sheet';
import { startTestServer, type TestServer } from '@airwave/server/testing/test-server';
import { registerAccount } from './support/accounts.js';
import { byType, ffmpegMissing, ffprobeJson, probePackets, publishPattern } from './support/ffmpeg.js';
import { waitFor } from './support/processes.js';
import { record, subscribed, wsUrl } from './support/subscriptions.js';

const PATTERN = { width: 320, height: 180, fps: 15, gop: 30 } as const;
const GOP_SECONDS = 2;

interface Chapter {
  chapterId: string;
  state: string;
  playbackId: string;
  durationMs: number;
  sizeBytes: number;
  segmentCount: number;
}

describe('recording (DVR) with ffmpeg', { skip: ffmpegMissing || false }, () => {
  let server: TestServer;
  let token: string;

  before(async () => {
    server = await startTestServer(undefined, { AIRWAVE_RECONNECT_WINDOW_SECONDS: '1' });
    token = (await registerAccount(server, 'recorder')).token;
  });
  after(() => server.close());

  async function gql<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
    const response = await server.graphql<T>(query, variables, token);
    assert.equal(response.errors, undefined, JSON.stringify(response.errors));
    assert.ok(response.data);
    return response.data;
  }

  async function newStream(record: boolean) {
    const data = await gql<{ createStream: { id: string; streamId: string; streamKey: string } }>(
      `mutation ($input: CreateStreamInput!) { createStream(input: $input) {
        __typename ... on Stream { id streamId streamKey } } }`,
      { input: { name: record ? 'recorded' : 'live', record } },
    );
    return data.createStream;
  }

  const rtmpUrl = (key: string) => `rtmp://127.0.0.1:${server.running.ports.rtmp}/live/${key}`;

  async function recordingsOf(streamId: string) {
    const data = await gql<{
      storageArtifactsConnection: {
        totalCount: number;
        nodes: { id: string; hash: string; status: string; playbackId: string; durationSeconds: number }[];
      };
    }>(
      `query ($streamId: ID) { storageArtifactsConnection(input: { kinds: [DVR], streamId: $streamId }) {
        totalCount nodes { id hash status playbackId durationSeconds } } }`,
      { streamId },
    );
    return data.storageArtifactsConnection.nodes;
  }

  async function chaptersOf(dvrId: string): Promise<Chapter[]> {
    const data = await gql<{ dvrChapters: { chapters: Chapter[] } }>(
      `query ($dvrId: ID!) { dvrChapters(dvrId: $dvrId) { chapters {
        chapterId state playbackId durationMs sizeBytes segmentCount } } }`,
      { dvrId },
    );
    return data.dvrChapters.chapters;
  }

  async function probeDuration(url: string): Promise<number> {
    const parsed = await ffprobeJson<{ format: { duration?: string } }>(['-show_entries', 'format=duration'], url);
    return Number(parsed.format.duration);
  }

  async function assertPlays(url: string, seconds: number, label: string) {
    const streams = (
      await ffprobeJson<{ streams: { codec_type: string; codec_name: string }[] }>(['-show_streams'], url)
    ).streams;
    assert.equal(byType(streams as never, 'video').codec_name, 'h264', `${label}: video`);
    assert.equal(byType(streams as never, 'audio').codec_name, 'aac', `${label}: audio`);
    const duration = await probeDuration(url);
    assert.ok(Math.abs(duration - seconds) <= GOP_SECONDS + 0.5, `${label}: ${duration} s, published ${seconds} s`);
    const packets = (await probePackets(url)).filter((packet) => packet.codec_type === 'video');
    assert.ok(packets[0]?.flags.startsWith('K'), `${label}: starts with a keyframe`);
    const times = packets.map((packet) => Number(packet.dts_time)).filter((time) => Number.isFinite(time));
    for (let i = 1; i < times.length; i++) {
      assert.ok((times[i] as number) - (times[i - 1] as number) < 0.5, `${label}: no gap at ${times[i - 1]}`);
    }
  }

  it('records every publish of a record: true stream; the chapter plays as HLS (CMAF, TS), DASH and MP4', async () => {
    const stream = await newStream(true);
    const seconds = 8;
    const url = wsUrl(server);
    const dvrEvents = record(
      url,
      token,
      'subscription ($id: ID!) { liveDvrLifecycle(streamId: $id) { status dvrHash segmentCount } }',
      {
        id: stream.id,
      },
    );
    const storageEvents = record(
      url,
      token,
      'subscription ($id: ID!) { liveStorageEvents(streamId: $id) { action assetType assetHash } }',
      {
        id: stream.id,
      },
    );
    const processingEvents = record(
      url,
      token,
      'subscription ($id: ID!) { liveProcessingEvents(streamId: $id) { stage processType } }',
      {
        id: stream.id,
      },
    );
    await subscribed(server, 3);
    const encoder = publishPattern(rtmpUrl(stream.streamKey), { ...PATTERN, seconds });
    assert.equal(await encoder.exited, 0, encoder.stderr());
    const recording = await waitFor(
      'recording completed',
      async () => (await recordingsOf(stream.id)).find((entry) => entry.status === 'completed'),
      30_000,
    );
    assert.ok(Math.abs(recording.durationSeconds - seconds) <= GOP_SECONDS, `recorded ${recording.durationSeconds} s`);
    const chapter = await waitFor(
      'chapter finalized',
      async () => (await chaptersOf(recording.hash)).find((entry) => entry.state === 'FINALIZED'),
      60_000,
    );
    assert.notEqual(chapter.playbackId, recording.playbackId);
    const status = (name: string) => (result: { data?: Record<string, Record<string, unknown>> | null }) =>
      result.data?.liveDvrLifecycle?.status === name;
    await dvrEvents.waitFor(status('STARTED'), 'dvr STARTED');
    await dvrEvents.waitFor(status('RECORDING'), 'dvr RECORDING (a segment written)');
    await dvrEvents.waitFor(status('STOPPED'), 'dvr STOPPED');
    await storageEvents.waitFor(
      (result) => result.data?.liveStorageEvents?.action === 'ARTIFACT_CREATED',
      'chapter created',
    );
    await storageEvents.waitFor((result) => result.data?.liveStorageEvents?.action === 'SYNCED', 'renditions stored');
    await processingEvents.waitFor(
      (result) => result.data?.liveProcessingEvents?.stage === 'COMPLETED',
      'rendition processing completed',
    );
    await Promise.all([dvrEvents.close(), storageEvents.close(), processingEvents.close()]);
    assert.ok(chapter.sizeBytes > 0);
    const base = `${server.baseUrl}/play/${chapter.playbackId}`;
    await assertPlays(`${base}/cmaf/index.m3u8`, seconds, 'HLS over CMAF');
    await assertPlays(`${base}/hls/index.m3u8`, seconds, 'HLS over MPEG-TS');
    await assertPlays(`${base}/cmaf/index.mpd`, seconds, 'DASH');
    await assertPlays(`${base}.mp4`, seconds, 'MP4');
    const head = new Uint8Array(
      await (await fetch(`${base}.mp4`, { headers: { range: 'bytes=0-65535' } })).arrayBuffer(),
    );
    const text = Buffer.from(head).toString('latin1');
    assert.ok(text.indexOf('moov') > 0 && (text.indexOf('mdat') < 0 || text.indexOf('moov') < text.indexOf('mdat')));
    const ranged = await fetch(`${base}.mp4`, { headers: { range: 'bytes=100-199' } });
    assert.equal(ranged.status, 206);
    assert.equal((await ranged.arrayBuffer()).byteLength, 100);
    await assertPlays(`${server.baseUrl}/play/${recording.playbackId}/cmaf/index.m3u8`, seconds, 'whole recording');
    const vtt = await waitFor(
      'the sprite cues',
      async () => {
        const response = await fetch(`${base}/thumbnails/sprite.vtt`);
        return response.status === 200 ? response.text() : undefined;
      },
      30_000,
      250,
    );
    const sprite = new Uint8Array(await (await fetch(`${base}/thumbnails/sprite.jpg`)).arrayBuffer());
    const size = jpegSize(sprite);
    assert.ok(size, 'the sprite sheet is a JPEG');
    const cues = [...vtt.matchAll(/(\S+) --> (\S+)\n(\S+)#xywh=(\d+),(\d+),(\d+),(\d+)/g)];
    assert.equal(cues.length, 100);
    const seconds_ = (stamp: string) => stamp.split(':').reduce((sum, part) => sum * 60 + Number(part), 0);
    assert.equal(seconds_(cues[0]?.[1] as string), 0);
    assert.ok(
      Math.abs(seconds_(cues[99]?.[2] as string) - chapter.durationMs / 1000) < 0.01,
      'cues cover the duration',
    );
    for (const cue of cues) {
      const [x, y, w, h] = cue.slice(4, 8).map(Number) as [number, number, number, number];
      assert.ok(w > 0 && h > 0 && x + w <= size.width && y + h <= size.height, `${cue[0]} inside the sheet`);
    }
    const poster = await fetch(`${base}/thumbnails/poster.jpg`);
    assert.equal(poster.headers.get('content-type'), 'image/jpeg');
    assert.ok(jpegSize(new Uint8Array(await poster.arrayBuffer())));
  });

  it('startDVR records a live stream that was not recording; stopDVR finalizes it; deleteDVR removes it', async () => {
    const stream = await newStream(false);
    const notLive = await gql<{ startDVR: { __typename: string; field?: string } }>(
      `mutation ($id: ID!) { startDVR(streamId: $id) { __typename ... on ValidationError { field } } }`,
      { id: stream.id },
    );
    assert.deepEqual(notLive.startDVR, { __typename: 'ValidationError', field: 'streamId' });
    const encoder = publishPattern(rtmpUrl(stream.streamKey), PATTERN);
    let dvrHash = '';
    try {
      const started = await waitFor(
        'startDVR accepted',
        async () => {
          const data = await gql<{ startDVR: { __typename: string; dvrHash?: string; status?: string } }>(
            `mutation ($id: ID!) { startDVR(streamId: $id) { __typename ... on DVRRequest { dvrHash status } } }`,
            { id: stream.id },
          );
          return data.startDVR.__typename === 'DVRRequest' ? data.startDVR : undefined;
        },
        20_000,
        500,
      );
      assert.equal(started.status, 'recording');
      dvrHash = started.dvrHash as string;
      await waitFor(
        'five seconds recorded',
        async () =>
          (await recordingsOf(stream.id)).find((entry) => entry.hash === dvrHash && entry.durationSeconds >= 5),
        30_000,
        250,
      );
      const stopped = await gql<{ stopDVR: { __typename: string } }>(
        'mutation ($hash: ID!) { stopDVR(dvrHash: $hash) { __typename } }',
        { hash: dvrHash },
      );
      assert.equal(stopped.stopDVR.__typename, 'DeleteSuccess');
      const [recording] = (await recordingsOf(stream.id)).filter((entry) => entry.hash === dvrHash);
      assert.equal(recording?.status, 'completed');
      assert.equal((await chaptersOf(dvrHash)).length, 1);
    } finally {
      await encoder.stop();
    }
    const deleted = await gql<{ deleteDVR: { __typename: string } }>(
      'mutation ($hash: ID!) { deleteDVR(dvrHash: $hash) { __typename } }',
      { hash: dvrHash },
    );
    assert.equal(deleted.deleteDVR.__typename, 'DeleteSuccess');
    const gone = await server.graphql(
      'query ($id: ID!) { dvrChapters(dvrId: $id) { nextPageToken } }',
      { id: dvrHash },
      token,
    );
    assert.equal(gone.errors?.[0]?.extensions?.code, 'NOT_FOUND');
  });
});
