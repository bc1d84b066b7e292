import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ParseError, UnsupportedError } from '../errors.js';
import { ffmpegSkip } from '../testing/ffmpeg-media.js';
import { fixture } from './fixtures.js';
import { avcCodecString, buildAvcC, describeAvcC, H264_NAL, isKeyframe, nalType, parseAvcC, parseSps } from './h264.js';
import { addEmulationPrevention, splitAnnexB, toLengthPrefixed } from './nal.js';
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
  expect: SpsSummary;
  frameMbsOnly?: boolean;
}

const cases: Case[] = [
  {
    name: 'High 1280x720 30 fps',
    size: '1280x720',
    rate: '30',
    args: ['-profile:v', 'high'],
    expect: { width: 1280, height: 720, profileIdc: 100, fps: 30, bitDepth: 8, chromaFormatIdc: 1 },
  },
  {
    name: 'Main 854x480 25 fps (right crop)',
    size: '854x480',
    rate: '25',
    args: ['-profile:v', 'main'],
    expect: { width: 854, height: 480, profileIdc: 77, fps: 25, bitDepth: 8, chromaFormatIdc: 1 },
  },
  {
    name: 'Baseline 1918x1078 29.97 fps (right and bottom crop)',
    size: '1918x1078',
    rate: '30000/1001',
    args: ['-profile:v', 'baseline'],
    expect: { width: 1918, height: 1078, profileIdc: 66, fps: 29.97, bitDepth: 8, chromaFormatIdc: 1 },
  },
  {
    name: 'interlaced 1920x1080 (field crop units)',
    size: '1920x1080',
    rate: '25',
    args: ['-flags', '+ildct+ilme', '-profile:v', 'high'],
    expect: { width: 1920, height: 1080, profileIdc: 100, fps: 25, bitDepth: 8, chromaFormatIdc: 1 },
    frameMbsOnly: false,
  },
  {
    name: 'High 4:2:2 640x362 (4:2:2 crop unit)',
    size: '640x362',
    rate: '50',
    args: ['-pix_fmt', 'yuv422p', '-profile:v', 'high422'],
    expect: { width: 640, height: 362, profileIdc: 122, fps: 50, bitDepth: 8, chromaFormatIdc: 2 },
  },
  {
    name: 'High 4:4:4 10-bit 320x240',
    size: '320x240',
    rate: '24',
    args: ['-pix_fmt', 'yuv444p10le', '-profile:v', 'high444'],
    expect: { width: 320, height: 240, profileIdc: 244, fps: 24, bitDepth: 10, chromaFormatIdc: 3 },
  },
  {
    name: 'High with JVT scaling matrices 352x288',
    size: '352x288',
    rate: '60',
    args: ['-profile:v', 'high', '-x264-params', 'cqm=jvt'],
    expect: { width: 352, height: 288, profileIdc: 100, fps: 60, bitDepth: 8, chromaFormatIdc: 1 },
  },
  {
    name: 'monochrome 4:0:0 250x130',
    size: '250x130',
    rate: '30',
    args: ['-pix_fmt', 'gray'],
    expect: { width: 250, height: 130, profileIdc: 100, fps: 30, bitDepth: 8, chromaFormatIdc: 0 },
  },
  {
    name: 'High 4:4:4 641x361 (odd sizes, crop unit 1)',
    size: '641x361',
    source: 'testsrc',
    rate: '30',
    args: ['-pix_fmt', 'yuv444p', '-profile:v', 'high444'],
    expect: { width: 641, height: 361, profileIdc: 244, fps: 30, bitDepth: 8, chromaFormatIdc: 3 },
  },
];

/** Encodes three frames with libx264 (AUDs on) and returns the Annex B stream. */
function encode(c: Case, container: readonly string[] = ['-f', 'h264', 'pipe:1']): Uint8Array {
  return ffmpeg([
    ...threeFrames(c),
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-g',
    '30',
    ...c.args,
    ...(container[1] === 'h264' ? ['-bsf:v', 'h264_metadata=aud=insert'] : []),
    ...container,
  ]);
}

