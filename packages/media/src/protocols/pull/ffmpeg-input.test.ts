/**
 * ffmpeg pulls through the guarded relays, against real sources on loopback: the test's RTSP
 * server (interleaved TCP) and an HTTP server of HLS playlists and segments that ffmpeg wrote.
 * The tracks arrive through ffmpeg's MPEG-TS and the mpegts demuxer; redirects to refused
 * addresses end the attempt with the guard's reason, and nothing is fetched from them.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Hub } from '../../hub/hub.js';
import { silentLogger } from '../../ports.js';
import { type EncodedMedia, encodeTestMedia, ffmpegSkip, run } from '../../testing/ffmpeg-media.js';
import { type RtspTestServer, startRtspTestServer } from '../../testing/rtsp-server.js';
import { suiteTempDir } from '../../testing/temp-dir.js';
import { testSourceArgs } from '../../testing/test-source.js';
import { until } from '../../testing/until.js';
import { type PullAddressGuard, PullRefusedError } from './address-guard.js';
import { ffmpegInputs } from './ffmpeg-input.js';
import { HttpRelay } from './http-relay.js';
import { type PullEvent, PullSession } from './pull-session.js';
import { readTransportStream } from './ts-reader.js';
import { readWebm } from './webm-reader.js';

/** Resolves names of the test (`*.test` → 127.0.0.1) and refuses 127.0.0.2 as "private". */
const guard: PullAddressGuard = {
  async resolve(host) {
    const address = host.endsWith('.test') ? '127.0.0.1' : host;
    if (address === '127.0.0.2') {
      throw new PullRefusedError('private_not_allowed', `${host} is private`);
    }
    return [address];
  },
};

