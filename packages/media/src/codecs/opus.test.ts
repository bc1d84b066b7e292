import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ParseError, UnsupportedError } from '../errors.js';
import { ffmpegSkip } from '../testing/ffmpeg-media.js';
import { fixture } from './fixtures.js';
import { buildOpusHead, opusCodecString, opusPacketSamples, parseOpusHead } from './opus.js';
import { ffmpeg, oggPackets, type RejectCase, testRejects } from './test-support.js';

/** Encodes a quarter second of sine with libopus into Ogg and returns its packets. */
function encode(rate: number, channels: number, frameDuration: string, layout?: string): Uint8Array[] {
  return oggPackets(
    ffmpeg([
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=440:sample_rate=${rate}`,
      '-t',
      '0.25',
      '-ac',
      String(channels),
      ...(layout ? ['-channel_layout', layout] : []),
      '-c:a',
      'libopus',
      '-frame_duration',
      frameDuration,
      '-f',
      'ogg',
      'pipe:1',
    ]),
  );
}

describe('Opus with libopus in Ogg', { skip: ffmpegSkip() }, () => {
  const heads: { name: string; rate: number; channels: number; layout?: string; family: number; streams?: number }[] = [
    { name: 'mono 48 kHz', rate: 48000, channels: 1, family: 0 },
    { name: 'stereo 48 kHz', rate: 48000, channels: 2, family: 0 },
    { name: 'stereo from 16 kHz input', rate: 16000, channels: 2, family: 0 },
    { name: '5.1 (mapping family 1)', rate: 48000, channels: 6, layout: '5.1', family: 1, streams: 4 },
  ];
  for (const h of heads) {
    test(`OpusHead: ${h.name}`, () => {
      const [first, tags] = encode(h.rate, h.channels, '20', h.layout);
      assert.ok(first && tags);
      const head = parseOpusHead(first);
      assert.equal(head.version, 1);
      assert.equal(head.channels, h.channels);
      assert.equal(head.inputSampleRate, h.rate);
      assert.equal(head.mappingFamily, h.family);
      assert.equal(head.streamCount, h.streams);
      assert.ok(head.preSkip > 0);
      assert.deepEqual([...buildOpusHead(head)], [...first], 'buildOpusHead rebuilds libopus’s head byte for byte');
      assert.equal(Buffer.from(tags.subarray(0, 8)).toString('latin1'), 'OpusTags');
    });
  }

  const durations: { frameDuration: string; samples: number }[] = [
    { frameDuration: '2.5', samples: 120 },
    { frameDuration: '5', samples: 240 },
    { frameDuration: '10', samples: 480 },
    { frameDuration: '20', samples: 960 },
    { frameDuration: '40', samples: 1920 },
    { frameDuration: '60', samples: 2880 },
  ];
  for (const d of durations) {
    test(`opusPacketSamples: ${d.frameDuration} ms frames`, () => {
      const audio = encode(48000, 2, d.frameDuration).slice(2);
      assert.ok(audio.length > 0);
      for (const packet of audio) {
        assert.equal(opusPacketSamples(packet), d.samples);
      }
    });
  }
});

describe('Opus fixtures and errors', () => {
  test('OpusHead fixtures', () => {
    assert.deepEqual(parseOpusHead(fixture('opusHeadMono')), {
      version: 1,
      channels: 1,
      preSkip: 312,
      inputSampleRate: 48000,
      outputGain: 0,
      mappingFamily: 0,
    });
    const surround = parseOpusHead(fixture('opusHead51'));
    assert.deepEqual(
      [surround.channels, surround.streamCount, surround.coupledCount, [...(surround.channelMapping ?? [])]],
      [6, 4, 2, [0, 4, 1, 2, 3, 5]],
    );
    assert.deepEqual([...buildOpusHead(surround)], [...fixture('opusHead51')]);
    assert.equal(opusCodecString(), 'opus');
  });

  const tocs: { name: string; packet: number[]; samples: number }[] = [
    { name: 'fixture: CELT FB 20 ms, code 0', packet: [...fixture('opusPacket')], samples: 960 },
    { name: 'SILK NB 10 ms, code 0', packet: [0 << 3], samples: 480 },
    { name: 'SILK WB 60 ms, code 1 (two frames)', packet: [(11 << 3) | 1], samples: 5760 },
    { name: 'Hybrid SWB 10 ms, code 2', packet: [(12 << 3) | 2, 1, 0], samples: 960 },
    { name: 'Hybrid FB 20 ms, code 0', packet: [15 << 3], samples: 960 },
    { name: 'CELT NB 2.5 ms, code 3 with 48 frames', packet: [(16 << 3) | 3, 48], samples: 5760 },
    { name: 'CELT FB 5 ms, code 3 with 3 frames', packet: [(29 << 3) | 3, 3], samples: 720 },
  ];
  for (const t of tocs) {
    test(`opusPacketSamples: ${t.name}`, () => {
      assert.equal(opusPacketSamples(Uint8Array.from(t.packet)), t.samples);
    });
  }

  const bad: RejectCase[] = [
    { name: 'an empty packet', run: () => opusPacketSamples(new Uint8Array(0)), error: ParseError },
    { name: 'code 3 without a count byte', run: () => opusPacketSamples(Uint8Array.of(0x03)), error: ParseError },
    { name: 'code 3 with 0 frames', run: () => opusPacketSamples(Uint8Array.of(0x03, 0)), error: ParseError },
    {
      name: 'a packet longer than 120 ms',
      run: () => opusPacketSamples(Uint8Array.of((3 << 3) | 3, 3)),
      error: ParseError,
    },
    { name: 'a short OpusHead', run: () => parseOpusHead(fixture('opusHeadMono').subarray(0, 18)), error: ParseError },
    {
      name: 'wrong magic',
      run: () => parseOpusHead(Uint8Array.from(fixture('opusHeadMono').map((v, i) => (i === 0 ? 0x6f : v)))),
      error: ParseError,
    },
    {
      name: 'major version 1',
      run: () => parseOpusHead(Uint8Array.from(fixture('opusHeadMono').map((v, i) => (i === 8 ? 0x10 : v)))),
      error: UnsupportedError,
    },
    {
      name: 'zero channels',
      run: () => parseOpusHead(Uint8Array.from(fixture('opusHeadMono').map((v, i) => (i === 9 ? 0 : v)))),
      error: ParseError,
    },
    {
      name: 'family 0 with 3 channels',
      run: () => parseOpusHead(Uint8Array.from(fixture('opusHeadMono').map((v, i) => (i === 9 ? 3 : v)))),
      error: ParseError,
    },
    {
      name: 'family 1 without the mapping table',
      run: () => parseOpusHead(fixture('opusHead51').subarray(0, 24)),
      error: ParseError,
    },
    {
      name: 'a mapping beyond the decoded channels',
      run: () => parseOpusHead(Uint8Array.from(fixture('opusHead51').map((v, i) => (i === 22 ? 9 : v)))),
      error: ParseError,
    },
    {
      name: 'coupled count above stream count',
      run: () => parseOpusHead(Uint8Array.from(fixture('opusHead51').map((v, i) => (i === 20 ? 5 : v)))),
      error: ParseError,
    },
  ];
  testRejects(bad);
});

test('buildOpusHead rejects values its fields cannot hold', () => {
  assert.throws(() => buildOpusHead({ channels: 2, preSkip: 70_000 }), UnsupportedError);
  assert.throws(() => buildOpusHead({ channels: 2, outputGain: -40_000 }), UnsupportedError);
  assert.throws(() => buildOpusHead({ channels: 6 }), UnsupportedError);
});
