import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { Hub, type Publisher } from '../../hub/hub.js';
import { silentLogger } from '../../ports.js';
import { writeUnits } from '../../testing/live-feed.js';
import { playRequest } from '../../testing/play-request.js';
import { SYNTHETIC_AUDIO, SYNTHETIC_VIDEO, syntheticUnits } from '../../testing/synthetic-av.js';
import type { PlayRequest, PlayResponse } from '../shared/http-types.js';
import { DashService } from './dash-service.js';

const grant = { streamId: 's1', playbackId: 'p1' };
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
let hub: Hub | undefined;
let now = T0;

function setup(reconnectWindowMs = 0): { service: DashService; publisher: Publisher; hub: Hub } {
  now = T0;
  hub = new Hub({ log: silentLogger, reconnectWindowMs });
  const service = new DashService(hub, { firstSegmentWaitMs: 50, packager: { now: () => now } });
  const publisher = hub.publish(grant, 'rtmp');
  publisher.setDescription({ tracks: [SYNTHETIC_VIDEO, SYNTHETIC_AUDIO] });
  return { service, publisher, hub };
}

function request(path: string, extra: Partial<PlayRequest> = {}): PlayRequest {
  return playRequest({ path, ...extra });
}

function text(response: PlayResponse): string {
  assert.equal(response.status, 200, String(response.body));
  return response.body as string;
}

afterEach(() => {
  hub?.close();
  hub = undefined;
});

