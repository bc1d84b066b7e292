import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ParseError, UnsupportedError } from '../errors.js';
import { ffmpegSkip } from '../testing/ffmpeg-media.js';
import { fixture } from './fixtures.js';
import {
  buildHvcC,
  describeHvcC,
  H265_NAL,
  type HvcC,
  hevcCodecString,
  isKeyframe,
  nalType,
  parseHvcC,
  parseSps,
} from './h265.js';
import { splitAnnexB, toLengthPrefixed } from './nal.js';
import {
  ffmpeg,
  findBox,
  MP4_TO_STDOUT,
  type PictureSource,
  type RejectCase,
  type SpsSummary,
  spsSummary,
  testRejects,
  threeFrames,
} from './test-support.js';

interface Case extends PictureSource {
  name: string;
  args: string[];
  x265?: string;
  expect: SpsSummary;
  codecPrefix: string;
  maxSubLayers?: number;
  /**
   * ffmpeg 5.1's hvcC writer does not infer fixed_pic_rate_within_cvs_flag = 1 when
   * fixed_pic_rate_general_flag is set (H.265 §E.3.2), so it misreads the VUI after an HRD and
   * reports a wrong min_spatial_segmentation_idc. Our SPS parse ends exactly on the RBSP stop bit.
   */
  ffmpegMisreadsVuiAfterHrd?: boolean;
}

const cases: Case[] = [
  {
    name: 'Main 1280x720 30 fps',
    size: '1280x720',
    rate: '30',
    args: [],
    expect: { width: 1280, height: 720, profileIdc: 1, fps: 30, bitDepth: 8, chromaFormatIdc: 1 },
    codecPrefix: 'hvc1.1.6.L93.',
  },
  {
    name: 'Main 854x480 25 fps (conformance window)',
    size: '854x480',
    rate: '25',
    args: [],
    expect: { width: 854, height: 480, profileIdc: 1, fps: 25, bitDepth: 8, chromaFormatIdc: 1 },
    codecPrefix: 'hvc1.1.6.L90.',
  },
  {
    name: 'Main 1918x1078 29.97 fps (right and bottom window)',
    size: '1918x1078',
    rate: '30000/1001',
    args: [],
    expect: { width: 1918, height: 1078, profileIdc: 1, fps: 29.97, bitDepth: 8, chromaFormatIdc: 1 },
    codecPrefix: 'hvc1.1.6.L120.',
  },
  {
    name: 'Main 10 640x360',
    size: '640x360',
    rate: '60',
    args: ['-pix_fmt', 'yuv420p10le'],
    expect: { width: 640, height: 360, profileIdc: 2, fps: 60, bitDepth: 10, chromaFormatIdc: 1 },
    codecPrefix: 'hvc1.2.4.L',
  },
  {
    name: 'RExt 4:4:4 320x240',
    size: '320x240',
    rate: '24',
    args: ['-pix_fmt', 'yuv444p'],
    expect: { width: 320, height: 240, profileIdc: 4, fps: 24, bitDepth: 8, chromaFormatIdc: 3 },
    codecPrefix: 'hvc1.4.10.L',
  },
  {
    name: 'RExt 4:2:2 10-bit 322x242',
    size: '322x242',
    rate: '30',
    args: ['-pix_fmt', 'yuv422p10le'],
    expect: { width: 322, height: 242, profileIdc: 4, fps: 30, bitDepth: 10, chromaFormatIdc: 2 },
    codecPrefix: 'hvc1.4.10.L',
  },
  {
    name: 'temporal sub-layers and HRD in the VUI',
    size: '416x240',
    rate: '50',
    args: [],
    x265: 'temporal-layers=1:hrd=1:vbv-bufsize=2000:vbv-maxrate=1000',
    expect: { width: 416, height: 240, profileIdc: 1, fps: 50, bitDepth: 8, chromaFormatIdc: 1 },
    codecPrefix: 'hvc1.1.6.L',
    maxSubLayers: 2,
    ffmpegMisreadsVuiAfterHrd: true,
  },
  {
    name: 'default scaling lists',
    size: '352x288',
    rate: '15',
    args: [],
    x265: 'scaling-list=default',
    expect: { width: 352, height: 288, profileIdc: 1, fps: 15, bitDepth: 8, chromaFormatIdc: 1 },
    codecPrefix: 'hvc1.1.6.L',
  },
  {
    name: 'RExt 4:4:4 641x361 (odd sizes)',
    size: '641x361',
    source: 'testsrc',
    rate: '30',
    args: ['-pix_fmt', 'yuv444p'],
    expect: { width: 641, height: 361, profileIdc: 4, fps: 30, bitDepth: 8, chromaFormatIdc: 3 },
    codecPrefix: 'hvc1.4.10.L',
  },
];

