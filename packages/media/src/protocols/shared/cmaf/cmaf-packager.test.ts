import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MediaUnit } from '../../../stream/media-unit.js';
import type { Track } from '../../../stream/track.js';
import { findBox, findBoxes, viewOf } from '../../../testing/iso-boxes.js';
import { SYNTHETIC_AUDIO, SYNTHETIC_VIDEO, syntheticUnits } from '../../../testing/synthetic-av.js';
import type { CmafPackagerOptions } from './cmaf-options.js';
import { CmafPackager, snapFrameRate } from './cmaf-packager.js';
import { cmafStatus } from './cmaf-status.js';
import type { CmafSegment } from './cmaf-types.js';

function packager(tracks: readonly Track[], options: CmafPackagerOptions = {}): CmafPackager {
  const cmaf = new CmafPackager({ now: () => Date.UTC(2026, 0, 1), ...options });
  cmaf.onDescription({ tracks });
  return cmaf;
}

function feed(cmaf: CmafPackager, units: readonly MediaUnit[]): void {
  for (const unit of units) {
    cmaf.onUnit(unit);
  }
}

function tfdt(data: Uint8Array): number {
  return Number(viewOf(findBox(data, 'moof/traf/tfdt')).getBigUint64(4));
}

describe('CmafPackager', () => {
  for (const dropped of [true, false]) {
    it(`numbers the segments of an audio track added mid-stream like the video's (${dropped ? 'at a reconnect' : 'while live'})`, () => {
      const cmaf = packager([SYNTHETIC_VIDEO]);
      feed(cmaf, syntheticUnits({ seconds: 5, audio: false, gopFrames: 30 }));
      if (dropped) {
        cmaf.onInterrupted();
      }
      cmaf.onDescription({ tracks: [SYNTHETIC_VIDEO, SYNTHETIC_AUDIO] });
      feed(cmaf, syntheticUnits({ startSeconds: 5, seconds: 6.6, gopFrames: 30 }));
      const video = cmaf.track('video');
      const audio = cmaf.track('audio');
      assert.ok(video && audio && audio.segments.length >= 2);
      for (const segment of audio.segments) {
        const same = video.segments.find((candidate) => candidate.msn === segment.msn);
        assert.ok(same, `a video segment numbered ${segment.msn}`);
        const audioEnd = (segment.startTime + segment.duration) / 48_000;
        assert.ok(
          Math.abs(audioEnd - (same.startTime + same.duration) / 90_000) < 1024 / 48_000,
          `audio segment ${segment.msn} ends with video segment ${same.msn}`,
        );
      }
    });
  }

  it('cuts segments at keyframes after the target and parts at the part target, audio at the same times', () => {
    const cmaf = packager([SYNTHETIC_VIDEO, SYNTHETIC_AUDIO]);
    feed(cmaf, syntheticUnits({ seconds: 10.6, gopFrames: 30 }));
    const video = cmaf.track('video');
    const audio = cmaf.track('audio');
    assert.ok(video && audio);
    assert.deepEqual(
      video.segments.map((s) => [s.msn, s.startTime, s.duration]),
      [0, 1, 2, 3, 4].map((n) => [n, n * 180_000, 180_000]),
    );
    for (const segment of video.segments) {
      assert.equal(segment.independent, true);
      assert.deepEqual(
        segment.parts.map((p) => [p.duration, p.independent]),
        [
          [45_000, true],
          [45_000, false],
          [45_000, true],
          [45_000, false],
        ],
      );
      assert.equal(segment.samples, 60);
      assert.equal(
        segment.data?.byteLength,
        segment.parts.reduce((n, p) => n + p.data.byteLength, 0),
      );
      assert.deepEqual(
        findBoxes(segment.data ?? new Uint8Array(), 'styp').length,
        1,
        'only the first chunk of a segment carries styp',
      );
      assert.equal(tfdt(segment.parts[1]?.data ?? new Uint8Array()), segment.startTime + 45_000);
    }
    assert.equal(audio.segments.length, 5);
    for (const [i, segment] of audio.segments.entries()) {
      const videoStart = (i * 2 * 48_000) / 1;
      assert.ok(Math.abs(segment.startTime - videoStart) < 1024, `audio segment ${i} starts with video`);
      assert.equal(segment.parts.length, 4);
      assert.equal(tfdt(segment.parts[0]?.data ?? new Uint8Array()), segment.startTime);
    }
    assert.equal(video.openSegment?.msn, 5);
    assert.equal(video.nextPart, 21, 'the open segment holds part 20; part 21 is next');
    assert.equal(cmaf.targetDuration, 2);
    assert.equal(cmaf.keyframeIntervalSeconds, 1);
    const status = cmafStatus(cmaf);
    assert.equal(status.longGop, false);
    assert.ok(status.fps && Math.abs(status.fps - 30) < 0.01);
    const videoBitrate = status.trackBitrates.video ?? 0;
    assert.ok(videoBitrate > 30 * 500 * 8 && videoBitrate < 30 * 700 * 8, 'payload plus fragment overhead');
  });

  it('makes a segment as long as a GOP longer than the target and reports the keyframe interval', () => {
    const cmaf = packager([SYNTHETIC_VIDEO, SYNTHETIC_AUDIO]);
    feed(cmaf, syntheticUnits({ seconds: 13, gopFrames: 90 }));
    const video = cmaf.track('video');
    assert.deepEqual(
      video?.segments.map((s) => s.duration),
      [270_000, 270_000, 270_000, 270_000],
    );
    assert.equal(cmaf.keyframeIntervalSeconds, 3);
    assert.equal(cmaf.targetDuration, 3);
    assert.equal(cmafStatus(cmaf).longGop, true);
    assert.equal(video?.segments[0]?.parts.length, 6, 'parts keep their target inside long segments');
  });

  it('keeps a bounded window however long the stream runs', () => {
    const cmaf = packager([SYNTHETIC_VIDEO, SYNTHETIC_AUDIO], { windowSegments: 4 });
    for (let pass = 0; pass < 30; pass++) {
      feed(cmaf, syntheticUnits({ seconds: 10, startSeconds: pass * 10 }));
    }
    const video = cmaf.track('video');
    assert.equal(video?.segments.length, 4);
    assert.equal(video?.segments[0]?.msn, 145);
    assert.equal(cmaf.track('audio')?.segments.length, 4);
    assert.equal(video?.init(0)?.byteLength, video?.init(video.initVersion)?.byteLength);
  });

  it('starts a new period with a discontinuity after a reconnect and counts evicted discontinuities', () => {
    let now = Date.UTC(2026, 0, 1);
    const cmaf = packager([SYNTHETIC_VIDEO, SYNTHETIC_AUDIO], { windowSegments: 3, now: () => now });
    feed(cmaf, syntheticUnits({ seconds: 4.5 }));
    cmaf.onInterrupted();
    const video = cmaf.track('video');
    assert.equal(video?.openSegment, undefined, 'an interrupt closes the open segment');
    assert.equal(video?.segments.length, 3);
    now += 10_000;
    const resumed = syntheticUnits({ seconds: 5.5, startSeconds: 5 }).map((unit, i) =>
      i < 2 ? { ...unit, discontinuity: true } : unit,
    );
    feed(cmaf, resumed);
    const after = video?.segments.find((s) => s.startTime === 5 * 90_000) as CmafSegment;
    assert.equal(after.discontinuity, true);
    assert.equal(after.period.id, 1);
    assert.equal(after.period.startWallMs, now);
    assert.equal(after.programDateTimeMs, now);
    assert.equal(cmaf.track('audio')?.segments.filter((s) => s.discontinuity).length, 1);
    feed(cmaf, syntheticUnits({ seconds: 8, startSeconds: 10.5 }));
    assert.equal(video?.discontinuitySequence, 1, 'the discontinuity left the window');
  });

  it('closes everything at the end and wakes waiting requests', async () => {
    const cmaf = packager([SYNTHETIC_VIDEO, SYNTHETIC_AUDIO]);
    feed(cmaf, syntheticUnits({ seconds: 3 }));
    const waiting = cmaf.waitFor(() => false, 60_000);
    cmaf.onEnd('publisher left');
    assert.equal(await waiting, false);
    assert.equal(cmaf.ended, 'publisher left');
    const video = cmaf.track('video');
    assert.equal(video?.openSegment, undefined);
    assert.deepEqual(
      video?.segments.map((s) => s.duration),
      [180_000, 90_000],
    );
    cmaf.onUnit({ trackId: 1, dts: 999_999, pts: 999_999, key: true, data: new Uint8Array(1) });
    assert.equal(video?.segments.length, 2, 'nothing is written after the end');
  });

  it('packages audio-only and video-only streams', () => {
    const audioOnly = packager([SYNTHETIC_AUDIO]);
    feed(audioOnly, syntheticUnits({ seconds: 6.1, video: false }));
    const audio = audioOnly.track('audio');
    assert.equal(audioOnly.leader, audio);
    assert.ok((audio?.segments.length ?? 0) >= 2);
    for (const segment of audio?.segments ?? []) {
      assert.ok(Math.abs(segment.duration / 48_000 - 2) < 0.03, `audio-only segment of ${segment.duration}`);
    }
    const videoOnly = packager([SYNTHETIC_VIDEO]);
    feed(videoOnly, syntheticUnits({ seconds: 6.1, audio: false }));
    assert.equal(videoOnly.track('video')?.segments.length, 3);
    assert.equal(videoOnly.track('audio'), undefined);
  });

  it('waits for a keyframe before the first segment and drops audio before it', () => {
    const cmaf = packager([SYNTHETIC_VIDEO, SYNTHETIC_AUDIO]);
    const units = syntheticUnits({ seconds: 5 }).filter((unit) => !(unit.trackId === 1 && unit.dts === 0));
    feed(cmaf, units);
    const first = cmaf.track('video')?.segments[0];
    assert.equal(first?.startTime, 90_000);
    assert.ok((cmaf.track('audio')?.segments[0]?.startTime ?? 0) >= 48_000 - 1024);
  });

  it('writes a new init segment version after a codec change', () => {
    const cmaf = packager([SYNTHETIC_VIDEO, SYNTHETIC_AUDIO]);
    feed(cmaf, syntheticUnits({ seconds: 3 }));
    cmaf.onDescription({ tracks: [{ ...SYNTHETIC_VIDEO, width: 1280, height: 720 }, SYNTHETIC_AUDIO] });
    feed(cmaf, syntheticUnits({ seconds: 3, startSeconds: 3 }));
    const video = cmaf.track('video');
    assert.equal(video?.initVersion, 1);
    const changed = video?.segments.find((s) => s.initVersion === 1);
    assert.equal(changed?.discontinuity, true);
    assert.equal(changed?.startTime, 270_000);
    assert.ok(video?.init(0) && video.init(1));
  });

  it('bounds what a follower holds when the leading track stalls', () => {
    const cmaf = packager([SYNTHETIC_VIDEO, SYNTHETIC_AUDIO], { maxSegmentSeconds: 4 });
    feed(cmaf, syntheticUnits({ seconds: 2.1 }));
    feed(cmaf, syntheticUnits({ seconds: 30, startSeconds: 2.1, video: false }));
    const audio = cmaf.track('audio');
    const held = (audio?.segments ?? []).reduce((sum, segment) => sum + segment.duration, 0) / 48_000;
    assert.ok(held > 20, `audio kept flowing into segments (${held} s) while video stalled`);
  });

  it('snaps measured frame rates to the rate they are within 0.05% of', () => {
    assert.equal(snapFrameRate(29.998), 30);
    assert.equal(snapFrameRate(29.971), 30_000 / 1001);
    assert.equal(snapFrameRate(24.5), 24.5);
  });

  it('drops what it cannot package, counts it, and goes on', () => {
    const cmaf = packager([{ ...SYNTHETIC_VIDEO, codec: 'vp9', config: Uint8Array.of(9) }, SYNTHETIC_AUDIO]);
    assert.equal(cmaf.track('video'), undefined, 'a track whose init segment cannot be built is left out');
    assert.equal(cmaf.leader, cmaf.track('audio'));
    const units = syntheticUnits({ seconds: 4.2 });
    cmaf.onUnit({ trackId: 2, dts: -1024, pts: -1024, key: true, data: new Uint8Array(4) });
    const broken = units.map((unit) =>
      unit.trackId === 2 && unit.dts === 20 * 1024 ? { ...unit, pts: unit.dts + 2 ** 33 } : unit,
    );
    feed(cmaf, broken);
    assert.equal(cmaf.failures, 3, 'the track, the negative unit and the part with an offset beyond 32 bits');
    assert.ok((cmaf.track('audio')?.segments.length ?? 0) >= 1, 'audio kept being packaged');
  });
  it('with gatherSamples a segment is its boxes then its samples, the same bytes as a copied one, until released', () => {
    const options = { partTargetSeconds: 2 };
    const copied = packager([SYNTHETIC_VIDEO, SYNTHETIC_AUDIO], options);
    const gathered = packager([SYNTHETIC_VIDEO, SYNTHETIC_AUDIO], { ...options, gatherSamples: true });
    const expected = new Map<string, Uint8Array>();
    let compared = 0;
    for (const unit of syntheticUnits({ seconds: 12.1, gopFrames: 60 })) {
      copied.onUnit(unit);
      gathered.onUnit(unit);
      for (const writer of copied.tracks) {
        for (const segment of writer.segments) {
          expected.set(`${writer.name}-${segment.msn}`, segment.data?.slice() ?? new Uint8Array(0));
        }
      }
      for (const writer of gathered.tracks) {
        for (const segment of writer.segments) {
          if (segment.pieces && segment.pieces.length > 0) {
            const bytes = Buffer.concat(segment.pieces);
            assert.equal(bytes.byteLength, segment.bytes);
            assert.deepEqual(new Uint8Array(bytes), expected.get(`${writer.name}-${segment.msn}`));
            assert.ok(segment.pieces.includes(segment.parts[0]?.samples?.[0] as Uint8Array), 'samples not copied');
            writer.release(segment);
            compared++;
          }
        }
      }
    }
    assert.ok(compared >= 10, `${compared} segments compared`);
    for (const writer of gathered.tracks) {
      assert.ok(
        writer.segments.every((segment) => segment.pieces?.length === 0),
        'released segments hold no bytes',
      );
    }
  });
});
