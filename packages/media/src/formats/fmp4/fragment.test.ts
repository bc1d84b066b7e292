/** Structure of the fragments buildFragment writes (ISO/IEC 14496-12 §8.8). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findBox, findBoxes, readBoxes, viewOf } from '../../testing/iso-boxes.js';
import { buildFragment, NON_SYNC_SAMPLE_FLAGS, SYNC_SAMPLE_FLAGS } from './fragment.js';

const bytes = (length: number, fill: number): Uint8Array => new Uint8Array(length).fill(fill);

describe('buildFragment', () => {
  const video = {
    trackId: 1,
    baseMediaDecodeTime: 2 ** 33 + 7,
    samples: [
      { duration: 3000, key: true, compositionOffset: 6000, data: bytes(10, 1) },
      { duration: 3000, key: false, compositionOffset: -3000, data: bytes(20, 2) },
    ],
  };
  const audio = {
    trackId: 2,
    baseMediaDecodeTime: 48_000,
    samples: [{ duration: 1024, key: true, compositionOffset: 0, data: bytes(5, 3) }],
  };
  const fragment = buildFragment(42, [video, audio], { styp: true });

  it('writes styp, moof and one mdat holding every sample in order', () => {
    assert.deepEqual(
      readBoxes(fragment).map((box) => box.type),
      ['styp', 'moof', 'mdat'],
    );
    const mdat = findBox(fragment, 'mdat');
    assert.deepEqual([...mdat.payload], [...bytes(10, 1), ...bytes(20, 2), ...bytes(5, 3)]);
    assert.equal(viewOf(findBox(fragment, 'moof/mfhd')).getUint32(4), 42);
  });

  it('writes tfhd default-base-is-moof, tfdt v1 and trun v1 with data offsets relative to moof', () => {
    const moof = findBox(fragment, 'moof');
    const mdat = findBox(fragment, 'mdat');
    const trafs = findBoxes(fragment, 'moof/traf');
    assert.equal(trafs.length, 2);
    const tfhd = viewOf(findBoxes(fragment, 'moof/traf/tfhd')[0] ?? moof);
    assert.equal(tfhd.getUint32(0), 0x00020000);
    assert.equal(tfhd.getUint32(4), 1);
    const tfdts = findBoxes(fragment, 'moof/traf/tfdt').map(viewOf);
    assert.equal(tfdts[0]?.getUint8(0), 1);
    assert.equal(tfdts[0]?.getBigUint64(4), BigInt(2 ** 33 + 7));
    assert.equal(tfdts[1]?.getBigUint64(4), 48_000n);

    const [videoTrun, audioTrun] = findBoxes(fragment, 'moof/traf/trun').map(viewOf);
    assert.ok(videoTrun && audioTrun);
    assert.equal(videoTrun.getUint8(0), 1);
    assert.equal(videoTrun.getUint32(0) & 0xffffff, 0x000f01);
    assert.equal(videoTrun.getUint32(4), 2);
    assert.equal(moof.offset + videoTrun.getInt32(8), mdat.offset + 8);
    assert.deepEqual(
      [videoTrun.getUint32(12), videoTrun.getUint32(16), videoTrun.getUint32(20), videoTrun.getInt32(24)],
      [3000, 10, SYNC_SAMPLE_FLAGS, 6000],
    );
    assert.deepEqual(
      [videoTrun.getUint32(28), videoTrun.getUint32(32), videoTrun.getUint32(36), videoTrun.getInt32(40)],
      [3000, 20, NON_SYNC_SAMPLE_FLAGS, -3000],
    );
    assert.equal(audioTrun.getUint32(0) & 0xffffff, 0x000701, 'no composition offsets when all are zero');
    assert.equal(moof.offset + audioTrun.getInt32(8), mdat.offset + 8 + 30);
  });

  it('omits styp unless asked', () => {
    assert.deepEqual(
      readBoxes(buildFragment(1, [audio])).map((box) => box.type),
      ['moof', 'mdat'],
    );
  });

  it('rejects values the boxes cannot carry', () => {
    assert.throws(() => buildFragment(1, []), RangeError);
    assert.throws(() => buildFragment(-1, [audio]), RangeError);
    assert.throws(() => buildFragment(1, [{ ...audio, baseMediaDecodeTime: -1 }]), RangeError);
    const sample = { duration: 1, key: true, compositionOffset: 0, data: bytes(4, 0) };
    assert.throws(() => buildFragment(1, [{ ...audio, samples: [{ ...sample, size: 5 }] }]), RangeError);
    assert.throws(() => buildFragment(1, [{ ...audio, samples: [{ ...sample, duration: -1 }] }]), RangeError);
  });
});
