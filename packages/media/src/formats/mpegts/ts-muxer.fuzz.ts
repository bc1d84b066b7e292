/** Fuzz targets of the MPEG-TS muxer's network-derived inputs: unit payloads and track configs (seeds: real ffmpeg output). */
import { fixture } from '../../codecs/fixtures.js';
import type { Track } from '../../stream/track.js';
import type { FuzzTarget } from '../../testing/fuzz.js';
import { TsMuxer } from './ts-muxer.js';

const CONFIG_CODECS = ['h264', 'h265', 'aac', 'opus'] as const;

/** A track of `codec` with `config`; the first input byte picks the codec in the config target. */
function trackOf(codec: (typeof CONFIG_CODECS)[number], config: Uint8Array): Track {
  if (codec === 'h264' || codec === 'h265') {
    return { kind: 'video', id: 1, codec, timescale: 90_000, config, codecString: codec, width: 64, height: 64 };
  }
  return {
    kind: 'audio',
    id: 1,
    codec,
    timescale: 48_000,
    config,
    codecString: codec,
    sampleRate: 48_000,
    channels: 1,
  };
}

function unitTarget(codec: 'h264' | 'h265', config: Uint8Array, seed: Uint8Array): FuzzTarget {
  const muxer = new TsMuxer([trackOf(codec, config)]);
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
      const muxer = new TsMuxer([trackOf(codec, input.subarray(1))]);
      muxer.writeTables();
      muxer.take();
    },
  },
];
