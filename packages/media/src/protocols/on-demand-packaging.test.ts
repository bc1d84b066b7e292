/**
 * On-demand packaging: no packager before the first request, a primed packager whose playlists
 * match an always-on packager fed the same units, idle stop and re-prime, reconnects carried
 * through the history, and ended streams answering within their grace period.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Hub, type Publisher } from '../hub/hub.js';
import { silentLogger } from '../ports.js';
import type { MediaUnit } from '../stream/media-unit.js';
import { playRequest } from '../testing/play-request.js';
import { SYNTHETIC_AUDIO, SYNTHETIC_VIDEO, syntheticUnits } from '../testing/synthetic-av.js';
import { DashService } from './dash/dash-service.js';
import { LlHlsService } from './hls/llhls/llhls-service.js';
import { TsHlsService } from './hls/ts/ts-hls-service.js';
import type { PlayResponse } from './shared/http-types.js';
import type { PackagingMode } from './shared/packaged-streams.js';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const grant = { streamId: 's1', playbackId: 'p1' };
const tracks = { tracks: [SYNTHETIC_VIDEO, SYNTHETIC_AUDIO] };

/** A hub with every request-based service, all reading one fake clock that follows the media. */
class Node {
  now = T0;
  readonly hub: Hub;
  readonly ts: TsHlsService;
  readonly llhls: LlHlsService;
  readonly dash: DashService;

  constructor(packaging: PackagingMode, reconnectWindowMs = 10_000, packagerIdleMs = 60_000) {
    const now = () => this.now;
    this.hub = new Hub({ log: silentLogger, reconnectWindowMs, now });
    const options = { packaging, packagerIdleMs, idleClock: now };
    this.ts = new TsHlsService(this.hub, { ...options, now, firstSegmentWaitMs: 0 });
    this.llhls = new LlHlsService(this.hub, { ...options, packager: { now }, firstSegmentWaitMs: 0 });
    this.dash = new DashService(this.hub, { firstSegmentWaitMs: 0 });
  }

  /** Writes units, moving the clock to each unit's media time (offset by `wallOffsetMs`). */
  feed(publisher: Publisher, units: readonly MediaUnit[], wallOffsetMs = 0): void {
    for (const unit of units) {
      const timescale = unit.trackId === SYNTHETIC_VIDEO.id ? SYNTHETIC_VIDEO.timescale : SYNTHETIC_AUDIO.timescale;
      this.now = Math.max(this.now, T0 + wallOffsetMs + Math.round((unit.dts / timescale) * 1000));
      publisher.write(unit);
    }
  }

  packaging(): { ts: boolean; cmaf: boolean } {
    return { ts: this.ts.isPackaging('p1'), cmaf: this.llhls.registry.isPackaging('p1') };
  }

  async text(service: 'ts' | 'llhls' | 'dash', path: string): Promise<string> {
    const response: PlayResponse = await this[service].handle(playRequest({ path }));
    assert.equal(response.status, 200, `${service} ${path}: ${String(response.body)}`);
    return response.body as string;
  }

  close(): void {
    this.hub.close();
    this.ts.close();
    this.llhls.registry.close();
  }
}

/** A playlist without what a new packager numbers from 0 (sequence numbers, resource numbers). */
function numbersOff(playlist: string): string {
  return playlist
    .replace(/(MEDIA-SEQUENCE|DISCONTINUITY-SEQUENCE):\d+/g, '$1:N')
    .replace(/LAST-MSN=\d+/g, 'LAST-MSN=N')
    .replace(/-\d+(\.\d+)?\.(ts|m4s)/g, '-N.$2');
}

const count = (text: string, pattern: RegExp): number => (text.match(pattern) ?? []).length;

/** Every playlist and the MPD of a node, numbers off. */
interface Outputs {
  readonly hls: string;
  readonly multivariant: string;
  readonly video: string;
  readonly audio: string;
  readonly mpd: string;
}

async function outputs(node: Node): Promise<Outputs> {
  return {
    hls: numbersOff(await node.text('ts', 'stream.m3u8')),
    multivariant: await node.text('ts', 'index.m3u8'),
    video: numbersOff(await node.text('llhls', 'video.m3u8')),
    audio: numbersOff(await node.text('llhls', 'audio.m3u8')),
    mpd: mpdTimeline(await node.text('dash', 'index.mpd')),
  };
}

