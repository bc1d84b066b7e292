import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ParseError, UnsupportedError } from '../errors.js';
import { ffmpegSkip } from '../testing/ffmpeg-media.js';
import { fixture } from './fixtures.js';
import {
  ffmpeg,
  ffmpegToFile,
  findBox,
  ivfFrames,
  type PictureSource,
  type RejectCase,
  testRejects,
  threeFrames,
} from './test-support.js';
import { buildVpcC, describeVpcC, isKeyframe, parseFrameSize, parseVpcC, vp9CodecString } from './vp9.js';

interface Case extends PictureSource {
  name: string;
  pixFmt: string;
  expect: {
    width: number;
    height: number;
    profile: number;
    bitDepth: number;
    subsamplingX: number;
    subsamplingY: number;
  };
}

const cases: Case[] = [
  {
    name: 'profile 0, 640x360',
    size: '640x360',
    pixFmt: 'yuv420p',
    expect: { width: 640, height: 360, profile: 0, bitDepth: 8, subsamplingX: 1, subsamplingY: 1 },
  },
  {
    name: 'profile 0, 854x480 (not a multiple of 8)',
    size: '854x480',
    pixFmt: 'yuv420p',
    expect: { width: 854, height: 480, profile: 0, bitDepth: 8, subsamplingX: 1, subsamplingY: 1 },
  },
  {
    name: 'profile 1, 4:4:4, 97x63 (odd sizes)',
    size: '97x63',
    source: 'testsrc',
    pixFmt: 'yuv444p',
    expect: { width: 97, height: 63, profile: 1, bitDepth: 8, subsamplingX: 0, subsamplingY: 0 },
  },
  {
    name: 'profile 2, 10-bit',
    size: '96x64',
    pixFmt: 'yuv420p10le',
    expect: { width: 96, height: 64, profile: 2, bitDepth: 10, subsamplingX: 1, subsamplingY: 1 },
  },
  {
    name: 'profile 3, 12-bit 4:2:2',
    size: '96x64',
    pixFmt: 'yuv422p12le',
    expect: { width: 96, height: 64, profile: 3, bitDepth: 12, subsamplingX: 1, subsamplingY: 0 },
  },
];

/** libvpx-vp9 arguments for three frames, the third a forced key frame. */
function args(c: Case): string[] {
  return [
    ...threeFrames(c),
    '-c:v',
    'libvpx-vp9',
    '-deadline',
    'realtime',
    '-cpu-used',
    '8',
    '-pix_fmt',
    c.pixFmt,
    '-force_key_frames',
    'expr:eq(n,2)',
  ];
}

describe('VP9 with libvpx-vp9 streams', { skip: ffmpegSkip() }, () => {
  for (const c of cases) {
    test(c.name, () => {
      const frames = ivfFrames(ffmpeg([...args(c), '-f', 'ivf', 'pipe:1']));
      assert.equal(frames.length, 3);
      const info = parseFrameSize(frames[0] as Uint8Array);
      assert.ok(info, 'the first frame is a key frame');
      assert.deepEqual(
        {
          width: info.width,
          height: info.height,
          profile: info.profile,
          bitDepth: info.bitDepth,
          subsamplingX: info.subsamplingX,
          subsamplingY: info.subsamplingY,
        },
        c.expect,
      );
      assert.deepEqual(
        frames.map((frame) => isKeyframe(frame)),
        [true, false, true],
      );

      const theirs = findBox(ffmpegToFile(args(c), 'mp4'), 'vpcC');
      assert.ok(theirs, 'ffmpeg wrote a vpcC');
      const parsed = parseVpcC(theirs);
      assert.equal(parsed.profile, c.expect.profile);
      assert.equal(parsed.bitDepth, c.expect.bitDepth);
      assert.deepEqual([...buildVpcC(parsed)], [...theirs], 'buildVpcC rebuilds ffmpeg’s vpcC byte for byte');
      const described = describeVpcC(theirs, frames[0]);
      assert.equal(described.width, c.expect.width);
      assert.equal(described.height, c.expect.height);
      assert.match(
        described.codecString,
        new RegExp(`^vp09\\.0${c.expect.profile}\\.\\d\\d\\.${String(c.expect.bitDepth).padStart(2, '0')}`),
      );
    });
  }
});