describe('H.264 with libx264 streams', { skip: ffmpegSkip() }, () => {
  for (const c of cases) {
    test(c.name, () => {
      const nals = splitAnnexB(encode(c));
      const sps = nals.filter((nal) => nalType(nal) === H264_NAL.sps);
      const pps = nals.filter((nal) => nalType(nal) === H264_NAL.pps);
      const first = sps[0];
      assert.ok(first, 'stream has an SPS');
      const parsed = parseSps(first);
      assert.deepEqual(spsSummary(parsed), c.expect);
      assert.equal(parsed.frameMbsOnly, c.frameMbsOnly ?? true);

      const avcC = buildAvcC(sps, pps);
      const described = describeAvcC(avcC);
      assert.equal(described.width, c.expect.width);
      assert.equal(described.height, c.expect.height);
      assert.equal(described.fps, c.expect.fps);
      assert.equal(
        described.codecString,
        `avc1.${[parsed.profileIdc, parsed.constraintFlags, parsed.levelIdc].map((v) => v.toString(16).padStart(2, '0')).join('')}`,
      );

      const accessUnits = splitAccessUnits(nals);
      assert.equal(accessUnits.length, 3);
      assert.deepEqual(
        accessUnits.map((au) => isKeyframe(toLengthPrefixed(au))),
        [true, false, false],
      );
    });
  }

  test('our avcC carries the same SPS/PPS and indications as the one ffmpeg writes into MP4', () => {
    const c = cases[0] as Case;
    const fromMp4 = findBox(encode(c, MP4_TO_STDOUT), 'avcC');
    assert.ok(fromMp4, 'ffmpeg wrote an avcC');
    const theirs = parseAvcC(fromMp4);
    const nals = splitAnnexB(encode(c));
    const ours = parseAvcC(
      buildAvcC(
        nals.filter((nal) => nalType(nal) === H264_NAL.sps),
        nals.filter((nal) => nalType(nal) === H264_NAL.pps),
      ),
    );
    assert.deepEqual(ours, theirs);
    assert.deepEqual(describeAvcC(fromMp4), describeAvcC(buildAvcC(theirs.sps, theirs.pps)));
  });

  test('max_num_reorder_frames of the VUI bitstream restriction, after HRD parameters too', () => {
    const depth = (args: string[]) => {
      const sps = splitAnnexB(encode({ ...(cases[0] as Case), size: '64x64', args })).find(
        (nal) => nalType(nal) === H264_NAL.sps,
      );
      return parseSps(sps ?? new Uint8Array()).maxNumReorderFrames;
    };
    assert.equal(depth(['-bf', '0']), 0);
    assert.equal(depth(['-bf', '3', '-x264-params', 'b-pyramid=none']), 1);
    assert.equal(depth(['-bf', '2']), 2, 'x264 B-pyramid');
    assert.equal(
      depth(['-bf', '3', '-x264-params', 'nal-hrd=vbr', '-b:v', '500k', '-maxrate', '500k', '-bufsize', '1000k']),
      2,
      'NAL HRD parameters before the restriction',
    );
  });
});

/** Groups NAL units into access units at access unit delimiters. */
function splitAccessUnits(nals: Uint8Array[]): Uint8Array[][] {
  const units: Uint8Array[][] = [];
  for (const nal of nals) {
    if (nalType(nal) === H264_NAL.aud || units.length === 0) {
      units.push([]);
    }
    units.at(-1)?.push(nal);
  }
  return units;
}

