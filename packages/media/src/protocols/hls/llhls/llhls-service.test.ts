import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { Hub, type Publisher } from '../../../hub/hub.js';
import { silentLogger } from '../../../ports.js';
import type { MediaUnit } from '../../../stream/media-unit.js';
import { writeUnits } from '../../../testing/live-feed.js';
import { playRequest } from '../../../testing/play-request.js';
import { SYNTHETIC_AUDIO, SYNTHETIC_VIDEO, syntheticUnits } from '../../../testing/synthetic-av.js';
import type { PlayRequest, PlayResponse } from '../../shared/http-types.js';
import { LlHlsService } from './llhls-service.js';

const grant = { streamId: 's1', playbackId: 'p1' };
let hub: Hub | undefined;

function setup(options: ConstructorParameters<typeof LlHlsService>[1] = {}): {
  service: LlHlsService;
  publisher: Publisher;
  hub: Hub;
} {
  hub = new Hub({ log: silentLogger, reconnectWindowMs: 0 });
  const service = new LlHlsService(hub, { firstSegmentWaitMs: 50, ...options });
  const publisher = hub.publish(grant, 'rtmp');
  publisher.setDescription({ tracks: [SYNTHETIC_VIDEO, SYNTHETIC_AUDIO] });
  return { service, publisher, hub };
}

function request(path: string, query: Record<string, string> = {}, extra: Partial<PlayRequest> = {}): PlayRequest {
  return playRequest({ path, query, ...extra });
}

function text(response: PlayResponse): string {
  assert.equal(typeof response.body, 'string');
  return response.body as string;
}

/** Units from `from` seconds until `to` seconds of the synthetic feed. */
function span(from: number, to: number): MediaUnit[] {
  return syntheticUnits({ seconds: to - from, startSeconds: from });
}

afterEach(() => {
  hub?.close();
  hub = undefined;
});