/**
 * What a DASH client derives from an MPD: per Period and AdaptationSet, the wall-clock start of
 * each listed segment (availabilityStartTime + Period start + (t - presentationTimeOffset)) and its
 * duration. A primed packager's first Period starts at its history, an always-on one's at publish:
 * the MPDs differ in those fields but place every segment at the same time.
 */
function mpdTimeline(mpd: string): string {
  const ast = Date.parse(/availabilityStartTime="([^"]+)"/.exec(mpd)?.[1] ?? '');
  const lines = [/ type="(\w+)"/.exec(mpd)?.[1] ?? ''];
  for (const period of mpd.split('<Period ').slice(1)) {
    lines.push('Period');
    const start = Number(/start="PT([\d.]+)S"/.exec(period)?.[1] ?? Number.NaN) * 1000;
    for (const set of period.split('<AdaptationSet ').slice(1)) {
      const timescale = Number(/timescale="(\d+)"/.exec(set)?.[1]);
      const offset = Number(/presentationTimeOffset="(\d+)"/.exec(set)?.[1]);
      let t = 0;
      for (const [, at, d, r] of set.matchAll(/<S (?:t="(\d+)" )?d="(\d+)"(?: r="(\d+)")?\/>/g)) {
        t = at === undefined ? t : Number(at);
        for (let i = 0; i <= Number(r ?? 0); i++) {
          lines.push(`${new Date(ast + start + ((t - offset) * 1000) / timescale).toISOString()} ${d}`);
          t += Number(d);
        }
      }
    }
  }
  return lines.join('\n');
}

