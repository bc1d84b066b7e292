import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ParseError, UnsupportedError } from '../errors.js';
import { ffmpegSkip } from '../testing/ffmpeg-media.js';
import {
  type Av1C,
  av1CodecString,
  buildAv1C,
  describeAv1C,
  isKeyframe,
  OBU,
  parseAv1C,
  parseSequenceHeader,
  readLeb128,
  splitObus,
  writeLeb128,
} from './av1.js';
import { fixture } from './fixtures.js';
import { ffmpeg, ffmpegToFile, findBox, ivfFrames, type RejectCase, testRejects, threeFrames } from './test-support.js';

interface Case {
  name: string;
  size: string;
  encoder: string[];
  /** Key frame flags of the three temporal units (SVT-AV1 1.4 ignores -force_key_frames). */
  keys?: boolean[];
  expect: {
    width: number;
    height: number;
    seqProfile: number;
    bitDepth: number;
    monochrome: boolean;
    subsamplingX: number;
    subsamplingY: number;
  };
}

const aom = (pixFmt: string) => ['-c:v', 'libaom-av1', '-cpu-used', '8', '-usage', 'realtime', '-pix_fmt', pixFmt];
const yuv420 = { monochrome: false, subsamplingX: 1, subsamplingY: 1 };

const cases: Case[] = [
  {
    name: 'SVT-AV1 Main 640x360',
    size: '640x360',
    encoder: ['-c:v', 'libsvtav1', '-preset', '12'],
    keys: [true, false, false],
    expect: { width: 640, height: 360, seqProfile: 0, bitDepth: 8, ...yuv420 },
  },
  {
    name: 'libaom 854x480 (odd macroblock width)',
    size: '854x480',
    encoder: aom('yuv420p'),
    expect: { width: 854, height: 480, seqProfile: 0, bitDepth: 8, ...yuv420 },
  },
  {
    name: 'libaom Main 10-bit 98x66',
    size: '98x66',
    encoder: aom('yuv420p10le'),
    expect: { width: 98, height: 66, seqProfile: 0, bitDepth: 10, ...yuv420 },
  },
  {
    name: 'libaom High 4:4:4 96x64',
    size: '96x64',
    encoder: aom('yuv444p'),
    expect: { width: 96, height: 64, seqProfile: 1, bitDepth: 8, monochrome: false, subsamplingX: 0, subsamplingY: 0 },
  },
  {
    name: 'libaom Professional 4:2:2 96x64',
    size: '96x64',
    encoder: aom('yuv422p'),
    expect: { width: 96, height: 64, seqProfile: 2, bitDepth: 8, monochrome: false, subsamplingX: 1, subsamplingY: 0 },
  },
  {
    name: 'libaom monochrome 100x50',
    size: '100x50',
    encoder: aom('gray'),
    expect: { width: 100, height: 50, seqProfile: 0, bitDepth: 8, monochrome: true, subsamplingX: 1, subsamplingY: 1 },
  },
];

/** Encodes three frames (the third a forced key frame) and returns the output. */
function encode(c: Case, container: readonly string[]): Uint8Array {
  return ffmpeg([...threeFrames(c), ...c.encoder, '-force_key_frames', 'expr:eq(n,2)', ...container]);
}

/** Encodes like `encode` into a regular (seekable) MP4 whose av1C ffmpeg fills from the encoder. */
function encodeMp4(c: Case): Uint8Array {
  return ffmpegToFile([...threeFrames(c), ...c.encoder], 'mp4');
}

/**
 * The av1C fields both writers must agree on. The configOBUs may differ in bytes: ffmpeg copies
 * the encoder's global-header sequence header, which SVT-AV1 writes with other tool flags than
 * the in-band one.
 */
function av1CFields(record: Av1C) {
  const sh = record.sequenceHeader;
  return {
    seqProfile: record.seqProfile,
    seqLevelIdx: record.seqLevelIdx,
    seqTier: record.seqTier,
    bitDepth: record.bitDepth,
    monochrome: record.monochrome,
    subsamplingX: record.subsamplingX,
    subsamplingY: record.subsamplingY,
    chromaSamplePosition: record.chromaSamplePosition,
    width: sh?.maxFrameWidth,
    height: sh?.maxFrameHeight,
  };
}