describe('DashService', () => {
  it('serves a dynamic MPD with one adaptation set per track over the CMAF segments', async () => {
    const { service, publisher, hub: current } = setup();
    writeUnits(publisher, syntheticUnits({ seconds: 8.2 }));
    now = T0 + 8_200;
    const response = await service.handle(request('index.mpd', { uriQuery: 'jwt=a&b=c' }));
    assert.equal(response.headers['content-type'], 'application/dash+xml');
    assert.equal(response.headers['cache-control'], 'no-store');
    const mpd = text(response);
    assert.match(mpd, /<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-live:2011"/);
    assert.match(mpd, / type="dynamic"/);
    assert.match(mpd, / availabilityStartTime="2026-01-01T12:00:00.000Z"/);
    assert.match(mpd, / publishTime="2026-01-01T12:00:08.200Z"/);
    assert.match(mpd, / minimumUpdatePeriod="PT1S"/);
    assert.match(mpd, / maxSegmentDuration="PT2.006S"/, 'the longest (audio) segment');
    assert.match(mpd, / timeShiftBufferDepth="PT8S"/);
    assert.match(mpd, / suggestedPresentationDelay="PT6S"/);
    assert.match(mpd, /<Period id="p0" start="PT0S">/);
    assert.match(
      mpd,
      /<SegmentTemplate timescale="90000" presentationTimeOffset="0" startNumber="0" initialization="video-init-0\.mp4\?jwt=a&amp;b=c" media="video-\$Number\$\.m4s\?jwt=a&amp;b=c">\n\s+<SegmentTimeline>\n\s+<S t="0" d="180000" r="3"\/>\n\s+<\/SegmentTimeline>/,
    );
    assert.match(
      mpd,
      /<Representation id="video" codecs="avc1\.64001f" bandwidth="\d+" width="640" height="360" sar="1:1" frameRate="30"\/>/,
    );
    assert.match(mpd, /<Representation id="audio" codecs="mp4a\.40\.2" bandwidth="\d+" audioSamplingRate="48000">/);
    assert.match(mpd, /<AudioChannelConfiguration [^>]+ value="2"\/>/);
    assert.match(mpd, /<S t="0" d="96256" r="2"\/>\n\s+<S d="95232"\/>/, 'audio cut at the video times');
    assert.match(mpd, /<UTCTiming schemeIdUri="urn:mpeg:dash:utc:direct:2014" value="2026-01-01T12:00:08.200Z"\/>/);
    assert.equal(current.getByPlaybackId('p1')?.viewers.count, 1);
    const segment = await service.handle(request('video-3.m4s'));
    assert.equal(segment.status, 200);
    assert.equal(segment.headers['content-type'], 'video/mp4');
  });

  it('starts a new period after a reconnect and ends the presentation when the stream ends', async () => {
    const { service, publisher, hub: current } = setup(10_000);
    writeUnits(publisher, syntheticUnits({ seconds: 4.1 }));
    publisher.close('socket closed');
    now = T0 + 6_000;
    const second = current.publish(grant, 'rtmp');
    second.setDescription({ tracks: [SYNTHETIC_VIDEO, SYNTHETIC_AUDIO] });
    writeUnits(second, syntheticUnits({ seconds: 4.1 }));
    const live = text(await service.handle(request('index.mpd')));
    assert.match(live, /<Period id="p0" start="PT0S">/);
    assert.match(live, /<Period id="p1" start="PT4.096S">/, 'p1 starts where the media of p0 ends (audio, 4.096 s)');
    assert.match(
      live,
      /presentationTimeOffset="197640" startNumber="3"[^\n]*\n\s+<SegmentTimeline>\n\s+<S t="369000"/,
      'the re-based video (4.1 s) is presented at its wall-clock time (6 s): 1.904 s after the Period start',
    );
    assert.match(live, /presentationTimeOffset="105408" startNumber="3"/, 'audio mapped the same way');
    current.stop('s1', 'deleted');
    const ended = text(await service.handle(request('index.mpd')));
    assert.doesNotMatch(ended, /minimumUpdatePeriod/);
    assert.match(ended, / type="static"/);
    assert.match(ended, /<Period id="p0" start="PT0S">/);
    assert.match(ended, /mediaPresentationDuration="PT\d+(\.\d+)?S"/);
  });

  it('cuts the lead of a new period to its media time when the outage was longer', async () => {
    const { service, publisher, hub: current } = setup(10_000);
    writeUnits(publisher, syntheticUnits({ seconds: 4.1 }));
    publisher.close('socket closed');
    now = T0 + 9_000;
    const second = current.publish(grant, 'rtmp');
    second.setDescription({ tracks: [SYNTHETIC_VIDEO, SYNTHETIC_AUDIO] });
    writeUnits(second, syntheticUnits({ seconds: 4.1 }));
    const live = text(await service.handle(request('index.mpd')));
    assert.match(live, /<Period id="p1" start="PT4.9S">/, 'the media (from 4.1 s) still at its wall-clock time, 9 s');
    assert.match(live, /presentationTimeOffset="0" startNumber="3"/);
  });

  it('lists a new period only once every track it carries has a segment in it', async () => {
    const { service, publisher, hub: current } = setup(10_000);
    writeUnits(publisher, syntheticUnits({ seconds: 4.1 }));
    publisher.close('socket closed');
    now = T0 + 9_000;
    const second = current.publish(grant, 'rtmp');
    second.setDescription({ tracks: [SYNTHETIC_VIDEO, SYNTHETIC_AUDIO] });
    const units = syntheticUnits({ seconds: 4.1 });
    const cut = units.findIndex((unit) => unit.trackId === SYNTHETIC_VIDEO.id && unit.key && unit.dts >= 2 * 90_000);
    writeUnits(second, units.slice(0, cut + 1));
    const videoOnly = text(await service.handle(request('index.mpd')));
    assert.doesNotMatch(videoOnly, /<Period id="p1"/, 'no Period while its audio has no segment');
    writeUnits(second, units.slice(cut + 1));
    const both = text(await service.handle(request('index.mpd')));
    const period = both.slice(both.indexOf('<Period id="p1"'));
    assert.match(period, /contentType="video"[\s\S]*contentType="audio"/, 'the new Period carries both tracks');
  });

  it('answers 404 for unknown playback ids and 503 before the first segment', async () => {
    const { service, publisher } = setup();
    assert.equal((await service.handle(request('index.mpd', { playbackId: 'nope' }))).status, 404);
    writeUnits(publisher, syntheticUnits({ seconds: 1 }));
    assert.equal((await service.handle(request('index.mpd'))).status, 503);
    assert.equal(DashService.owns('index.mpd'), true);
    assert.equal(DashService.owns('video.m3u8'), false);
  });
});
