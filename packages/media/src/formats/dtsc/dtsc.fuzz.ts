/** Fuzz targets of the DTSC packet reader and header track reader (seeds: a header, a command, media packets). */
import type { FuzzTarget } from '../../testing/fuzz.js';
import {
  DtscPacketReader,
  decodeDtscPacket,
  encodeDtscCommand,
  encodeDtscData,
  encodeDtscHeader,
} from './dtsc-packet.js';
import { tracksFromDtscHeader } from './dtsc-tracks.js';

const AVCC = Uint8Array.from([
  0x01, 0x64, 0x00, 0x1f, 0xff, 0xe1, 0x00, 0x19, 0x67, 0x64, 0x00, 0x1f, 0xac, 0xd9, 0x40, 0x50, 0x05, 0xbb, 0x01,
  0x10, 0x00, 0x00, 0x03, 0x00, 0x10, 0x00, 0x00, 0x03, 0x03, 0xc0, 0xf1, 0x83, 0x19, 0x60, 0x01, 0x00, 0x06, 0x68,
  0xeb, 0xe3, 0xcb, 0x22, 0xc0,
]);

const SEEDS = [
  encodeDtscHeader({
    live: 1,
    version: 4,
    tracks: {
      video_H264_1: { trackid: 1, type: 'video', codec: 'H264', init: AVCC, width: 1280, height: 720, fpks: 30000 },
      audio_AAC_2: {
        trackid: 2,
        type: 'audio',
        codec: 'AAC',
        init: Uint8Array.of(0x11, 0x90),
        rate: 48000,
        channels: 2,
      },
    },
  }),
  encodeDtscCommand({ cmd: 'ping' }),
  encodeDtscCommand({ cmd: 'error', msg: 'nope', list: [1, 'two', null, 2.5] }),
  encodeDtscData({ trackId: 1, time: 40, offset: 80, keyframe: true, data: Uint8Array.of(0, 0, 0, 2, 0x65, 0x88) }),
  encodeDtscData({ trackId: 2, time: 21, data: Uint8Array.of(0x21, 0x10, 0x04) }),
];

/** DTSC decode of arbitrary bytes, whole and split at a random point, then the header's tracks. */
export const fuzzTargets: FuzzTarget[] = [
  {
    name: 'dtsc-packet',
    seeds: SEEDS,
    run(input) {
      const packet = decodeDtscPacket(input);
      if (packet.kind === 'header') {
        tracksFromDtscHeader(packet.body);
      }
    },
  },
  {
    name: 'dtsc-reader',
    seeds: [Uint8Array.from(SEEDS.flatMap((seed) => [...seed]))],
    run(input) {
      const reader = new DtscPacketReader(64 * 1024);
      const split = input.byteLength >> 1;
      reader.push(input.subarray(0, split));
      reader.push(input.subarray(split));
    },
  },
];
