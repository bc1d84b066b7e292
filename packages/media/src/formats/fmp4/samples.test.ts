/** Sample durations and composition offsets from consecutive MediaUnits. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MediaUnit } from '../../stream/media-unit.js';
import { samplesFromUnits, trackFragmentFromUnits } from './samples.js';

const unit = (dts: number, pts: number, key = false): MediaUnit => ({
  trackId: 1,
  dts,
  pts,
  key,
  data: new Uint8Array(1),
});

describe('samplesFromUnits', () => {
  const units = [unit(0, 6000, true), unit(3000, 15000), unit(6000, 9000), unit(9000, 12000)];

  it('takes durations from the next dts and offsets from pts - dts', () => {
    const samples = samplesFromUnits(units, 12_500);
    assert.deepEqual(
      samples.map((s) => [s.duration, s.compositionOffset, s.key]),
      [
        [3000, 6000, true],
        [3000, 12000, false],
        [3000, 3000, false],
        [3500, 3000, false],
      ],
    );
  });

  it('repeats the previous duration without a next dts, else uses the fallback', () => {
    assert.equal(samplesFromUnits(units).at(-1)?.duration, 3000);
    assert.equal(samplesFromUnits([unit(0, 0)], undefined, 1024)[0]?.duration, 1024);
  });

  it('rejects dts going backwards', () => {
    assert.throws(() => samplesFromUnits([unit(3000, 3000), unit(0, 0)]), RangeError);
    assert.throws(() => samplesFromUnits([unit(3000, 3000)], 0), RangeError);
  });

  it('builds a track fragment starting at the first dts', () => {
    const fragment = trackFragmentFromUnits(7, units.slice(1), 12_000);
    assert.equal(fragment.trackId, 7);
    assert.equal(fragment.baseMediaDecodeTime, 3000);
    assert.equal(fragment.samples.length, 3);
    assert.throws(() => trackFragmentFromUnits(7, []), RangeError);
  });
});