describe('PackagedStreams', () => {
  it('packages on demand: nothing before the first request, then playlists equal to an always-on packager', async () => {
    const always = new Node('always');
    const onDemand = new Node('on-demand');
    const units = syntheticUnits({ seconds: 41, gopFrames: 60 });
    for (const node of [always, onDemand]) {
      const publisher = node.hub.publish(grant, 'rtmp');
      publisher.setDescription(tracks);
      node.feed(publisher, units);
    }
    assert.deepEqual(always.packaging(), { ts: true, cmaf: true });
    assert.deepEqual(onDemand.packaging(), { ts: false, cmaf: false }, 'no packager before a request');
    const expected = await outputs(always);
    const primed = await outputs(onDemand);
    assert.deepEqual(onDemand.packaging(), { ts: true, cmaf: true });
    assert.equal(count(primed.hls, /#EXTINF/g), 6, 'a full classic HLS window at once');
    assert.equal(count(primed.video, /#EXTINF/g), 10, 'a full LL-HLS window at once');
    assert.ok(count(primed.video, /#EXT-X-PART:/g) > 0, 'with parts');
    assert.deepEqual(primed, expected, 'identical playlists, program date times and MPD, numbering aside');
    always.close();
    onDemand.close();
  });

  it('drops a packager after the idle time without requests, and primes a new one on the next', async () => {
    const node = new Node('on-demand', 10_000, 60_000);
    const publisher = node.hub.publish(grant, 'rtmp');
    publisher.setDescription(tracks);
    node.feed(publisher, syntheticUnits({ seconds: 30, gopFrames: 60 }));
    await node.text('ts', 'stream.m3u8');
    await node.text('llhls', 'video.m3u8');
    assert.equal(node.ts.sweep(node.now + 60_000), 0, 'not idle yet');
    node.feed(publisher, syntheticUnits({ seconds: 30, startSeconds: 30, gopFrames: 60 }));
    assert.equal(node.ts.sweep(node.now + 30_001), 1, 'idle: dropped');
    assert.equal(node.llhls.registry.sweep(node.now + 30_001), 1);
    assert.deepEqual(node.packaging(), { ts: false, cmaf: false });
    node.feed(publisher, syntheticUnits({ seconds: 21, startSeconds: 60, gopFrames: 60 }));
    const again = await node.text('ts', 'stream.m3u8');
    assert.deepEqual(node.packaging(), { ts: true, cmaf: false }, 'each output comes back on its own request');
    assert.equal(count(again, /#EXTINF/g), 6, 'the full window again, from the history');
    assert.match(
      again,
      /#EXT-X-MEDIA-SEQUENCE:7\n/,
      'numbering restarts with the new packager (ADR 0006): 13 segments of history from 0, the last 6 listed',
    );
    assert.match(again, /#EXT-X-PROGRAM-DATE-TIME:2026-01-01T12:01:18\.000Z\n#EXTINF:2\.000,\nseg-12\.ts\n$/);
    node.close();
  });

  it('packages from publish on in always mode and never drops for idleness', async () => {
    const node = new Node('always');
    const publisher = node.hub.publish(grant, 'rtmp');
    assert.deepEqual(node.packaging(), { ts: true, cmaf: true });
    publisher.setDescription(tracks);
    node.feed(publisher, syntheticUnits({ seconds: 5, gopFrames: 60 }));
    assert.equal(node.ts.sweep(node.now + 3_600_000), 0);
    assert.equal(node.hub.getByPlaybackId('p1')?.historySize.gops, 0, 'no history kept');
    node.close();
  });

  it('carries a reconnect inside the history: the primed playlists show the discontinuity as always-on ones do', async () => {
    const always = new Node('always');
    const onDemand = new Node('on-demand');
    for (const node of [always, onDemand]) {
      const first = node.hub.publish(grant, 'rtmp');
      first.setDescription(tracks);
      node.feed(first, syntheticUnits({ seconds: 9.5, gopFrames: 60 }));
      first.close('socket closed');
      node.now += 3_000;
      const second = node.hub.publish(grant, 'rtmp');
      second.setDescription(tracks);
      node.feed(second, syntheticUnits({ seconds: 9.5, gopFrames: 60 }), node.now - T0);
    }
    const expected = await outputs(always);
    const primed = await outputs(onDemand);
    assert.equal(count(primed.hls, /#EXT-X-DISCONTINUITY\n/g), 1);
    assert.equal(count(primed.video, /#EXT-X-DISCONTINUITY\n/g), 1);
    assert.equal(count(primed.mpd, /^Period$/gm), 2);
    assert.deepEqual(primed, expected);
    always.close();
    onDemand.close();
  });

  it('answers for an ended stream it never packaged with its final playlist during the grace period', async () => {
    const node = new Node('on-demand', 0);
    const publisher = node.hub.publish(grant, 'rtmp');
    publisher.setDescription(tracks);
    node.feed(publisher, syntheticUnits({ seconds: 9, gopFrames: 60 }));
    publisher.close('encoder finished');
    assert.equal(node.hub.getByPlaybackId('p1'), undefined);
    assert.deepEqual(node.packaging(), { ts: false, cmaf: false });
    assert.match(await node.text('ts', 'stream.m3u8'), /#EXT-X-ENDLIST\n$/);
    assert.match(await node.text('llhls', 'video.m3u8'), /#EXT-X-ENDLIST\n/);
    assert.match(await node.text('dash', 'index.mpd'), /type="static"/);
    assert.equal(node.ts.status('p1')?.ended, true);
    assert.equal(node.ts.sweep(node.now + 3_600_000), 0, 'an ended stream keeps its packager for the grace period');
    node.close();
  });

  it('answers 404 for a playback id it does not know, and 503 while a live stream has no segment', async () => {
    const node = new Node('on-demand');
    const unknown = await node.ts.handle(playRequest({ playbackId: 'nope', path: 'stream.m3u8' }));
    assert.equal(unknown.status, 404);
    const publisher = node.hub.publish(grant, 'rtmp');
    publisher.setDescription(tracks);
    node.feed(publisher, syntheticUnits({ seconds: 1, gopFrames: 60 }));
    assert.equal((await node.ts.handle(playRequest({ path: 'stream.m3u8' }))).status, 503);
    node.feed(publisher, syntheticUnits({ seconds: 3, startSeconds: 1, gopFrames: 60 }));
    assert.match(
      await node.text('ts', 'stream.m3u8'),
      /seg-0\.ts\n$/,
      'the packager made at the first request goes on',
    );
    node.close();
  });
});
