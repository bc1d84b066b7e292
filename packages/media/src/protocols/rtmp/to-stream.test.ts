import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { splitLengthPrefixed } from '../../codecs/nal.js';
import { parseMediaTag } from '../../formats/flv/flv-media.js';
import type { FlvPacket } from '../../formats/flv/flv-packet.js';
import { readFlvTags } from '../../formats/flv/flv-tag.js';
import { Hub } from '../../hub/hub.js';
import { silentLogger } from '../../ports.js';
import type { MediaUnit } from '../../stream/media-unit.js';
import type { StreamDescription } from '../../stream/track.js';
import { EFLV_FIXTURES as FIXTURES } from '../../testing/eflv-fixtures.js';
import { encodeTestMedia, ffmpegSkip } from '../../testing/ffmpeg-media.js';
import { suiteTempDir } from '../../testing/temp-dir.js';
import { FlvToStream } from './to-stream.js';

function harness(streamId: string, descriptionWaitMs?: number) {
  const hub = new Hub({ log: silentLogger, reconnectWindowMs: 0 });
  const descriptions: StreamDescription[] = [];
  const units: MediaUnit[] = [];
  hub.addOutput((stream) => ({
    close: stream.attach({ onDescription: (d) => descriptions.push(d), onUnit: (u) => units.push(u) }),
  }));
  const publisher = hub.publish({ streamId, playbackId: `p-${streamId}` }, 'rtmp');
  const bridge = new FlvToStream(publisher, {
    log: silentLogger,
    ...(descriptionWaitMs === undefined ? {} : { descriptionWaitMs }),
  });
  return { hub, publisher, bridge, descriptions, units };
}

function fixturePackets(name: string): FlvPacket[] {
  const packets: FlvPacket[] = [];
  for (const tag of readFlvTags(readFileSync(join(FIXTURES, name)))) {
    const packet = parseMediaTag(tag.type, tag.data, tag.timestampMs);
    if (packet) {
      packets.push(packet);
    }
  }
  return packets;
}