/** Encodes three frames with libx265 and returns the output. */
function encode(c: Case, container: readonly string[] = ['-f', 'hevc', 'pipe:1']): Uint8Array {
  return ffmpeg([
    ...threeFrames(c),
    '-c:v',
    'libx265',
    '-preset',
    'ultrafast',
    '-x265-params',
    ['log-level=none', 'keyint=30', ...(c.x265 ? [c.x265] : [])].join(':'),
    ...c.args,
    ...container,
  ]);
}

describe('H.265 with libx265 streams', { skip: ffmpegSkip() }, () => {
  for (const c of cases) {
    test(c.name, () => {
      const nals = splitAnnexB(encode(c));
      const of = (type: number) => nals.filter((nal) => nalType(nal) === type);
      const first = of(H265_NAL.sps)[0];
      assert.ok(first, 'stream has an SPS');
      const sps = parseSps(first);
      assert.deepEqual(spsSummary(sps), c.expect);
      assert.equal(sps.maxSubLayers, c.maxSubLayers ?? 1);
      const hvcC = buildHvcC(of(H265_NAL.vps), of(H265_NAL.sps), of(H265_NAL.pps));
      const described = describeHvcC(hvcC);
      assert.equal(described.width, c.expect.width);
      assert.equal(described.height, c.expect.height);
      assert.equal(described.fps, c.expect.fps);
      assert.ok(
        described.codecString.startsWith(c.codecPrefix),
        `${described.codecString} starts with ${c.codecPrefix}`,
      );
      const fromMp4 = findBox(encode(c, ['-tag:v', 'hvc1', ...MP4_TO_STDOUT]), 'hvcC');
      assert.ok(fromMp4, 'ffmpeg wrote an hvcC');
      const theirs = { ...hvcCFields(parseHvcC(fromMp4)) };
      if (c.ffmpegMisreadsVuiAfterHrd) {
        theirs.minSpatialSegmentationIdc = 0;
      }
      assert.deepEqual(hvcCFields(parseHvcC(hvcC)), theirs, 'same hvcC as ffmpeg');
      assert.equal(describeHvcC(fromMp4).codecString, described.codecString);
      const slices = nals.filter((nal) => nalType(nal) < 32);
      assert.deepEqual(
        slices.map((slice) => isKeyframe(toLengthPrefixed([slice]))),
        slices.map((_, index) => index === 0),
      );
    });
  }

  test('sps_max_num_reorder_pics', () => {
    const depth = (x265: string) => {
      const c: Case = { ...(cases[0] as Case), size: '64x64', x265 };
      return parseSps(splitAnnexB(encode(c)).find((nal) => nalType(nal) === H265_NAL.sps) ?? new Uint8Array())
        .maxNumReorderPics;
    };
    assert.equal(depth('bframes=0'), 0);
    assert.equal(depth('bframes=4:b-pyramid=0'), 1);
    assert.equal(depth('bframes=4'), 2, 'x265 B-pyramid');
  });
});

/** The hvcC fields both writers must agree on (ffmpeg sets avgFrameRate 0; we fill it). */
function hvcCFields(h: HvcC) {
  return {
    profileSpace: h.profileSpace,
    tierFlag: h.tierFlag,
    profileIdc: h.profileIdc,
    compatibilityFlags: h.compatibilityFlags,
    constraintFlags: [...h.constraintFlags],
    levelIdc: h.levelIdc,
    chromaFormatIdc: h.chromaFormatIdc,
    bitDepth: h.bitDepth,
    bitDepthChroma: h.bitDepthChroma,
    numTemporalLayers: h.numTemporalLayers,
    temporalIdNested: h.temporalIdNested,
    lengthSize: h.lengthSize,
    minSpatialSegmentationIdc: h.minSpatialSegmentationIdc,
    vps: h.vps.map((nal) => [...nal]),
    sps: h.sps.map((nal) => [...nal]),
    pps: h.pps.map((nal) => [...nal]),
  };
}

