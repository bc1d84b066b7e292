import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildFragment } from '@airwave/media/formats/fmp4/fragment';
import { buildInitSegment } from '@airwave/media/formats/fmp4/init-segment';
import { SYNTHETIC_AUDIO, SYNTHETIC_VIDEO } from '@airwave/media/testing/synthetic-av';
import { BoxStream, fragmentTiming, sampleTimes, videoTrackId } from './fmp4-timing.js';

const sample = (duration: number, key = false) => ({
  duration,
  key,
  compositionOffset: 0,
  data: Uint8Array.of(1, 2, 3),
});

test('fragmentTiming reads tfdt and per-sample trun durations of every traf', () => {
  const fragment = buildFragment(
    7,
    [
      { trackId: 1, baseMediaDecodeTime: 900_000, samples: [sample(3000, true), sample(3060), sample(2970)] },
      { trackId: 2, baseMediaDecodeTime: 480_000, samples: [sample(1024, true), sample(1024)] },
    ],
    { styp: true },
  );
  const [video, audio] = fragmentTiming(fragment);
  assert.deepEqual(video, { trackId: 1, baseDecodeTime: 900_000, durations: [3000, 3060, 2970] });
  assert.deepEqual(audio, { trackId: 2, baseDecodeTime: 480_000, durations: [1024, 1024] });
  assert.deepEqual(sampleTimes(video ?? assert.fail('no video traf')), [900_000, 903_000, 906_060]);
});

test('videoTrackId finds the vide handler track of an init segment', () => {
  assert.equal(videoTrackId(buildInitSegment([SYNTHETIC_AUDIO, SYNTHETIC_VIDEO])), SYNTHETIC_VIDEO.id);
  assert.equal(videoTrackId(buildInitSegment([SYNTHETIC_AUDIO])), undefined);
});

test('BoxStream yields boxes only once they are complete, across chunk boundaries', () => {
  const fragment = buildFragment(1, [{ trackId: 1, baseMediaDecodeTime: 0, samples: [sample(3000, true)] }]);
  const stream = new BoxStream();
  const seen: string[] = [];
  for (let at = 0; at < fragment.length; at += 5) {
    seen.push(...stream.push(fragment.subarray(at, at + 5)).map((box) => box.type));
  }
  assert.deepEqual(seen, ['moof', 'mdat']);
  assert.throws(() => new BoxStream().push(Uint8Array.of(0, 0, 0, 4, 0x6d, 0x6f, 0x6f, 0x66)), /size 4/);
});
