/** Fuzz target of init segments built from network-derived decoder configurations (seeds: real ffmpeg output). */
import { fixture } from '../../codecs/fixtures.js';
import type { FuzzTarget } from '../../testing/fuzz.js';
import { trackWithConfig } from '../../testing/synthetic-av.js';
import { buildInitSegment } from './init-segment.js';

const CODECS = ['h264', 'h265', 'av1', 'vp9', 'aac', 'opus'] as const;

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
      buildInitSegment([trackWithConfig(codec, input.subarray(1))]);
    },
  },
];
