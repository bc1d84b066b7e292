import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ParseError } from '../../errors.js';
import { concatBytes as concat, oggPage as page } from '../../testing/ogg-pages.js';
import { readOggPackets } from './ogg.js';

const bytes = (length: number, fill: number) => new Uint8Array(length).fill(fill);

describe('Ogg pages', () => {
  it('joins segments into packets, across pages, and keeps only the first logical stream', () => {
    const long = bytes(300, 7);
    const file = concat(
      page(1, 0n, 0x02, [3, 255], concat(bytes(3, 1), long.subarray(0, 255))),
      page(2, 5n, 0x02, [2], bytes(2, 9)),
      page(1, 960n, 0x01, [45, 4], concat(long.subarray(255), bytes(4, 2))),
    );
    const packets = readOggPackets(file);
    assert.deepEqual(
      packets.map((packet) => [packet.data.length, packet.data[0], packet.granule]),
      [
        [3, 1, 0n],
        [300, 7, 960n],
        [4, 2, 960n],
      ],
    );
  });

  it('refuses a bad signature, a truncated page and a stream ending inside a packet', () => {
    assert.throws(
      () =>
        readOggPackets(
          Uint8Array.of(
            1,
            2,
            3,
            4,
            5,
            6,
            7,
            8,
            9,
            10,
            11,
            12,
            13,
            14,
            15,
            16,
            17,
            18,
            19,
            20,
            21,
            22,
            23,
            24,
            25,
            26,
            27,
          ),
        ),
      ParseError,
    );
    assert.throws(() => readOggPackets(page(1, 0n, 0, [10], bytes(4, 0))), ParseError);
    assert.throws(() => readOggPackets(page(1, 0n, 0, [255], bytes(255, 0))), /ends inside a packet/);
  });
});