describe('AV1 with libaom and SVT-AV1 streams', { skip: ffmpegSkip() }, () => {
  for (const c of cases) {
    test(c.name, () => {
      const frames = ivfFrames(encode(c, ['-f', 'ivf', 'pipe:1']));
      assert.equal(frames.length, 3);
      const first = frames[0] as Uint8Array;
      const header = splitObus(first).find((obu) => obu.type === OBU.sequenceHeader);
      assert.ok(header, 'the first temporal unit has a sequence header');
      const sh = parseSequenceHeader(header.payload);
      assert.deepEqual(
        {
          width: sh.maxFrameWidth,
          height: sh.maxFrameHeight,
          seqProfile: sh.seqProfile,
          bitDepth: sh.bitDepth,
          monochrome: sh.monochrome,
          subsamplingX: sh.subsamplingX,
          subsamplingY: sh.subsamplingY,
        },
        c.expect,
      );
      const av1C = buildAv1C(header.bytes);
      const described = describeAv1C(av1C);
      assert.equal(described.width, c.expect.width);
      assert.equal(described.height, c.expect.height);
      assert.match(
        described.codecString,
        new RegExp(`^av01\\.${c.expect.seqProfile}\\.\\d\\d[MH]\\.${String(c.expect.bitDepth).padStart(2, '0')}`),
      );

      const theirs = findBox(encodeMp4(c), 'av1C');
      assert.ok(theirs, 'ffmpeg wrote an av1C');
      assert.deepEqual(av1CFields(parseAv1C(av1C)), av1CFields(parseAv1C(theirs)), 'same av1C fields as ffmpeg');
      assert.equal(describeAv1C(theirs).codecString, described.codecString);
      assert.deepEqual(
        frames.map((frame) => isKeyframe(frame)),
        c.keys ?? [true, false, true],
      );
    });
  }

  test('an OBU stream without size fields in the last OBU (ffmpeg -f obu) splits into temporal units', () => {
    const c = cases[0] as Case;
    const obus = splitObus(encode(c, ['-f', 'obu', 'pipe:1']));
    assert.equal(obus.filter((obu) => obu.type === OBU.temporalDelimiter).length, 3);
    assert.ok(obus.some((obu) => obu.type === OBU.frame || obu.type === OBU.frameHeader));
  });
});