describe('FlvToStream', () => {
  const tmp = suiteTempDir('to-stream-');
  const fixtures = existsSync(FIXTURES) ? false : `${FIXTURES} absent`;

  it('turns the AV1 + Opus E-FLV into tracks and units on exact Opus steps', { skip: fixtures }, () => {
    const h = harness('eflv');
    for (const packet of fixturePackets('testsrc.flv')) {
      h.bridge.push(packet);
    }
    assert.equal(h.descriptions.length, 1, 'the empty first AV1 sequence start is ignored');
    const [video, audio] = h.descriptions[0]?.tracks ?? [];
    assert.equal(
      video?.kind === 'video' && `${video.codec} ${video.width}x${video.height} ${video.id}`,
      'av1 980x540 1',
    );
    assert.equal(
      audio?.kind === 'audio' && `${audio.codec} ${audio.timescale} ${audio.channels} ${audio.id}`,
      'opus 48000 1 2',
    );
    const opus = h.units.filter((u) => u.trackId === 2);
    assert.equal(opus.length, 501);
    assert.deepEqual([...new Set(opus.slice(1).map((u, i) => u.dts - (opus[i]?.dts ?? 0)))], [960]);
    const av1 = h.units.filter((u) => u.trackId === 1);
    assert.equal(av1.length, 300);
    assert.equal(av1[1] && av1[0] && av1[1].dts - av1[0].dts, 33 * 90);
    h.hub.close();
  });

  it('updates the description when a different sequence header arrives mid-stream', { skip: fixtures }, () => {
    const h = harness('switch');
    const first = fixturePackets('testsrc.flv');
    const second = fixturePackets('mptestsrc.flv').filter((p) => p.packetType === 'config');
    for (const packet of [...first.slice(0, 50), ...first.slice(0, 50), ...second]) {
      h.bridge.push(packet);
    }
    assert.equal(h.descriptions.length, 2);
    const video = h.descriptions[1]?.tracks[0];
    assert.equal(video?.kind === 'video' && `${video.width}x${video.height}`, '512x512');
    h.hub.close();
  });

  it('declares a video-only stream after the wait, and on close when it is shorter', { skip: fixtures }, async () => {
    const video = fixturePackets('testsrc.flv').filter((p) => p.kind === 'video');
    const h = harness('video-only', 20);
    const head = video.slice(0, 20);
    for (const packet of head) {
      h.bridge.push(packet);
    }
    assert.equal(h.descriptions.length, 0);
    await new Promise((resolve) => setTimeout(resolve, 60));
    assert.equal(h.descriptions.length, 1);
    assert.equal(h.descriptions[0]?.tracks.length, 1);
    assert.equal(h.units.length, head.filter((p) => p.packetType === 'frame').length, 'held units are flushed');
    h.hub.close();

    const short = harness('short');
    const few = video.slice(0, 8);
    for (const packet of few) {
      short.bridge.push(packet);
    }
    short.bridge.close();
    assert.equal(short.descriptions.length, 1);
    assert.equal(short.units.length, few.filter((p) => p.packetType === 'frame').length);
    short.hub.close();
  });

  it('rewrites 2-byte NAL lengths to 4 and keeps composition offsets', {
    skip: ffmpegSkip(),
  }, () => {
    const media = encodeTestMedia(
      tmp.path,
      [
        ...['-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25', '-t', '1'],
        ...['-c:v', 'libx264', '-bf', '2', '-g', '25', '-an'],
      ],
      'h264.mp4',
    );
    const track = media.tracks[0];
    assert.ok(track && track.kind === 'video');
    const avcC = new Uint8Array(track.config);
    avcC[4] = ((avcC[4] ?? 0) & 0xfc) | 1;
    const h = harness('avc', 10);
    h.bridge.setHints({ hasVideo: true, hasAudio: false });
    h.bridge.push({
      kind: 'video',
      codec: 'h264',
      packetType: 'config',
      timestampMs: 0,
      compositionOffsetMs: 0,
      key: true,
      data: avcC,
    });
    for (const unit of media.units) {
      const nals = splitLengthPrefixed(unit.data, 4);
      const twoByte = Buffer.concat(nals.flatMap((nal) => [Buffer.from([nal.length >> 8, nal.length & 0xff]), nal]));
      h.bridge.push({
        kind: 'video',
        codec: 'h264',
        packetType: 'frame',
        timestampMs: Math.round(unit.dts / 90),
        compositionOffsetMs: Math.round((unit.pts - unit.dts) / 90),
        key: unit.key,
        data: new Uint8Array(twoByte),
      });
    }
    const out = h.descriptions[0]?.tracks[0];
    assert.equal((out?.config[4] ?? 0) & 3, 3, 'avcC now says 4-byte lengths');
    assert.equal(h.units.length, media.units.length);
    h.units.forEach((unit, i) => {
      const source = media.units[i];
      assert.deepEqual(unit.data, source?.data);
      assert.equal(unit.pts - unit.dts, Math.round(((source?.pts ?? 0) - (source?.dts ?? 0)) / 90) * 90);
    });
    assert.ok(h.units.some((unit) => unit.pts !== unit.dts));
    h.hub.close();
  });

  it('sizes a VP9 track from its first key frame (vpcC has no picture size)', {
    skip: ffmpegSkip(),
  }, () => {
    const media = encodeTestMedia(
      tmp.path,
      [
        ...['-f', 'lavfi', '-i', 'testsrc2=size=352x288:rate=25', '-t', '1'],
        ...['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-g', '25', '-an'],
      ],
      'vp9.mp4',
    );
    const track = media.tracks[0];
    assert.ok(track && track.kind === 'video' && track.codec === 'vp9');
    const h = harness('vp9');
    h.bridge.setHints({ hasVideo: true, hasAudio: false });
    h.bridge.push({
      kind: 'video',
      codec: 'vp9',
      packetType: 'config',
      timestampMs: 0,
      compositionOffsetMs: 0,
      key: true,
      data: track.config,
    });
    assert.equal(h.descriptions.length, 0, 'no size before a key frame');
    for (const unit of media.units) {
      h.bridge.push({
        kind: 'video',
        codec: 'vp9',
        packetType: 'frame',
        timestampMs: Math.round(unit.dts / 90),
        compositionOffsetMs: 0,
        key: unit.key,
        data: unit.data,
      });
    }
    const out = h.descriptions[0]?.tracks[0];
    assert.equal(out?.kind === 'video' && `${out.codec} ${out.width}x${out.height}`, 'vp9 352x288');
    assert.match(out?.codecString ?? '', /^vp09\./);
    assert.equal(h.units.length, media.units.length);
    h.hub.close();
  });

  it('refuses a malformed sequence header with a ParseError', () => {
    const h = harness('bad-config');
    assert.throws(
      () =>
        h.bridge.push({
          kind: 'video',
          codec: 'h264',
          packetType: 'config',
          timestampMs: 0,
          compositionOffsetMs: 0,
          key: true,
          data: Uint8Array.of(1, 2),
        }),
      /avcC/,
    );
    assert.throws(
      () =>
        h.bridge.push({
          kind: 'audio',
          codec: 'opus',
          packetType: 'config',
          timestampMs: 0,
          compositionOffsetMs: 0,
          key: true,
          data: Uint8Array.of(1, 2),
        }),
      /OpusHead/,
    );
    h.hub.close();
  });
});