describe('LlHlsService', () => {
  it('serves a multivariant playlist with codecs, resolution, bandwidth, frame rate and an audio rendition', async () => {
    const { service, publisher, hub: current } = setup();
    writeUnits(publisher, span(0, 4.6));
    const response = await service.handle(request('index.m3u8', {}, { uriQuery: 'jwt=abc' }));
    assert.equal(response.status, 200);
    assert.equal(response.headers['content-type'], 'application/vnd.apple.mpegurl');
    assert.equal(response.headers['cache-control'], 'no-store');
    const body = text(response);
    assert.match(
      body,
      /#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="audio",NAME="audio",DEFAULT=YES,AUTOSELECT=YES,CHANNELS="2",URI="audio\.m3u8\?jwt=abc"/,
    );
    assert.match(
      body,
      /#EXT-X-STREAM-INF:BANDWIDTH=\d+,AVERAGE-BANDWIDTH=\d+,CODECS="avc1\.64001f,mp4a\.40\.2",RESOLUTION=640x360,FRAME-RATE=30\.000,AUDIO="audio"\nvideo\.m3u8\?jwt=abc\n/,
    );
    assert.equal(current.getByPlaybackId('p1')?.viewers.count, 1, 'the request counted a viewer');
  });

  it('serves a media playlist with parts, preload hint, server control and program date time', async () => {
    const { service, publisher } = setup();
    writeUnits(publisher, span(0, 6.6));
    const body = text(await service.handle(request('video.m3u8', {}, { uriQuery: 'jwt=abc' })));
    const lines = body.split('\n');
    assert.deepEqual(lines.slice(0, 8), [
      '#EXTM3U',
      '#EXT-X-VERSION:9',
      '#EXT-X-TARGETDURATION:2',
      '#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=12.00,PART-HOLD-BACK=1.515',
      '#EXT-X-PART-INF:PART-TARGET=0.505',
      '#EXT-X-MEDIA-SEQUENCE:0',
      '#EXT-X-DISCONTINUITY-SEQUENCE:0',
      '#EXT-X-MAP:URI="video-init-0.mp4?jwt=abc"',
    ]);
    assert.equal(lines.filter((line) => line.startsWith('#EXTINF:2.00,')).length, 3);
    assert.equal(lines.filter((line) => line.startsWith('#EXT-X-PROGRAM-DATE-TIME:')).length, 4);
    assert.ok(lines.includes('#EXT-X-PART:DURATION=0.50,URI="video-part-12.m4s?jwt=abc",INDEPENDENT=YES'));
    assert.ok(lines.includes('#EXT-X-PART:DURATION=0.50,URI="video-part-11.m4s?jwt=abc"'));
    assert.ok(lines.includes('video-2.m4s?jwt=abc'));
    assert.match(body, /#EXT-X-PRELOAD-HINT:TYPE=PART,URI="video-part-13\.m4s\?jwt=abc"\n/);
    assert.match(body, /#EXT-X-RENDITION-REPORT:URI="audio\.m3u8\?jwt=abc",LAST-MSN=3,LAST-PART=0\n$/);
    assert.doesNotMatch(body, /ENDLIST/);
  });

  it('holds a blocking reload until the part exists and answers as soon as it does', async () => {
    const { service, publisher } = setup();
    writeUnits(publisher, span(0, 4.6));
    const first = text(await service.handle(request('video.m3u8')));
    assert.match(first, /#EXT-X-PART:DURATION=0\.50,URI="video-part-8\.m4s",INDEPENDENT=YES\n#EXT-X-PRELOAD-HINT/);
    let answered: string | undefined;
    const pending = service.handle(request('video.m3u8', { _HLS_msn: '2', _HLS_part: '1' })).then((response) => {
      answered = text(response);
      return answered;
    });
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(answered, undefined, 'the request waits for part 2.1');
    writeUnits(publisher, span(4.6, 4.9));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(answered, undefined, 'part 2.1 is not complete yet');
    writeUnits(publisher, span(4.9, 5.1));
    const body = await pending;
    assert.match(body, /URI="video-part-9\.m4s"\n#EXT-X-PRELOAD-HINT:TYPE=PART,URI="video-part-10\.m4s"/);
  });

  it('answers a public playlist only once its newest part went through the cache (ADR 0083)', async () => {
    const warmed: string[] = [];
    let finishWarm = (): void => undefined;
    const { service, publisher } = setup({
      warmThroughCache: (path) => {
        warmed.push(path);
        return new Promise((resolve) => {
          finishWarm = resolve;
        });
      },
    });
    writeUnits(publisher, span(0, 4.6));
    let answered = false;
    const pending = service.handle(request('video.m3u8', { _HLS_msn: '2', _HLS_part: '1' })).then((response) => {
      answered = true;
      return text(response);
    });
    const tokened = service.handle(request('video.m3u8', { _HLS_msn: '2', _HLS_part: '1' }, { uriQuery: 'jwt=abc' }));
    writeUnits(publisher, span(4.6, 5.1));
    assert.match(text(await tokened), /URI="video-part-9\.m4s\?jwt=abc"/, 'a tokened answer does not wait');
    assert.equal(answered, false, 'the public answer waits for its part to be cached');
    finishWarm();
    assert.match(await pending, /URI="video-part-9\.m4s"\n#EXT-X-PRELOAD-HINT/);
    assert.deepEqual(warmed, ['/play/p1/cmaf/video-part-9.m4s']);
  });

  it('holds a request for the next segment and a preload-hinted part until they are complete', async () => {
    const { service, publisher } = setup();
    writeUnits(publisher, span(0, 4.6));
    const segment = service.handle(request('video.m3u8', { _HLS_msn: '2' }));
    const part = service.handle(request('video-part-9.m4s'));
    writeUnits(publisher, span(4.6, 6.1));
    const partResponse = await part;
    assert.equal(partResponse.status, 200);
    assert.equal(partResponse.headers['content-type'], 'video/mp4');
    assert.equal(partResponse.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.match(text(await segment), /#EXTINF:2\.00,\nvideo-2\.m4s\n/);
  });

  it('answers 400 for requests too far ahead or malformed, 404 for unknown ids and files', async () => {
    const { service, publisher } = setup();
    writeUnits(publisher, span(0, 4.6));
    assert.equal((await service.handle(request('video.m3u8', { _HLS_msn: '5' }))).status, 400);
    assert.equal((await service.handle(request('video.m3u8', { _HLS_msn: '2', _HLS_part: '9' }))).status, 400);
    assert.equal((await service.handle(request('video.m3u8', { _HLS_part: '1' }))).status, 400);
    assert.equal((await service.handle(request('video.m3u8', { _HLS_msn: 'x' }))).status, 400);
    assert.equal((await service.handle(request('video.m3u8', {}, { playbackId: 'nope' }))).status, 404);
    assert.equal((await service.handle(request('video-part-99.m4s'))).status, 404);
    assert.equal((await service.handle(request('video-0.m4s'))).status, 200);
    assert.equal((await service.handle(request('audio-init-0.mp4'))).headers['content-type'], 'audio/mp4');
    assert.equal((await service.handle(request('video-init-7.mp4'))).status, 404);
  });

  it('times out a blocked reload with the current playlist and stops waiting when the client leaves', async () => {
    const { service, publisher } = setup();
    writeUnits(publisher, span(0, 4.6));
    const controller = new AbortController();
    const aborted = service.handle(request('video.m3u8', { _HLS_msn: '3' }, { signal: controller.signal }));
    controller.abort();
    assert.equal((await aborted).status, 200);
  });

  it('answers delta updates with EXT-X-SKIP', async () => {
    const { service, publisher } = setup();
    writeUnits(publisher, span(0, 20.6));
    const full = text(await service.handle(request('video.m3u8')));
    const delta = text(await service.handle(request('video.m3u8', { _HLS_skip: 'YES' })));
    assert.match(full, /#EXT-X-MEDIA-SEQUENCE:0\n/);
    assert.match(
      delta,
      /#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-DISCONTINUITY-SEQUENCE:0\n#EXT-X-SKIP:SKIPPED-SEGMENTS=4\n#EXT-X-MAP/,
    );
    assert.doesNotMatch(delta, /\nvideo-3\.m4s\n/);
    assert.match(delta, /\nvideo-4\.m4s\n/);
  });

  it('marks a reconnect with EXT-X-DISCONTINUITY and the end with EXT-X-ENDLIST', async () => {
    hub = new Hub({ log: silentLogger, reconnectWindowMs: 10_000 });
    const service = new LlHlsService(hub, { firstSegmentWaitMs: 50 });
    const first = hub.publish(grant, 'rtmp');
    first.setDescription({ tracks: [SYNTHETIC_VIDEO, SYNTHETIC_AUDIO] });
    writeUnits(first, span(0, 4.1));
    first.close('socket closed');
    const second = hub.publish(grant, 'rtmp');
    second.setDescription({ tracks: [SYNTHETIC_VIDEO, SYNTHETIC_AUDIO] });
    writeUnits(second, span(0, 4.1));
    const waiting = service.handle(request('video.m3u8', { _HLS_msn: '9' }));
    hub.stop('s1', 'deleted');
    const ended = text(await waiting);
    assert.match(ended, /#EXTINF:0\.\d+,\nvideo-2\.m4s\n#EXT-X-DISCONTINUITY\n#EXT-X-PROGRAM-DATE-TIME:[^\n]+\n/);
    assert.match(ended, /#EXT-X-ENDLIST\n/);
    assert.doesNotMatch(ended, /PRELOAD-HINT/);
    const again = await service.handle(request('video.m3u8'));
    assert.equal(again.status, 200, 'an ended stream answers during the grace period');
  });

  it('fills each viewer query into a cached playlist', async () => {
    const { service, publisher } = setup();
    writeUnits(publisher, span(0, 4.6));
    const plain = text(await service.handle(request('video.m3u8')));
    const first = text(await service.handle(request('video.m3u8', {}, { uriQuery: 'jwt=a$&b' })));
    const second = text(await service.handle(request('video.m3u8', {}, { uriQuery: 'jwt=second' })));
    assert.ok(!plain.includes('?') && !plain.includes(String.fromCharCode(0)));
    const tokened = plain.replace(/\.(m4s|mp4|m3u8)\b/g, (extension) => `${extension}?jwt=a$&b`);
    assert.equal(first, tokened);
    assert.equal(second.match(/jwt=second/g)?.length, first.match(/jwt=a\$&b/g)?.length);
  });

  it('lists audio-only and video-only streams as a single variant', async () => {
    hub = new Hub({ log: silentLogger, reconnectWindowMs: 0 });
    const service = new LlHlsService(hub, { firstSegmentWaitMs: 50 });
    const audioOnly = hub.publish({ streamId: 'a', playbackId: 'audio-only' }, 'rtmp');
    audioOnly.setDescription({ tracks: [SYNTHETIC_AUDIO] });
    writeUnits(audioOnly, syntheticUnits({ seconds: 4.2, video: false }));
    const videoOnly = hub.publish({ streamId: 'v', playbackId: 'video-only' }, 'rtmp');
    videoOnly.setDescription({ tracks: [SYNTHETIC_VIDEO] });
    writeUnits(videoOnly, syntheticUnits({ seconds: 4.2, audio: false }));
    const audio = text(await service.handle(request('index.m3u8', {}, { playbackId: 'audio-only' })));
    assert.match(audio, /#EXT-X-STREAM-INF:BANDWIDTH=\d+,AVERAGE-BANDWIDTH=\d+,CODECS="mp4a\.40\.2"\naudio\.m3u8\n/);
    assert.doesNotMatch(audio, /EXT-X-MEDIA:/);
    const video = text(await service.handle(request('index.m3u8', {}, { playbackId: 'video-only' })));
    assert.match(video, /CODECS="avc1\.64001f",RESOLUTION=640x360,FRAME-RATE=30\.000\nvideo\.m3u8\n/);
    assert.match(text(await service.handle(request('audio.m3u8', {}, { playbackId: 'audio-only' }))), /#EXTINF:2\.0/);
    assert.equal((await service.handle(request('audio.m3u8', {}, { playbackId: 'video-only' }))).status, 404);
  });

  it('forgets an ended stream after the grace period', async () => {
    const { service, publisher, hub: current } = setup({ endedGraceMs: 20 });
    writeUnits(publisher, span(0, 4.6));
    current.stop('s1', 'done');
    assert.equal((await service.handle(request('video.m3u8'))).status, 200);
    assert.equal(service.status('p1')?.ended, true);
    await new Promise((resolve) => setTimeout(resolve, 60));
    assert.equal((await service.handle(request('video.m3u8'))).status, 404);
    assert.equal(service.status('p1'), undefined);
  });
});