describe('VP9 fixtures and errors', () => {
  test('key frame fixture: 64x64 profile 0', () => {
    const info = parseFrameSize(fixture('vp9KeyFrameHead'));
    assert.deepEqual(info && [info.width, info.height, info.profile, info.bitDepth], [64, 64, 0, 8]);
    assert.equal(parseFrameSize(fixture('vp9InterFrameHead')), undefined);
  });

  test('vpcC fixture from ffmpeg: box payload, unspecified colour gives the short codec string', () => {
    const vpcC = parseVpcC(fixture('vpcCFromMp4'));
    assert.deepEqual(
      [vpcC.profile, vpcC.level, vpcC.bitDepth, vpcC.chromaSubsampling, vpcC.colourPrimaries],
      [0, 10, 8, 1, 2],
    );
    assert.equal(vp9CodecString(vpcC), 'vp09.00.10.08');
    assert.deepEqual(describeVpcC(fixture('vpcCFromMp4'), fixture('vp9KeyFrameHead')), {
      width: 64,
      height: 64,
      codecString: 'vp09.00.10.08',
      profile: 0,
      level: 10,
      bitDepth: 8,
    });
    assert.deepEqual(describeVpcC(fixture('vpcCFromMp4')).width, undefined);
  });

  test('a bare record (without version and flags) parses the same', () => {
    const bare = fixture('vpcCFromMp4').subarray(4);
    assert.deepEqual(parseVpcC(bare), parseVpcC(fixture('vpcCFromMp4')));
  });

  test('build → parse round trip with non-default colour', () => {
    const fields = {
      profile: 2,
      level: 41,
      bitDepth: 10,
      chromaSubsampling: 0,
      videoFullRange: true,
      colourPrimaries: 9,
      transferCharacteristics: 16,
      matrixCoefficients: 9,
    };
    const parsed = parseVpcC(buildVpcC(fields));
    assert.deepEqual(
      { ...parsed, codecInitializationData: undefined },
      { ...fields, codecInitializationData: undefined },
    );
    assert.equal(vp9CodecString(parsed), 'vp09.02.41.10.00.09.16.09.01');
  });

  test('vp9CodecString short form (spec example)', () => {
    assert.equal(vp9CodecString({ profile: 0, level: 10, bitDepth: 8 }), 'vp09.00.10.08');
  });

  const bad: RejectCase[] = [
    { name: 'vpcC of 5 bytes', run: () => parseVpcC(Uint8Array.of(1, 0, 0, 0, 0)), error: ParseError },
    {
      name: 'vpcC with bit depth 9',
      run: () => parseVpcC(Uint8Array.of(0, 10, 0x92, 1, 1, 1, 0, 0)),
      error: ParseError,
    },
    {
      name: 'vpcC with init data overrunning',
      run: () => parseVpcC(Uint8Array.of(0, 10, 0x82, 1, 1, 1, 0, 9)),
      error: ParseError,
    },
    {
      name: 'vpcC version 9',
      run: () => parseVpcC(Uint8Array.of(9, 0, 0, 0, 0, 10, 0x82, 1, 1, 1, 0, 0)),
      error: UnsupportedError,
    },
    {
      name: 'frame without frame marker',
      run: () => parseFrameSize(Uint8Array.of(0x00, 0, 0)),
      error: ParseError,
    },
    {
      name: 'key frame without sync code',
      run: () => parseFrameSize(Uint8Array.of(0x82, 0x11, 0x22, 0x33, 0, 0, 0, 0, 0)),
      error: ParseError,
    },
    {
      name: 'truncated key frame header',
      run: () => parseFrameSize(fixture('vp9KeyFrameHead').subarray(0, 6)),
      error: ParseError,
    },
    { name: 'empty frame', run: () => isKeyframe(new Uint8Array(0)), error: ParseError },
  ];
  testRejects(bad);
});
