import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BitWriter } from '../bits/bit-writer.js';
import { ParseError, UnsupportedError } from '../errors.js';
import { ffmpegSkip } from '../testing/ffmpeg-media.js';
import {
  aacCodecString,
  adtsHeader,
  adtsToAudioSpecificConfig,
  buildAudioSpecificConfig,
  parseAdtsFrames,
  parseAudioSpecificConfig,
} from './aac.js';
import { fixture } from './fixtures.js';
import { ascFromEsds, ffmpeg, ffmpegToFile, findBox, type RejectCase, testRejects } from './test-support.js';

interface Case {
  name: string;
  rate: number;
  channels: number;
  layout?: string;
}

const cases: Case[] = [
  { name: '44.1 kHz stereo', rate: 44100, channels: 2 },
  { name: '48 kHz mono', rate: 48000, channels: 1 },
  { name: '22.05 kHz stereo', rate: 22050, channels: 2 },
  { name: '8 kHz mono', rate: 8000, channels: 1 },
  { name: '96 kHz stereo', rate: 96000, channels: 2 },
  { name: '48 kHz 5.1', rate: 48000, channels: 6, layout: '5.1' },
];

/** ffmpeg arguments for a quarter second of AAC-LC from a sine source. */
function args(c: Case): string[] {
  return [
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:sample_rate=${c.rate}`,
    '-t',
    '0.25',
    '-ac',
    String(c.channels),
    ...(c.layout ? ['-channel_layout', c.layout] : []),
    '-c:a',
    'aac',
  ];
}

describe('AAC with ffmpeg’s encoder', { skip: ffmpegSkip() }, () => {
  for (const c of cases) {
    test(c.name, () => {
      const adts = ffmpeg([...args(c), '-f', 'adts', 'pipe:1']);
      const { frames, consumed } = parseAdtsFrames(adts);
      assert.equal(consumed, adts.length);
      assert.ok(frames.length >= Math.floor((0.25 * c.rate) / 1024));
      const first = frames[0];
      assert.ok(first);
      assert.equal(first.config.sampleRate, c.rate);
      assert.equal(first.config.channels, c.channels);
      assert.equal(first.config.objectType, 2);
      for (const frame of frames) {
        const rebuilt = adtsHeader(frame.config, frame.payload.length);
        assert.deepEqual(
          [...rebuilt],
          [...adts.subarray(frame.offset, frame.offset + 7)],
          'same ADTS header as ffmpeg',
        );
      }

      const esds = findBox(ffmpegToFile(args(c), 'mp4'), 'esds');
      assert.ok(esds, 'ffmpeg wrote an esds');
      const asc = ascFromEsds(esds);
      assert.ok(asc, 'the esds has a DecoderSpecificInfo');
      const parsed = parseAudioSpecificConfig(asc);
      assert.deepEqual(
        [parsed.objectType, parsed.sampleRate, parsed.channels, parsed.samplesPerFrame],
        [2, c.rate, c.channels, 1024],
      );
      assert.deepEqual(parseAudioSpecificConfig(adtsToAudioSpecificConfig(first.config)), parsed);
      assert.deepEqual(
        [...buildAudioSpecificConfig({ objectType: 2, sampleRate: c.rate, channels: c.channels })],
        [...asc.subarray(0, 2)],
        'buildAudioSpecificConfig writes what ffmpeg writes before its explicit "no SBR" extension',
      );
      assert.equal(parsed.sbr, false, 'ffmpeg signals SBR explicitly absent (sync extension 0x2b7, flag 0)');
      assert.equal(aacCodecString(parsed.objectType), 'mp4a.40.2');
    });
  }
});

/** Builds an AudioSpecificConfig bit by bit: [value, bits] pairs. */
function asc(...fields: [number, number][]): Uint8Array {
  const w = new BitWriter();
  for (const [value, bits] of fields) {
    w.writeBits(value, bits);
  }
  return w.byteAlign().toBytes();
}

describe('AudioSpecificConfig signalling', () => {
  const cases: {
    name: string;
    input: () => Uint8Array;
    expect: {
      objectType: number;
      sampleRate: number;
      channels: number;
      samplesPerFrame: number;
      sbr: boolean;
      ps: boolean;
    };
  }[] = [
    {
      name: 'AAC-LC 44.1 kHz stereo (12 10)',
      input: () => fixture('ascLcStereo44'),
      expect: { objectType: 2, sampleRate: 44100, channels: 2, samplesPerFrame: 1024, sbr: false, ps: false },
    },
    {
      name: 'HE-AAC, backward-compatible SBR extension (13 10 56 e5 98): 24 kHz core, 48 kHz output',
      input: () => fixture('ascHeAacBackwardCompatible'),
      expect: { objectType: 2, sampleRate: 48000, channels: 2, samplesPerFrame: 2048, sbr: true, ps: false },
    },
    {
      name: 'HE-AAC, explicit hierarchical (object type 5): 22.05 kHz core, 44.1 kHz output',
      input: () => asc([5, 5], [7, 4], [2, 4], [4, 4], [2, 5], [0, 3]),
      expect: { objectType: 5, sampleRate: 44100, channels: 2, samplesPerFrame: 2048, sbr: true, ps: false },
    },
    {
      name: 'HE-AAC v2 (object type 29): mono core becomes stereo',
      input: () => asc([29, 5], [6, 4], [1, 4], [3, 4], [2, 5], [0, 3]),
      expect: { objectType: 29, sampleRate: 48000, channels: 2, samplesPerFrame: 2048, sbr: true, ps: true },
    },
    {
      name: 'backward-compatible SBR + PS extension',
      input: () => asc([2, 5], [6, 4], [1, 4], [0, 3], [0x2b7, 11], [5, 5], [1, 1], [3, 4], [0x548, 11], [1, 1]),
      expect: { objectType: 2, sampleRate: 48000, channels: 2, samplesPerFrame: 2048, sbr: true, ps: true },
    },
    {
      name: 'explicit 24-bit sampling frequency 44056 Hz',
      input: () => asc([2, 5], [15, 4], [44056, 24], [1, 4], [0, 3]),
      expect: { objectType: 2, sampleRate: 44056, channels: 1, samplesPerFrame: 1024, sbr: false, ps: false },
    },
    {
      name: '960-sample frames (frameLengthFlag)',
      input: () => asc([2, 5], [3, 4], [2, 4], [1, 1], [0, 2]),
      expect: { objectType: 2, sampleRate: 48000, channels: 2, samplesPerFrame: 960, sbr: false, ps: false },
    },
    {
      name: 'channelConfiguration 7 is 8 channels (7.1)',
      input: () => asc([2, 5], [4, 4], [7, 4], [0, 3]),
      expect: { objectType: 2, sampleRate: 44100, channels: 8, samplesPerFrame: 1024, sbr: false, ps: false },
    },
    {
      name: 'program_config_element: 1 front SCE + 1 front CPE + 1 back CPE + 1 LFE = 6 channels',
      input: () =>
        asc(
          [2, 5],
          [3, 4],
          [0, 4],
          [0, 3],
          [0, 4],
          [1, 2],
          [3, 4],
          [2, 4],
          [0, 4],
          [1, 4],
          [1, 2],
          [0, 3],
          [0, 4],
          [0, 1],
          [0, 1],
          [0, 1],
          [0, 1],
          [0, 4],
          [1, 1],
          [1, 4],
          [1, 1],
          [2, 4],
          [0, 4],
          [0, 7],
          [0, 8],
        ),
      expect: { objectType: 2, sampleRate: 48000, channels: 6, samplesPerFrame: 1024, sbr: false, ps: false },
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const parsed = parseAudioSpecificConfig(c.input());
      assert.deepEqual(
        {
          objectType: parsed.objectType,
          sampleRate: parsed.sampleRate,
          channels: parsed.channels,
          samplesPerFrame: parsed.samplesPerFrame,
          sbr: parsed.sbr,
          ps: parsed.ps,
        },
        c.expect,
      );
    });
  }

  test('build → parse round trip, including an explicit rate', () => {
    for (const fields of [
      { objectType: 2, sampleRate: 44100, channels: 2 },
      { objectType: 2, sampleRate: 32000, channels: 1, frameLengthFlag: true },
      { objectType: 2, sampleRate: 12345, channels: 6 },
      { objectType: 1, sampleRate: 16000, channels: 8 },
    ]) {
      const parsed = parseAudioSpecificConfig(buildAudioSpecificConfig(fields));
      assert.deepEqual(
        [parsed.objectType, parsed.sampleRate, parsed.channels, parsed.frameLengthFlag],
        [fields.objectType, fields.sampleRate, fields.channels, fields.frameLengthFlag === true],
      );
    }
  });

  test('ADTS fixture: two frames, AAC-LC 48 kHz mono; a cut frame is left unconsumed', () => {
    const data = fixture('adts');
    const { frames, consumed } = parseAdtsFrames(data);
    assert.equal(frames.length, 2);
    assert.equal(consumed, data.length);
    assert.deepEqual([frames[0]?.config.sampleRate, frames[0]?.config.channels], [48000, 1]);
    const cut = parseAdtsFrames(data.subarray(0, data.length - 1));
    assert.deepEqual([cut.frames.length, cut.consumed], [1, frames[1]?.offset]);
  });

  test('adtsHeader → parseAdtsFrames round trip', () => {
    const config = parseAudioSpecificConfig(fixture('ascLcStereo44'));
    const payload = Uint8Array.from({ length: 300 }, (_, i) => i & 0xff);
    const frame = new Uint8Array([...adtsHeader(config, payload.length), ...payload]);
    const [parsed] = parseAdtsFrames(frame).frames;
    assert.ok(parsed);
    assert.deepEqual([...parsed.payload], [...payload]);
    assert.deepEqual([parsed.config.sampleRate, parsed.config.channels], [44100, 2]);
  });

  const bad: RejectCase[] = [
    { name: 'empty ASC', run: () => parseAudioSpecificConfig(new Uint8Array(0)), error: ParseError },
    {
      name: 'object type 0',
      run: () => parseAudioSpecificConfig(asc([0, 5], [4, 4], [2, 4], [0, 3])),
      error: ParseError,
    },
    {
      name: 'reserved frequency index 13',
      run: () => parseAudioSpecificConfig(asc([2, 5], [13, 4], [2, 4], [0, 3])),
      error: ParseError,
    },
    {
      name: 'explicit rate 0',
      run: () => parseAudioSpecificConfig(asc([2, 5], [15, 4], [0, 24], [2, 4], [0, 3])),
      error: ParseError,
    },
    {
      name: 'reserved channel configuration 9',
      run: () => parseAudioSpecificConfig(asc([2, 5], [4, 4], [9, 4], [0, 3])),
      error: UnsupportedError,
    },
    {
      name: 'ELD (object type 39)',
      run: () => parseAudioSpecificConfig(asc([31, 5], [7, 6], [4, 4], [2, 4])),
      error: UnsupportedError,
    },
    {
      name: 'truncated program_config_element',
      run: () => parseAudioSpecificConfig(asc([2, 5], [3, 4], [0, 4], [0, 3], [0, 4])),
      error: ParseError,
    },
    {
      name: 'ADTS without sync word',
      run: () => parseAdtsFrames(Uint8Array.of(0xff, 0x00, 0, 0, 0, 0, 0, 0)),
      error: ParseError,
    },
    {
      name: 'ADTS frame length below the header',
      run: () => parseAdtsFrames(Uint8Array.of(0xff, 0xf1, 0x50, 0x80, 0x00, 0x9f, 0xfc)),
      error: ParseError,
    },
    {
      name: 'ADTS with an explicit sample rate',
      run: () => adtsHeader(parseAudioSpecificConfig(asc([2, 5], [15, 4], [44056, 24], [1, 4], [0, 3])), 10),
      error: UnsupportedError,
    },
    {
      name: 'SBR as the core object type',
      run: () => parseAudioSpecificConfig(asc([5, 5], [7, 4], [2, 4], [4, 4], [5, 5], [0, 3])),
      error: UnsupportedError,
    },
    {
      name: 'ADTS payload too long',
      run: () => adtsHeader(parseAudioSpecificConfig(fixture('ascLcStereo44')), 9000),
      error: UnsupportedError,
    },
  ];
  testRejects(bad);
});

test('AAC-LD (object type 23): 480-sample frames, epConfig read before extensions', () => {
  const w = new BitWriter().writeBits(23, 5).writeBits(3, 4).writeBits(1, 4);
  w.writeBits(1, 1).writeBits(0, 1).writeBits(0, 1).writeBits(0, 2);
  const parsed = parseAudioSpecificConfig(w.byteAlign().toBytes());
  assert.deepEqual(
    [parsed.objectType, parsed.sampleRate, parsed.channels, parsed.samplesPerFrame],
    [23, 48000, 1, 480],
  );
});

test('buildAudioSpecificConfig rejects values it cannot encode', () => {
  assert.throws(() => buildAudioSpecificConfig({ objectType: 2, sampleRate: 2 ** 24, channels: 2 }), UnsupportedError);
  assert.throws(() => buildAudioSpecificConfig({ objectType: 0, sampleRate: 48000, channels: 2 }), UnsupportedError);
  assert.throws(() => buildAudioSpecificConfig({ objectType: 2, sampleRate: 48000, channels: 7 }), UnsupportedError);
});