describe('ffmpeg pulls through the guarded relays', { skip: ffmpegSkip() }, () => {
  const dir = suiteTempDir('airwave-ffmpeg-pull-');
  let media: EncodedMedia;
  let rtsp: RtspTestServer;
  let relay: HttpRelay;
  let http: Server;
  let httpPort = 0;
  const fetched: string[] = [];
  let hub: Hub;
  let sessions = 0;
  /** The origin's live stream at /live/index.m3u8: its segment names' prefix and whether it ended. */
  let origin = { prefix: 'a', ended: false };

  before(async () => {
    media = encodeTestMedia(dir.path, testSourceArgs({ seconds: 3, size: '320x180', gop: 30, bFrames: 0 }));
    rtsp = await startRtspTestServer({ tracks: media.tracks, units: media.units });
    run('ffmpeg', [
      ...['-v', 'error', '-i', media.file, '-c', 'copy', '-bsf:v', 'h264_mp4toannexb'],
      ...['-f', 'hls', '-hls_time', '1', '-hls_playlist_type', 'vod', join(dir.path, 'index.m3u8')],
    ]);
    http = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      fetched.push(`${req.headers.host}${path}`);
      if (path === '/moved.m3u8') {
        res.writeHead(302, { location: `http://127.0.0.2:${httpPort}/index.m3u8` }).end();
        return;
      }
      if (path === '/elsewhere.m3u8') {
        res.writeHead(302, { location: `http://origin.test:${httpPort}/index.m3u8` }).end();
        return;
      }
      if (path === '/live/index.m3u8') {
        res.writeHead(200, { 'content-type': 'application/vnd.apple.mpegurl' });
        res.end(livePlaylist(origin.prefix, origin.ended));
        return;
      }
      const segment = /^\/live\/[a-z](\d+)\.ts$/.exec(path);
      if (segment) {
        res.end(readFileSync(join(dir.path, `index${segment[1]}.ts`)));
        return;
      }
      if (path === '/private-segments.m3u8') {
        const playlist = readFileSync(join(dir.path, 'index.m3u8'), 'utf8');
        res.end(playlist.replace(/^index/gm, `http://127.0.0.2:${httpPort}/index`));
        return;
      }
      try {
        res.end(readFileSync(join(dir.path, path.replace(/^\/+/, ''))));
      } catch {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const address = http.address();
    httpPort = typeof address === 'object' && address ? address.port : 0;
    relay = await HttpRelay.start(silentLogger);
    hub = new Hub({ log: silentLogger, reconnectWindowMs: 2_000 });
  });

  after(async () => {
    hub?.close();
    await relay?.close();
    await rtsp?.close();
    http?.closeAllConnections();
    await new Promise((resolve) => http?.close(resolve));
  });

  /** The VOD playlist ffmpeg wrote, served as a live playlist whose segments are named `<prefix><n>.ts`. */
  function livePlaylist(prefix: string, ended: boolean): string {
    const vod = readFileSync(join(dir.path, 'index.m3u8'), 'utf8');
    const lines = vod
      .split('\n')
      .filter((line) => !/^#EXT-X-(ENDLIST|PLAYLIST-TYPE)/.test(line))
      .map((line) => line.replace(/^index(\d+)\.ts$/, `${prefix}$1.ts`));
    return `${lines.join('\n').trimEnd()}\n${ended ? '#EXT-X-ENDLIST\n' : ''}`;
  }

  function pull(uri: string, events: PullEvent[], healthyAfterMs?: number): { session: PullSession; streamId: string } {
    sessions++;
    const streamId = `s-${sessions}`;
    const session = new PullSession({
      hub,
      grant: { streamId, playbackId: `p-${sessions}` },
      uri,
      open: ffmpegInputs({ relay, tsReader: readTransportStream, webmReader: readWebm }),
      guard,
      log: silentLogger,
      retry: { baseMs: 200, maxMs: 1000 },
      ...(healthyAfterMs === undefined ? {} : { healthyAfterMs }),
      onEvent: (event) => events.push(event),
    });
    session.start();
    return { session, streamId };
  }

  function described(streamId: string): string[] {
    return (hub.getByStreamId(streamId)?.description?.tracks ?? []).map((track) => `${track.kind}:${track.codec}`);
  }

  it('RTSP over interleaved TCP through the relay: H.264 + AAC', async () => {
    const events: PullEvent[] = [];
    const { session, streamId } = pull(`rtsp://cam.test:${rtsp.port}/live`, events);
    let units = 0;
    await until(() => described(streamId).length === 2, 'the RTSP stream described', 20_000);
    hub.getByStreamId(streamId)?.attach({ onUnit: () => units++ }, false);
    await until(() => units > 30, 'units flowing', 10_000);
    session.stop('test over');
    assert.deepEqual(described(streamId).sort(), ['audio:aac', 'video:h264']);
    assert.equal(events[0]?.kind, 'connected');
    assert.equal(events[0]?.address, '127.0.0.1');
    assert.ok(
      rtsp.requests.some((line) => line.startsWith('SETUP')),
      'SETUP asked (interleaved)',
    );
  });

  it('an RTSP redirect is not followed by ffmpeg: the next attempt dials it through the guard', async () => {
    const redirecting = await startRtspTestServer({
      tracks: media.tracks,
      units: media.units,
      redirectTo: `rtsp://127.0.0.2:${rtsp.port}/live`,
    });
    const events: PullEvent[] = [];
    const before = rtsp.connections();
    const { session } = pull(`rtsp://127.0.0.1:${redirecting.port}/live`, events);
    await until(() => events.length >= 2, 'the redirect and the refused attempt', 20_000);
    session.stop('test over');
    await redirecting.close();
    assert.deepEqual(
      events.slice(0, 2).map((event) => event.kind),
      ['redirected', 'private_not_allowed'],
    );
    assert.equal(rtsp.connections(), before, 'nothing connected to the redirect target');
  });

  it('HLS through the HTTP relay: the playlist and segments are fetched and the tracks arrive', async () => {
    const events: PullEvent[] = [];
    const { session, streamId } = pull(`http://origin.test:${httpPort}/index.m3u8`, events);
    await until(() => described(streamId).length === 2, 'the HLS stream described', 20_000);
    session.stop('test over');
    assert.deepEqual(described(streamId).sort(), ['audio:aac', 'video:h264']);
    assert.ok(
      fetched.some((line) => line === `origin.test:${httpPort}/index0.ts`),
      'a segment was fetched with Host kept',
    );
  });

  it('HLS redirects are followed through the guard; one to a refused address ends the attempt unfetched', async () => {
    const followed: PullEvent[] = [];
    const first = pull(`http://origin.test:${httpPort}/elsewhere.m3u8`, followed);
    await until(() => described(first.streamId).length === 2, 'the redirected HLS stream described', 20_000);
    first.session.stop('test over');
    const events: PullEvent[] = [];
    const { session } = pull(`http://origin.test:${httpPort}/moved.m3u8`, events);
    await until(() => events.length >= 1, 'the refused redirect', 20_000);
    session.stop('test over');
    assert.equal(events[0]?.kind, 'private_not_allowed');
    assert.ok(!fetched.some((line) => line.startsWith('127.0.0.2')), 'nothing fetched from the refused address');
  });

  it('a failure names the source with its secrets redacted, never the relay URL ffmpeg was given', async () => {
    const events: PullEvent[] = [];
    const { session } = pull(`http://origin.test:${httpPort}/missing.ts?token=secret`, events);
    await until(() => events.length >= 1, 'the failed attempt', 20_000);
    session.stop('test over');
    assert.equal(events[0]?.kind, 'failed');
    assert.match(
      events[0]?.message ?? '',
      new RegExp(`http://origin\\.test:${httpPort}/missing\\.ts\\?token=\\*\\*\\*`),
    );
    assert.match(events[0]?.message ?? '', /404/);
    assert.doesNotMatch(events[0]?.message ?? '', /secret|127\.0\.0\.1/);
  });

  it('a playlist naming segments on a refused address is refused before any of them is fetched', async () => {
    const events: PullEvent[] = [];
    const { session } = pull(`http://origin.test:${httpPort}/private-segments.m3u8`, events);
    await until(() => events.length >= 1, 'the refused playlist', 20_000);
    session.stop('test over');
    assert.equal(events[0]?.kind, 'private_not_allowed');
    assert.ok(!fetched.some((line) => line.startsWith('127.0.0.2')), 'no segment fetched from the refused address');
  });

  it('an ended HLS live stream is not replayed; a new live stream on the same URL is pulled again', async () => {
    const segments = readFileSync(join(dir.path, 'index.m3u8'), 'utf8').match(/^index\d+\.ts$/gm)?.length ?? 0;
    const live = (name: string) => fetched.filter((line) => line === `origin.test:${httpPort}/live/${name}`).length;
    const names = (prefix: string) => Array.from({ length: segments }, (_, i) => `${prefix}${i}.ts`);
    origin = { prefix: 'a', ended: false };
    const events: PullEvent[] = [];
    const { session } = pull(`http://origin.test:${httpPort}/live/index.m3u8`, events, 500);
    await until(() => names('a').every((name) => live(name) > 0), 'every live segment fetched', 20_000);
    origin.ended = true;
    const ends = () => events.filter((event) => event.kind === 'source_ended').length;
    // The attempt that read the stream to its end, then two that found nothing new in the ended playlist.
    await until(() => ends() >= 3, 'the ended source retried twice', 30_000);
    const endedAt = events.findIndex((event) => event.kind === 'source_ended');
    assert.deepEqual(
      names('a').map(live),
      names('a').map(() => 1),
      'each segment of the ended stream fetched once',
    );
    assert.deepEqual(
      events.slice(endedAt).map((event) => event.kind),
      events.slice(endedAt).map(() => 'source_ended'),
      'no later attempt connected to the ended stream',
    );
    origin = { prefix: 'b', ended: false };
    const before = events.length;
    await until(() => events.slice(before).some((event) => event.kind === 'connected'), 'the new live stream', 20_000);
    await until(() => live('b0.ts') > 0, "the new stream's first segment", 20_000);
    session.stop('test over');
    assert.ok(
      names('a').every((name) => live(name) === 1),
      'the ended stream still not replayed',
    );
  });

  it('a playlist that ended before the pull is relayed once, not looped', async () => {
    const count = () => fetched.filter((line) => line === `origin.test:${httpPort}/index0.ts`).length;
    const before = count();
    const events: PullEvent[] = [];
    const { session } = pull(`http://origin.test:${httpPort}/index.m3u8`, events, 500);
    await until(() => events.filter((event) => event.kind === 'source_ended').length >= 3, 'two retries', 30_000);
    session.stop('test over');
    assert.deepEqual(
      events.slice(0, 4).map((event) => event.kind),
      ['connected', 'source_ended', 'source_ended', 'source_ended'],
    );
    assert.equal(count() - before, 1, 'the first segment fetched once');
  });
});
