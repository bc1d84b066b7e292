import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ParseError } from '../errors.js';
import {
  addEmulationPrevention,
  removeEmulationPrevention,
  splitAnnexB,
  splitLengthPrefixed,
  toAnnexB,
  toLengthPrefixed,
} from './nal.js';

const b = (...bytes: number[]) => Uint8Array.from(bytes);
const list = (nals: Uint8Array[]) => nals.map((nal) => [...nal]);

describe('NAL framing', () => {
  const annexB: { name: string; input: Uint8Array; expected: number[][] }[] = [
    {
      name: '4-byte start codes',
      input: b(0, 0, 0, 1, 0x67, 1, 0, 0, 0, 1, 0x68, 2),
      expected: [
        [0x67, 1],
        [0x68, 2],
      ],
    },
    {
      name: '3-byte start codes',
      input: b(0, 0, 1, 0x09, 0xf0, 0, 0, 1, 0x65, 0x88),
      expected: [
        [0x09, 0xf0],
        [0x65, 0x88],
      ],
    },
    {
      name: 'mixed, with trailing zero bytes',
      input: b(0, 0, 1, 0x67, 0, 0, 0, 0, 1, 0x68, 0, 0),
      expected: [[0x67], [0x68]],
    },
    { name: 'leading garbage is dropped', input: b(7, 7, 0, 0, 1, 0x41, 0x9a), expected: [[0x41, 0x9a]] },
    { name: 'empty NALs between start codes are skipped', input: b(0, 0, 1, 0, 0, 1, 0x67), expected: [[0x67]] },
    {
      name: 'emulation-prevented bytes are not start codes',
      input: b(0, 0, 1, 0x65, 0, 0, 3, 1, 5),
      expected: [[0x65, 0, 0, 3, 1, 5]],
    },
    { name: 'empty input', input: b(), expected: [] },
  ];
  for (const c of annexB) {
    test(`splitAnnexB: ${c.name}`, () => {
      assert.deepEqual(list(splitAnnexB(c.input)), c.expected);
    });
  }

  test('splitAnnexB reads a view into a larger buffer (a PES payload) as only its own bytes', () => {
    const whole = b(0, 0, 1, 0x99, 0, 0, 1, 0x67, 5, 0, 0, 0, 1, 0x68, 0, 0, 1, 0x77);
    const view = whole.subarray(4, 15);
    assert.deepEqual(list(splitAnnexB(view)), [[0x67, 5], [0x68]]);
    assert.deepEqual(list(splitAnnexB(Buffer.from(view))), [[0x67, 5], [0x68]]);
  });

  test('splitAnnexB rejects data without a start code', () => {
    assert.throws(() => splitAnnexB(b(1, 2, 3, 4)), ParseError);
  });

  for (const lengthSize of [1, 2, 4]) {
    test(`length-prefixed round trip with ${lengthSize}-byte lengths`, () => {
      const nals = [b(0x67, 1, 2), b(0x68), b(0x65, ...new Array(200).fill(9))];
      const prefixed = new Uint8Array(nals.reduce((sum, nal) => sum + lengthSize + nal.length, 0));
      let at = 0;
      for (const nal of nals) {
        prefixed[at + lengthSize - 1] = nal.length & 0xff;
        if (lengthSize > 1) {
          prefixed[at + lengthSize - 2] = nal.length >> 8;
        }
        prefixed.set(nal, at + lengthSize);
        at += lengthSize + nal.length;
      }
      assert.deepEqual(list(splitLengthPrefixed(prefixed, lengthSize)), list(nals));
      assert.deepEqual(list(splitAnnexB(toAnnexB(prefixed, lengthSize))), list(nals));
    });
  }

  test('toLengthPrefixed and toAnnexB are inverses', () => {
    const nals = [b(0x06, 5, 0, 0, 3), b(0x65, 0x88, 0x84)];
    const sample = toLengthPrefixed(nals);
    assert.deepEqual([...sample.subarray(0, 4)], [0, 0, 0, 5]);
    assert.deepEqual([...toAnnexB(sample)], [0, 0, 0, 1, 0x06, 5, 0, 0, 3, 0, 0, 0, 1, 0x65, 0x88, 0x84]);
    assert.deepEqual(list(splitLengthPrefixed(toLengthPrefixed(splitAnnexB(toAnnexB(sample))))), list(nals));
  });

  const badSamples: { name: string; input: Uint8Array; lengthSize: number }[] = [
    { name: 'truncated length', input: b(0, 0, 1), lengthSize: 4 },
    { name: 'length overruns the sample', input: b(0, 0, 0, 9, 1, 2), lengthSize: 4 },
    { name: 'zero length', input: b(0, 0, 0, 0), lengthSize: 4 },
    { name: 'length size 3', input: b(0, 0, 1, 5), lengthSize: 3 },
  ];
  for (const c of badSamples) {
    test(`splitLengthPrefixed rejects ${c.name}`, () => {
      assert.throws(() => splitLengthPrefixed(c.input, c.lengthSize), ParseError);
    });
  }

  const epb: { name: string; rbsp: number[]; nal: number[] }[] = [
    { name: 'no zeros', rbsp: [1, 2, 3], nal: [1, 2, 3] },
    { name: '00 00 00', rbsp: [0, 0, 0], nal: [0, 0, 3, 0] },
    { name: '00 00 01', rbsp: [5, 0, 0, 1], nal: [5, 0, 0, 3, 1] },
    { name: '00 00 02 00 00 03', rbsp: [0, 0, 2, 0, 0, 3], nal: [0, 0, 3, 2, 0, 0, 3, 3] },
    { name: '00 00 04 is left alone', rbsp: [0, 0, 4], nal: [0, 0, 4] },
    {
      name: 'zeros after an emulation byte restart the count',
      rbsp: [0, 0, 0, 0, 0, 0],
      nal: [0, 0, 3, 0, 0, 3, 0, 0],
    },
  ];
  for (const c of epb) {
    test(`emulation prevention: ${c.name}`, () => {
      assert.deepEqual([...addEmulationPrevention(b(...c.rbsp))], c.nal);
      assert.deepEqual([...removeEmulationPrevention(b(...c.nal))], c.rbsp);
    });
  }
});
