/**
 * SRT ingest through the real server (our TypeScript SRT listener): ffmpeg (libsrt) publishes
 * MPEG-TS in caller mode with the bare stream key and with `#!::r=<key>,m=publish`; classic HLS,
 * LL-HLS, DASH and progressive MP4 decode as the published codecs with every published frame;
 * H.265 plays as hvc1 fMP4; the stream goes LIVE and back; resolveIngestEndpoint hands out the
 * srt:// URL; an unknown key is refused and nothing goes live. A stream's own passphrase
 * (setStreamSrtPassphrase, write-only) admits AES-128 and AES-256 callers and refuses a wrong or
 * missing one; a second publisher is refused; the connection's statistics show on the stream and
 * in liveConnectionEvents.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { byType, ffmpegMissing, probeStreams, publishPattern } from './support/ffmpeg.js';
import { fetchText, readFor } from './support/http.js';
import {
  type MediaServer,
  type MediaStream,
  startMediaServer,
  streamState,
  waitForSegments,
  withTempFile,
} from './support/media-server.js';
import { spawnTracked, waitFor } from './support/processes.js';
import { record, subscribed } from './support/subscriptions.js';

const FPS = 30;
/**
 * libsrt closes a live-mode socket with SRTO_LINGER 0: what ffmpeg wrote last but libsrt has not
 * sent yet is discarded at exit. Lingering lets every frame leave, so frame counts can be exact.
 */
const LINGER = 'linger=5';
const srtMissing =
  ffmpegMissing ||
  (spawnSync('ffmpeg', ['-hide_banner', '-protocols'], { encoding: 'utf8' }).stdout.includes('srt')
    ? false
    : 'ffmpeg without libsrt');

/** Waits until the LL-HLS video playlist carries EXT-X-ENDLIST (the publish ended). */
async function waitForEnd(stream: MediaStream): Promise<void> {
  await waitFor(
    'EXT-X-ENDLIST on the LL-HLS playlist',
    async () => (await fetchText(stream.playUrl('/cmaf/video.m3u8'))).includes('#EXT-X-ENDLIST'),
    20_000,
    250,
  );
}

