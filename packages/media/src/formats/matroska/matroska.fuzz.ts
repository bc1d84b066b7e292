/** Fuzz target of the Matroska demuxer (seed: a small VP9 + Opus live WebM as ffmpeg writes its head, and a block). */
import type { FuzzTarget } from '../../testing/fuzz.js';
import { MatroskaDemuxer } from './matroska-demuxer.js';

const hex = (text: string): number[] => [...Buffer.from(text.replaceAll(' ', ''), 'hex')];

/** EBML header, an unknown-size Segment, Info, Tracks (VP9, Opus), an unknown-size Cluster with blocks. */
const SEED = Uint8Array.from([
  ...hex('1a45dfa3 9f 4286 81 01 42f7 81 01 42f2 81 04 42f3 81 08 4282 84 7765626d 4287 81 04 4285 81 02'),
  ...hex('18538067 01ffffffffffffff'),
  ...hex('1549a966 87 2ad7b1 83 0f4240'),
  ...hex('1654ae6b c8'),
  ...hex('ae a1 d7 81 01 83 81 01 86 85 565f565039 e0 88 b0 82 0140 ba 81 b4 23e383 84 01fca055'),
  ...hex('ae a4 d7 81 02 83 81 02 86 86 415f4f505553 e1 84 9f 81 02'),
  ...hex('63a2 93 4f707573486561640102380180bb00000000 00'),
  ...hex('1f43b675 01ffffffffffffff e7 81 00'),
  ...hex('a3 8f 81 0000 80 824983420000000000000000'),
  ...hex('a3 87 82 0000 80 fcfffe'),
  ...hex('a0 8b a1 86 82 0014 00 fcff fb 81 fe'),
]);

/** Matroska demuxing of arbitrary bytes, split at a random point. */
export const fuzzTargets: FuzzTarget[] = [
  {
    name: 'matroska-demuxer',
    seeds: [SEED],
    run(input) {
      const demuxer = new MatroskaDemuxer({ setDescription() {}, write() {} });
      const split = input.byteLength >> 1;
      demuxer.push(input.subarray(0, split));
      demuxer.push(input.subarray(split));
    },
  },
];
