/** Fuzz target of init segments built from network-derived decoder configurations (seeds: real ffmpeg output). */
import { fixture } from '../../codecs/fixtures.js';
import type { Track } from '../../stream/track.js';
import type { FuzzTarget } from '../../testing/fuzz.js';
import { buildInitSegment } from './init-segment.js';

const CODECS = ['h264', 'h265', 'av1', 'vp9', 'aac', 'opus'] as const;

function trackOf(codec: (typeof CODECS)[number], config: Uint8Array): Track {
  if (codec === 'aac' || codec === 'opus') {
    return {
      kind: 'audio',
      id: 1,
      codec,
      timescale: 48_000,
      config,
      codecString: codec,
      sampleRate: 48_000,
      channels: 2,
    };
  }
  return { kind: 'video', id: 1, codec, timescale: 90_000, config, codecString: codec, width: 64, height: 64 };
}

/** The first input byte picks the codec, the rest is its decoder configuration. */
export const fuzzTargets: FuzzTarget[] = [
  {
    name: 'fmp4-init-segment-config',
    seeds: [
      Uint8Array.of(0, ...fixture('h264Avcc')),
      Uint8Array.of(1, ...fixture('h265Hvcc')),
      Uint8Array.of(2, ...fixture('av1C')),
      Uint8Array.of(3, ...fixture('vpcCFromMp4')),
      Uint8Array.of(4, ...fixture('ascLcStereo44')),
      Uint8Array.of(5, ...fixture('opusHead51')),
    ],
    run(input) {
      const codec = CODECS[(input[0] ?? 0) % CODECS.length] ?? 'h264';
      buildInitSegment([trackOf(codec, input.subarray(1))]);
    },
  },
];