describe('H.264 fixtures and errors', () => {
  test('SPS fixture: 64x64 High, 30 fps, level 1', () => {
    const sps = parseSps(fixture('h264Sps'));
    assert.equal(sps.width, 64);
    assert.equal(sps.height, 64);
    assert.equal(sps.fps, 30);
    assert.equal(avcCodecString(sps.profileIdc, sps.constraintFlags, sps.levelIdc), 'avc1.64000a');
  });

  test('cropped Baseline SPS fixture: 1918x1078', () => {
    const sps = parseSps(fixture('h264SpsBaselineCrop'));
    assert.deepEqual([sps.width, sps.height, sps.profileIdc, sps.fps], [1918, 1078, 66, 29.97]);
    assert.equal(avcCodecString(sps.profileIdc, sps.constraintFlags, sps.levelIdc), 'avc1.42c028');
  });

  test('avcC fixture round trip: parse → build → same bytes', () => {
    const record = fixture('h264Avcc');
    const parsed = parseAvcC(record);
    assert.equal(parsed.lengthSize, 4);
    assert.equal(parsed.sps.length, 1);
    assert.equal(parsed.pps.length, 1);
    assert.deepEqual([...buildAvcC(parsed.sps, parsed.pps)], [...record]);
    assert.deepEqual(describeAvcC(record), {
      width: 64,
      height: 64,
      fps: 30,
      codecString: 'avc1.64000a',
      profile: 100,
      level: 10,
      bitDepth: 8,
      chromaFormatIdc: 1,
      lengthSize: 4,
    });
  });

  test('key access unit fixture is a keyframe; the PPS alone is not', () => {
    assert.equal(isKeyframe(fixture('h264KeyAccessUnit')), true);
    assert.equal(isKeyframe(toLengthPrefixed([fixture('h264Pps')])), false);
  });

  test('an avcC with a 2-byte length size', () => {
    const record = fixture('h264Avcc');
    record[4] = 0xfd;
    assert.equal(parseAvcC(record).lengthSize, 2);
  });

  test('an SPS whose VUI is cut short still gives the picture size', () => {
    const sps = fixture('h264Sps');
    const cut = parseSps(sps.subarray(0, sps.length - 6));
    assert.deepEqual([cut.width, cut.height, cut.fps], [64, 64, undefined]);
  });

  const bad: RejectCase[] = [
    { name: 'parseSps of a PPS', run: () => parseSps(fixture('h264Pps')), error: ParseError },
    { name: 'parseSps of an empty NAL', run: () => parseSps(new Uint8Array(0)), error: ParseError },
    {
      name: 'parseSps truncated after the level',
      run: () => parseSps(fixture('h264Sps').subarray(0, 4)),
      error: ParseError,
    },
    {
      name: 'parseSps with a 20000-pixel-wide picture',
      run: () => parseSps(spsWithWidthMbs(1250)),
      error: UnsupportedError,
    },
    { name: 'parseAvcC of 3 bytes', run: () => parseAvcC(Uint8Array.of(1, 0x64, 0)), error: ParseError },
    {
      name: 'parseAvcC version 2',
      run: () => parseAvcC(Uint8Array.of(2, 0x64, 0, 0x1f, 0xff, 0xe0, 0)),
      error: UnsupportedError,
    },
    {
      name: 'parseAvcC with an SPS overrunning',
      run: () => parseAvcC(fixture('h264Avcc').subarray(0, 20)),
      error: ParseError,
    },
    {
      name: 'parseAvcC with length size 3',
      run: () => parseAvcC(Uint8Array.of(1, 0x64, 0, 0x1f, 0xfe, 0xe0, 0)),
      error: ParseError,
    },
    {
      name: 'describeAvcC without SPS',
      run: () => describeAvcC(Uint8Array.of(1, 0x64, 0, 0x1f, 0xff, 0xe0, 0)),
      error: ParseError,
    },
    {
      name: 'isKeyframe of a broken sample',
      run: () => isKeyframe(Uint8Array.of(0, 0, 0, 9, 0x65)),
      error: ParseError,
    },
  ];
  testRejects(bad);
});

/** A Baseline SPS (built bit by bit) with the given pic_width_in_mbs. */
function spsWithWidthMbs(widthMbs: number): Uint8Array {
  const bits = [
    '01000010',
    '00000000',
    '00011110',
    ue(0),
    ue(0),
    ue(0),
    ue(0),
    ue(1),
    '0',
    ue(widthMbs - 1),
    ue(10),
    '1',
    '1',
    '0',
    '0',
    '1',
  ].join('');
  const padded = bits.padEnd(Math.ceil(bits.length / 8) * 8, '0');
  const rbsp = Uint8Array.from(padded.match(/.{8}/g) ?? [], (byte) => Number.parseInt(byte, 2));
  return Uint8Array.of(0x67, ...addEmulationPrevention(rbsp));
}

/** The exp-Golomb bit string of v. */
function ue(v: number): string {
  const code = (v + 1).toString(2);
  return '0'.repeat(code.length - 1) + code;
}

test('the bit-built Baseline SPS helper itself parses at a normal size', () => {
  const sps = parseSps(spsWithWidthMbs(40));
  assert.deepEqual([sps.width, sps.height, sps.profileIdc], [640, 176, 66]);
});
