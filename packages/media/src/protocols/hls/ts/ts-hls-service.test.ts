import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { Hub } from '../../../hub/hub.js';
import { silentLogger } from '../../../ports.js';
import { type EncodedMedia, encodeTestMedia, ffmpegSkip } from '../../../testing/ffmpeg-media.js';
import { writePasses } from '../../../testing/live-feed.js';
import { playRequest } from '../../../testing/play-request.js';
import { suiteTempDir } from '../../../testing/temp-dir.js';
import { testSourceArgs } from '../../../testing/test-source.js';
import type { PlayRequest, PlayResponse } from '../../shared/http-types.js';
import { TsHlsService } from './ts-hls-service.js';

const skip = ffmpegSkip();

const request = (playbackId: string, path: string, signal = new AbortController().signal): PlayRequest =>
  playRequest({ playbackId, path, signal, uriQuery: 'jwt=t' });

const text = (response: PlayResponse): string => (typeof response.body === 'string' ? response.body : '');
const reason = (response: PlayResponse): string =>
  (JSON.parse(text(response)) as { error: { reason: string } }).error.reason;

describe('TsHlsService', { skip }, () => {
  const tmp = suiteTempDir('ts-hls-service-');
  let h264: EncodedMedia;
  let vp9: EncodedMedia;

  before(() => {
    h264 = encodeTestMedia(tmp.path, testSourceArgs({ seconds: 2 }));
    const vp9Codec = ['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8'];
    vp9 = encodeTestMedia(tmp.path, testSourceArgs({ seconds: 2, video: vp9Codec }), 'vp9.mp4');
  });

  it('holds a playlist request until the first segment exists, and carries uriQuery into URIs', async () => {
    const hub = new Hub({ log: silentLogger });
    const service = new TsHlsService(hub, { firstSegmentWaitMs: 60_000 });
    const publisher = hub.publish({ streamId: 's1', playbackId: 'p1' }, 'rtmp');
    publisher.setDescription({ tracks: h264.tracks });
    const pending = service.handle(request('p1', 'stream.m3u8'));
    writePasses(publisher, h264, 0, 2);
    const playlist = await pending;
    assert.equal(playlist.status, 200);
    assert.match(text(playlist), /^seg-0\.ts\?jwt=t$/m);
    assert.equal(hub.getByPlaybackId('p1')?.viewers.count, 1);
    hub.close();
    service.close();
  });

  it('answers 503 with Retry-After when the client gives up before any segment', async () => {
    const hub = new Hub({ log: silentLogger });
    const service = new TsHlsService(hub, { firstSegmentWaitMs: 60_000 });
    hub.publish({ streamId: 's2', playbackId: 'p2' }, 'rtmp').setDescription({ tracks: h264.tracks });
    const controller = new AbortController();
    const pending = service.handle(request('p2', 'index.m3u8', controller.signal));
    controller.abort();
    const response = await pending;
    assert.equal(response.status, 503);
    assert.equal(response.headers['retry-after'], '1');
    hub.close();
    service.close();
  });

  it('keeps an ended stream for the grace period, then forgets it', async () => {
    const hub = new Hub({ log: silentLogger, reconnectWindowMs: 0 });
    const service = new TsHlsService(hub, { endedGraceMs: 10 });
    const publisher = hub.publish({ streamId: 's3', playbackId: 'p3' }, 'rtmp');
    publisher.setDescription({ tracks: h264.tracks });
    writePasses(publisher, h264, 0, 1);
    publisher.close('encoder finished');
    assert.equal(hub.getByPlaybackId('p3'), undefined);
    const final = await service.handle(request('p3', 'stream.m3u8'));
    assert.match(text(final), /#EXT-X-ENDLIST\n$/);
    assert.equal(service.status('p3')?.ended, true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const gone = await service.handle(request('p3', 'stream.m3u8'));
    assert.equal(gone.status, 404);
    assert.equal(reason(gone), 'playback_id_not_found');
    service.close();
  });

  it('refuses codecs MPEG-TS cannot carry with a clear reason while the publisher goes on', async () => {
    const hub = new Hub({ log: silentLogger });
    const service = new TsHlsService(hub);
    const publisher = hub.publish({ streamId: 's4', playbackId: 'p4' }, 'rtmp');
    publisher.setDescription({ tracks: vp9.tracks });
    writePasses(publisher, vp9, 0, 1);
    assert.equal(hub.getByPlaybackId('p4')?.stats.units, vp9.units.length, 'every unit reached the hub');
    const response = await service.handle(request('p4', 'index.m3u8'));
    assert.equal(response.status, 404);
    assert.equal(reason(response), 'hls_unavailable');
    assert.match(text(response), /VP9|vp9/);
    assert.match(service.status('p4')?.unavailable ?? '', /VP9|vp9/);
    hub.close();
    service.close();
  });

  it('answers 404 for segments outside the window and for unknown paths', async () => {
    const hub = new Hub({ log: silentLogger });
    const service = new TsHlsService(hub);
    const publisher = hub.publish({ streamId: 's5', playbackId: 'p5' }, 'rtmp');
    publisher.setDescription({ tracks: h264.tracks });
    writePasses(publisher, h264, 0, 1);
    for (const path of ['seg-7.ts', 'seg-x.ts', '../index.m3u8', 'index.mpd']) {
      const response = await service.handle(request('p5', path));
      assert.equal(response.status, 404, path);
      assert.equal(reason(response), 'segment_not_found');
    }
    assert.equal(reason(await service.handle(request('other', 'index.m3u8'))), 'playback_id_not_found');
    hub.close();
    service.close();
  });
});