describe('AV1 fixtures and errors', () => {
  test('sequence header fixture: 64x64, profile 0, level 0, 8-bit 4:2:0', () => {
    const [obu] = splitObus(fixture('av1SequenceHeaderObu'));
    assert.ok(obu);
    const sh = parseSequenceHeader(obu.payload);
    assert.deepEqual(
      [sh.maxFrameWidth, sh.maxFrameHeight, sh.seqProfile, sh.seqLevelIdx, sh.bitDepth],
      [64, 64, 0, 0, 8],
    );
    assert.equal(av1CodecString(sh), 'av01.0.00M.08');
  });

  test('av1C fixture round trip: parse → build from its sequence header → same bytes', () => {
    const record = fixture('av1C');
    const parsed = parseAv1C(record);
    assert.deepEqual([...buildAv1C(parsed.configObus)], [...record]);
    assert.deepEqual(describeAv1C(record), { width: 64, height: 64, codecString: 'av01.0.00M.08', bitDepth: 8 });
  });

  test('buildAv1C adds a size field to a sequence header OBU without one', () => {
    const withSize = fixture('av1SequenceHeaderObu');
    const withoutSize = Uint8Array.of(0x08, ...withSize.subarray(2));
    assert.deepEqual([...buildAv1C(withoutSize)], [...fixture('av1C')]);
  });

  test('key and inter temporal unit fixtures', () => {
    assert.equal(isKeyframe(fixture('av1KeyTemporalUnit')), true);
    assert.equal(isKeyframe(fixture('av1InterTemporalUnit')), false);
  });

  const codecStrings: { name: string; fields: Parameters<typeof av1CodecString>[0]; expected: string }[] = [
    {
      name: 'Main 4.0 8-bit (spec example)',
      fields: { seqProfile: 0, seqLevelIdx: 8, seqTier: 0, bitDepth: 8 },
      expected: 'av01.0.08M.08',
    },
    {
      name: 'level 3.0 written as 04',
      fields: { seqProfile: 0, seqLevelIdx: 4, seqTier: 0, bitDepth: 8 },
      expected: 'av01.0.04M.08',
    },
    {
      name: 'High tier 10-bit',
      fields: { seqProfile: 0, seqLevelIdx: 13, seqTier: 1, bitDepth: 10 },
      expected: 'av01.0.13H.10',
    },
    {
      name: 'BT.2100 PQ full form (spec example)',
      fields: {
        seqProfile: 0,
        seqLevelIdx: 4,
        seqTier: 0,
        bitDepth: 10,
        colorDescriptionPresent: true,
        colorPrimaries: 9,
        transferCharacteristics: 16,
        matrixCoefficients: 9,
        colorRange: 0,
      },
      expected: 'av01.0.04M.10.0.110.09.16.09.0',
    },
    {
      name: 'monochrome',
      fields: { seqProfile: 0, seqLevelIdx: 0, seqTier: 0, bitDepth: 8, monochrome: true },
      expected: 'av01.0.00M.08.1.110.01.01.01.0',
    },
  ];
  for (const c of codecStrings) {
    test(`av1CodecString: ${c.name}`, () => {
      assert.equal(av1CodecString(c.fields), c.expected);
    });
  }

  const leb: { value: number; bytes: number[] }[] = [
    { value: 0, bytes: [0] },
    { value: 127, bytes: [0x7f] },
    { value: 128, bytes: [0x80, 0x01] },
    { value: 300, bytes: [0xac, 0x02] },
    { value: 0xffffffff, bytes: [0xff, 0xff, 0xff, 0xff, 0x0f] },
  ];
  for (const c of leb) {
    test(`leb128 ${c.value}`, () => {
      assert.deepEqual([...writeLeb128(c.value)], c.bytes);
      assert.deepEqual(readLeb128(Uint8Array.from(c.bytes), 0), { value: c.value, length: c.bytes.length });
    });
  }

  test('leb128 accepts padded encodings up to 8 bytes', () => {
    assert.deepEqual(readLeb128(Uint8Array.of(0x81, 0x80, 0x80, 0x00), 0), { value: 1, length: 4 });
  });

  const bad: RejectCase[] = [
    {
      name: 'leb128 of 9 bytes',
      run: () => readLeb128(new Uint8Array(9).fill(0x80), 0),
      error: ParseError,
    },
    {
      name: 'leb128 above 2^32 - 1',
      run: () => readLeb128(Uint8Array.of(0x80, 0x80, 0x80, 0x80, 0x10), 0),
      error: ParseError,
    },
    { name: 'truncated leb128', run: () => readLeb128(Uint8Array.of(0x80), 0), error: ParseError },
    { name: 'OBU with forbidden bit', run: () => splitObus(Uint8Array.of(0x92, 0)), error: ParseError },
    { name: 'OBU overrunning its size', run: () => splitObus(Uint8Array.of(0x12, 5, 0)), error: ParseError },
    {
      name: 'reserved seq_profile 3',
      run: () => parseSequenceHeader(Uint8Array.of(0x60, 0, 0, 0)),
      error: ParseError,
    },
    {
      name: 'truncated sequence header',
      run: () => parseSequenceHeader(fixture('av1SequenceHeaderObu').subarray(2, 6)),
      error: ParseError,
    },
    { name: 'av1C without marker', run: () => parseAv1C(Uint8Array.of(0x01, 0, 0, 0)), error: ParseError },
    { name: 'av1C version 2', run: () => parseAv1C(Uint8Array.of(0x82, 0, 0, 0)), error: UnsupportedError },
    { name: 'av1C of 3 bytes', run: () => parseAv1C(Uint8Array.of(0x81, 0, 0)), error: ParseError },
    {
      name: 'describeAv1C without configOBUs',
      run: () => describeAv1C(Uint8Array.of(0x81, 0, 0x0c, 0)),
      error: ParseError,
    },
    {
      name: 'buildAv1C of a temporal delimiter',
      run: () => buildAv1C(Uint8Array.of(0x12, 0)),
      error: ParseError,
    },
    {
      name: 'isKeyframe of an empty frame OBU',
      run: () => isKeyframe(Uint8Array.of(0x32, 0)),
      error: ParseError,
    },
  ];
  testRejects(bad);
});
