/** Fuzz targets of the AMF0 decoder (seeds: an RTMP connect command and an onMetaData array). */
import type { FuzzTarget } from '../../testing/fuzz.js';
import { decodeAmf0 } from './amf0-decode.js';
import { encodeAmf0 } from './amf0-encode.js';
import { Amf0EcmaArray, amf0Object } from './amf0-value.js';

/** AMF0 decode of arbitrary bytes. */
export const fuzzTargets: FuzzTarget[] = [
  {
    name: 'amf0-decode',
    seeds: [
      encodeAmf0(
        'connect',
        1,
        amf0Object({ app: 'live', type: 'nonprivate', flashVer: 'FMLE/3.0', tcUrl: 'rtmp://127.0.0.1:1935/live' }),
      ),
      encodeAmf0(
        '@setDataFrame',
        'onMetaData',
        new Amf0EcmaArray(amf0Object({ width: 640, height: 360, framerate: 30, stereo: true, encoder: 'Lavf59' })),
      ),
      encodeAmf0('_result', 2, null, [1, 'x', undefined, new Date(0)], 'y'.repeat(300)),
    ],
    run(input) {
      decodeAmf0(input);
    },
  },
];
