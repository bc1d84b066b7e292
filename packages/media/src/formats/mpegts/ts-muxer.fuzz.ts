/** Fuzz targets of the MPEG-TS muxer's network-derived inputs: unit payloads and track configs (seeds: real ffmpeg output). */
import { fixture } from '../../codecs/fixtures.js';
import type { FuzzTarget } from '../../testing/fuzz.js';
import { trackWithConfig } from '../../testing/synthetic-av.js';
import { TsMuxer } from './ts-muxer.js';

const CONFIG_CODECS = ['h264', 'h265', 'aac', 'opus'] as const;

function unitTarget(codec: 'h264' | 'h265', config: Uint8Array, seed: Uint8Array): FuzzTarget {
  const muxer = new TsMuxer([trackWithConfig(codec, config, 1)]);
  let dts = 0;
  return {
    name: `ts-muxer-${codec}-unit`,
    seeds: [seed],
    run(input) {
      dts += 3000;
      muxer.writeUnit({ trackId: 1, dts, pts: dts + 3000, key: input.length % 2 === 0, data: input });
      muxer.take();
    },
  };
}

/** Video unit payloads (AVCC/HVCC) and track decoder configurations. */
export const fuzzTargets: FuzzTarget[] = [
  unitTarget('h264', fixture('h264Avcc'), fixture('h264KeyAccessUnit')),
  unitTarget('h265', fixture('h265Hvcc'), fixture('h265KeyAccessUnit')),
  {
    name: 'ts-muxer-track-config',
    seeds: [
      Uint8Array.of(0, ...fixture('h264Avcc')),
      Uint8Array.of(1, ...fixture('h265Hvcc')),
      Uint8Array.of(2, ...fixture('ascHeAacBackwardCompatible')),
      Uint8Array.of(3, ...fixture('opusHeadMono')),
    ],
    run(input) {
      const codec = CONFIG_CODECS[(input[0] ?? 0) % CONFIG_CODECS.length] ?? 'h264';
      const muxer = new TsMuxer([trackWithConfig(codec, input.subarray(1), 1)]);
      muxer.writeTables();
      muxer.take();
    },
  },
];