describe('H.265 fixtures and errors', () => {
  test('SPS fixture: 64x64 Main, 30 fps', () => {
    const sps = parseSps(fixture('h265Sps'));
    assert.deepEqual([sps.width, sps.height, sps.fps, sps.profileIdc, sps.levelIdc], [64, 64, 30, 1, 30]);
    assert.equal(hevcCodecString(sps), 'hvc1.1.6.L30.90');
    assert.equal(hevcCodecString(sps, 'hev1'), 'hev1.1.6.L30.90');
  });

  test('hvcC fixture round trip: parse → build → same bytes', () => {
    const record = fixture('h265Hvcc');
    const parsed = parseHvcC(record);
    assert.equal(parsed.lengthSize, 4);
    assert.deepEqual([parsed.vps.length, parsed.sps.length, parsed.pps.length], [1, 1, 1]);
    assert.deepEqual([...buildHvcC(parsed.vps, parsed.sps, parsed.pps)], [...record]);
    assert.deepEqual(describeHvcC(record), {
      width: 64,
      height: 64,
      fps: 30,
      codecString: 'hvc1.1.6.L30.90',
      profile: 1,
      level: 30,
      bitDepth: 8,
      chromaFormatIdc: 1,
      lengthSize: 4,
    });
  });

  const strings: { name: string; ptl: Parameters<typeof hevcCodecString>[0]; expected: string }[] = [
    {
      name: 'Annex E example: Main, Main tier, level 3.1, progressive + non-packed + frame-only',
      ptl: {
        profileSpace: 0,
        tierFlag: false,
        profileIdc: 1,
        compatibilityFlags: 0x60000000,
        constraintFlags: Uint8Array.of(0xb0, 0, 0, 0, 0, 0),
        levelIdc: 93,
      },
      expected: 'hvc1.1.6.L93.B0',
    },
    {
      name: 'Main 10, High tier, profile space 1, two constraint bytes',
      ptl: {
        profileSpace: 1,
        tierFlag: true,
        profileIdc: 2,
        compatibilityFlags: 0x20000000,
        constraintFlags: Uint8Array.of(0x90, 0x08, 0, 0, 0, 0),
        levelIdc: 120,
      },
      expected: 'hvc1.A2.4.H120.90.08',
    },
    {
      name: 'no constraint flags',
      ptl: {
        profileSpace: 0,
        tierFlag: false,
        profileIdc: 1,
        compatibilityFlags: 0x40000000,
        constraintFlags: new Uint8Array(6),
        levelIdc: 60,
      },
      expected: 'hvc1.1.2.L60',
    },
  ];
  for (const s of strings) {
    test(`hevcCodecString: ${s.name}`, () => {
      assert.equal(hevcCodecString(s.ptl), s.expected);
    });
  }

  test('key access unit fixture is a keyframe; a VPS alone is not', () => {
    assert.equal(isKeyframe(fixture('h265KeyAccessUnit')), true);
    assert.equal(isKeyframe(toLengthPrefixed([fixture('h265Vps')])), false);
  });

  const bad: RejectCase[] = [
    { name: 'parseSps of a VPS', run: () => parseSps(fixture('h265Vps')), error: ParseError },
    { name: 'parseSps of one byte', run: () => parseSps(Uint8Array.of(0x42)), error: ParseError },
    {
      name: 'parseSps truncated in profile_tier_level',
      run: () => parseSps(fixture('h265Sps').subarray(0, 10)),
      error: ParseError,
    },
    {
      name: 'parseHvcC of 10 bytes',
      run: () => parseHvcC(fixture('h265Hvcc').subarray(0, 10)),
      error: ParseError,
    },
    {
      name: 'parseHvcC with a truncated array',
      run: () => parseHvcC(fixture('h265Hvcc').subarray(0, 40)),
      error: ParseError,
    },
    {
      name: 'parseHvcC version 0',
      run: () => parseHvcC(Uint8Array.of(0, ...fixture('h265Hvcc').subarray(1))),
      error: UnsupportedError,
    },
    {
      name: 'describeHvcC without arrays',
      run: () =>
        describeHvcC(
          fixture('h265Hvcc')
            .subarray(0, 23)
            .map((v, i) => (i === 22 ? 0 : v)),
        ),
      error: ParseError,
    },
  ];
  testRejects(bad);
});
