/**
 * Fuzz target of the relay decoder (an edge reads it from another node over the network).
 * Seeds are real relay bodies: HELLO, DESCRIPTION, units, signals and END.
 */
import { concatBytes } from '../../bits/bytes.js';
import type { FuzzTarget } from '../../testing/fuzz.js';
import {
  encodeDescription,
  encodeEnd,
  encodeHello,
  encodeSignal,
  encodeUnitHeader,
  RelayDecoder,
  RelayFrame,
} from './relay-wire.js';

function body(): Uint8Array {
  const data = new Uint8Array([0, 0, 0, 2, 0x65, 0x88]);
  const parts = [
    encodeHello({ version: 1, streamId: 's', playbackId: 'p' }),
    encodeDescription({
      tracks: [
        {
          kind: 'video',
          id: 1,
          codec: 'h264',
          timescale: 90_000,
          config: new Uint8Array([1, 0x64, 0, 0x1f]),
          codecString: 'avc1.64001f',
          width: 640,
          height: 360,
          fps: 30,
        },
        {
          kind: 'audio',
          id: 2,
          codec: 'opus',
          timescale: 48_000,
          config: new Uint8Array([0x4f, 0x70]),
          codecString: 'opus',
          sampleRate: 48_000,
          channels: 2,
        },
      ],
    }),
    encodeUnitHeader({ trackId: 1, dts: 3000, pts: 6000, key: true, data }, 1_700_000_000_000),
    data,
    encodeSignal(RelayFrame.caughtUp),
    encodeSignal(RelayFrame.interrupted),
    encodeEnd('gone'),
  ];
  return concatBytes(parts);
}

/** Fuzz targets of this module. */
export const fuzzTargets: FuzzTarget[] = [
  {
    name: 'relay/relay-wire decode',
    seeds: [body()],
    run(input) {
      const decoder = new RelayDecoder();
      const half = input.length >> 1;
      decoder.push(input.subarray(0, half));
      decoder.push(input.subarray(half));
    },
  },
];
