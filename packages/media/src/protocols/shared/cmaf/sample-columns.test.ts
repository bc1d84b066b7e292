import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MediaUnit } from '../../../stream/media-unit.js';
import { SampleColumns } from './sample-columns.js';

function unit(dts: number, key = false): MediaUnit {
  return { trackId: 1, dts, pts: dts + 2, key, data: new Uint8Array([dts & 0xff]) };
}

describe('SampleColumns', () => {
  it('gives back the samples it holds, oldest first, with their timing, sync flag and bytes', () => {
    const columns = new SampleColumns();
    columns.push(unit(10, true), 3);
    columns.push(unit(13), 4);
    assert.equal(columns.length, 2);
    assert.equal(columns.firstDts, 10);
    assert.deepEqual(columns.take(2), [
      { dts: 10, pts: 12, duration: 3, key: true, compositionOffset: 2, data: new Uint8Array([10]) },
      { dts: 13, pts: 15, duration: 4, key: false, compositionOffset: 2, data: new Uint8Array([13]) },
    ]);
    assert.equal(columns.length, 0);
    assert.equal(columns.firstDts, undefined);
  });

  it('keeps what a take leaves, and grows past its first capacity', () => {
    const columns = new SampleColumns();
    for (let dts = 0; dts < 300; dts++) {
      columns.push(unit(dts), 1);
    }
    assert.equal(columns.countBefore(250), 250);
    assert.deepEqual(
      columns.take(250).map((sample) => sample.dts),
      Array.from({ length: 250 }, (_, i) => i),
    );
    assert.equal(columns.firstDts, 250);
    columns.push(unit(300), 1);
    assert.deepEqual(
      columns.take(columns.length).map((sample) => [sample.dts, sample.data[0]]),
      Array.from({ length: 51 }, (_, i) => [250 + i, (250 + i) & 0xff]),
    );
  });

  it('drops everything on clear', () => {
    const columns = new SampleColumns();
    columns.push(unit(1), 1);
    columns.clear();
    assert.equal(columns.length, 0);
    assert.equal(columns.countBefore(100), 0);
    assert.deepEqual(columns.take(0), []);
  });
});