describe('SRT ingest of the real server', { skip: srtMissing }, () => {
  let media: MediaServer;
  let srtPort = 0;

  before(async () => {
    media = await startMediaServer({ AIRWAVE_RECONNECT_WINDOW_SECONDS: '1' });
    srtPort = media.server.running.ports.srt;
  });

  after(async () => {
    await media?.close();
  });

  it('resolveIngestEndpoint hands out the srt:// URL of the listener', async () => {
    const resolved = await media.server.graphql<{ resolveIngestEndpoint: { primary: { srtUrl: string } } }>(
      'query ($key: String!) { resolveIngestEndpoint(streamKey: $key) { primary { srtUrl } } }',
      { key: media.streamKey },
    );
    assert.equal(
      resolved.data?.resolveIngestEndpoint.primary.srtUrl,
      `srt://127.0.0.1:${srtPort}?streamid=${media.streamKey}`,
    );
  });

  it('H.264 + AAC with a bare stream key: LIVE, then HLS, LL-HLS, DASH and MP4 decode every frame', async () => {
    const seconds = 6;
    const ffmpeg = publishPattern(`srt://127.0.0.1:${srtPort}?streamid=${media.streamKey}&${LINGER}`, {
      seconds,
      format: 'mpegts',
    });
    try {
      await waitForSegments(media, 1);
      const live = await streamState(media);
      assert.equal(live.metrics.status, 'LIVE');
      assert.deepEqual(
        live.tracks.map((track) => `${track.trackType} ${track.codec}`),
        ['video h264', 'audio aac'],
      );
      const bytes = await readFor(media.playUrl('.mp4'), 1500);
      const mp4 = await withTempFile('live.mp4', [bytes], (path) => probeStreams(path));
      assert.equal(
        `${byType(mp4, 'video').codec_name} ${byType(mp4, 'video').width}x${byType(mp4, 'video').height}`,
        'h264 640x360',
      );
      assert.equal(await ffmpeg.exited, 0, ffmpeg.stderr());
    } finally {
      await ffmpeg.stop();
    }
    await waitForEnd(media);
    for (const path of ['/hls/index.m3u8', '/cmaf/index.m3u8', '/cmaf/index.mpd']) {
      const streams = await probeStreams(media.playUrl(path));
      const video = byType(streams, 'video');
      assert.equal(`${video.codec_name} ${video.width}x${video.height}`, 'h264 640x360', path);
      assert.equal(Number(video.nb_read_frames), seconds * FPS, `${path} decodes every published frame`);
      assert.equal(byType(streams, 'audio').codec_name, 'aac', path);
    }
    await waitFor(
      'OFFLINE after the reconnect window',
      async () => (await streamState(media)).metrics.status === 'OFFLINE',
      15_000,
      250,
    );
  });

  it('H.265 with #!::r=<key>,m=publish plays as hvc1 fMP4 with every frame', async () => {
    const stream = await media.addStream('srt hevc');
    const seconds = 4;
    const ffmpeg = spawnTracked('ffmpeg', [
      ...[
        '-hide_banner',
        '-loglevel',
        'error',
        '-nostdin',
        '-re',
        '-f',
        'lavfi',
        '-i',
        `testsrc2=size=640x360:rate=${FPS}`,
      ],
      ...['-t', String(seconds), '-c:v', 'libx265', '-preset', 'ultrafast', '-bf', '0'],
      ...['-x265-params', 'keyint=30:log-level=error', '-f', 'mpegts'],
      `srt://127.0.0.1:${srtPort}?streamid=#!::r=${stream.streamKey},m=publish&${LINGER}`,
    ]);
    try {
      await waitFor(
        'a live HEVC stream',
        async () => (await fetch(stream.playUrl('.mp4'), { method: 'HEAD' })).ok,
        20_000,
        200,
      );
      assert.match(await fetchText(stream.playUrl('/cmaf/index.m3u8')), /CODECS="hvc1\.1\.[^"]+",RESOLUTION=640x360/);
      assert.match(await fetchText(stream.playUrl('/cmaf/index.mpd')), /codecs="hvc1\.1\.[^"]+"[^>]* width="640"/);
      assert.equal(await ffmpeg.exited, 0, ffmpeg.stderr());
    } finally {
      await ffmpeg.stop();
    }
    await waitForEnd(stream);
    for (const path of ['/cmaf/index.m3u8', '/cmaf/index.mpd']) {
      const video = byType(await probeStreams(stream.playUrl(path)), 'video');
      assert.equal(`${video.codec_name} ${video.width}x${video.height}`, 'hevc 640x360', path);
      assert.equal(Number(video.nb_read_frames), seconds * FPS, `${path} decodes every frame`);
    }
  });

  it('refuses an unknown stream key; nothing goes live', async () => {
    const ffmpeg = publishPattern(`srt://127.0.0.1:${srtPort}?streamid=sk_unknown_key`, {
      seconds: 1,
      format: 'mpegts',
    });
    const code = await ffmpeg.exited;
    assert.notEqual(code, 0);
    assert.equal(media.server.running.hub.streams().length, 0);
  });

  it("a stream's passphrase admits AES-128 and AES-256, refuses a wrong or missing one and a second publisher; statistics and events", async () => {
    const stream = await media.addStream('srt secret');
    const set = await media.server.graphql<{ setStreamSrtPassphrase: Record<string, unknown> }>(
      `mutation ($id: ID!, $p: String) { setStreamSrtPassphrase(streamId: $id, passphrase: $p) {
        __typename ... on StreamSrtSettings { passphraseSet } ... on ValidationError { field } } }`,
      { id: stream.streamId, p: 'correct-horse-battery' },
      media.token,
    );
    assert.deepEqual(set.data?.setStreamSrtPassphrase, { __typename: 'StreamSrtSettings', passphraseSet: true });
    const short = await media.server.graphql<{ setStreamSrtPassphrase: Record<string, unknown> }>(
      'mutation ($id: ID!) { setStreamSrtPassphrase(streamId: $id, passphrase: "short") { __typename ... on ValidationError { field } } }',
      { id: stream.streamId },
      media.token,
    );
    assert.deepEqual(short.data?.setStreamSrtPassphrase, { __typename: 'ValidationError', field: 'passphrase' });
    const url = `srt://127.0.0.1:${srtPort}?streamid=${stream.streamKey}&${LINGER}`;

    for (const refused of [`${url}&passphrase=not-the-passphrase`, url]) {
      const ffmpeg = publishPattern(refused, { seconds: 1, format: 'mpegts' });
      assert.notEqual(await ffmpeg.exited, 0, refused);
      assert.equal(media.server.running.hub.streams().length, 0, `${refused} created nothing`);
    }

    const events = record(
      `${media.server.baseUrl.replace(/^http/, 'ws')}/graphql/ws`,
      media.token,
      'subscription ($id: ID!) { liveConnectionEvents(streamId: $id) { eventType connector sessionId ingest } }',
      { id: stream.streamId },
    );
    try {
      await subscribed(media.server, 1);
      for (const keyLength of [16, 32]) {
        const seconds = 3;
        const ffmpeg = publishPattern(`${url}&passphrase=correct-horse-battery&pbkeylen=${keyLength}`, {
          seconds,
          format: 'mpegts',
        });
        try {
          await waitFor(
            'the encrypted publish',
            async () => (await fetch(stream.playUrl('.mp4'), { method: 'HEAD' })).ok,
            20_000,
            200,
          );
          const second = publishPattern(`${url}&passphrase=correct-horse-battery&pbkeylen=${keyLength}`, {
            seconds: 1,
            format: 'mpegts',
          });
          assert.notEqual(await second.exited, 0, 'a second publisher is refused');
          assert.equal(await ffmpeg.exited, 0, ffmpeg.stderr());
        } finally {
          await ffmpeg.stop();
        }
        await waitForEnd(stream);
        const video = byType(
          await probeStreams(stream.playUrl('/cmaf/index.m3u8'), ['-select_streams', 'v:0']),
          'video',
        );
        assert.equal(Number(video.nb_read_frames), seconds * FPS, `AES-${keyLength * 8}: every frame`);
        await waitFor('the stream to end', async () => media.server.running.hub.streams().length === 0, 15_000, 250);
      }
      const disconnect = await events.waitFor(
        (result) =>
          result.data?.liveConnectionEvents?.eventType === 'disconnect' &&
          result.data.liveConnectionEvents.connector === 'srt',
        'an SRT disconnect event',
      );
      const ingest = disconnect.data?.liveConnectionEvents?.ingest as Record<string, unknown>;
      assert.equal(disconnect.data?.liveConnectionEvents?.connector, 'srt');
      assert.equal(ingest.encrypted, true);
      assert.ok(Number(ingest.packetsReceived) > 100, JSON.stringify(ingest));
      assert.ok(
        events.results.some(
          (result) =>
            result.data?.liveConnectionEvents?.eventType === 'connect' &&
            result.data.liveConnectionEvents.connector === 'srt',
        ),
      );
    } finally {
      await events.close();
    }
    const read = await media.server.graphql<{
      stream: { srtPassphraseSet: boolean; ingestConnection: Record<string, unknown> };
    }>(
      `query ($id: ID!) { stream(id: $id) { srtPassphraseSet ingestConnection {
        protocol connected packetsReceived packetsLost packetsRetransmitted packetsDropped bytesReceived rttMs latencyMs encrypted } } }`,
      { id: stream.streamId },
      media.token,
    );
    assert.equal(read.data?.stream.srtPassphraseSet, true);
    const connection = read.data?.stream.ingestConnection;
    assert.equal(connection?.protocol, 'srt');
    assert.equal(connection?.connected, false);
    assert.equal(connection?.encrypted, true);
    assert.equal(connection?.latencyMs, 120);
    assert.equal(connection?.packetsDropped, 0);
    assert.ok(
      Number(connection?.packetsReceived) > 100 && Number(connection?.bytesReceived) > 100_000,
      JSON.stringify(connection),
    );
  });
});
