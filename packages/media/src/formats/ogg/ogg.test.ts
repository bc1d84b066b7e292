import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildOpusHead } from '../../codecs/opus.js';
import { ParseError } from '../../errors.js';
import { oggOpusToTrack } from '../../protocols/rtmp/ogg-opus-to-flv.js';
import { FlvTagType } from '../flv/flv-tag.js';
import { readOggPackets } from './ogg.js';

/** One Ogg page (RFC 3533 §6) holding `segments` (lacing values) of `body`; the CRC is not checked by the reader. */
function page(
  serial: number,
  granule: bigint,
  headerType: number,
  lacing: readonly number[],
  body: Uint8Array,
): Uint8Array {
  const out = new Uint8Array(27 + lacing.length + body.length);
  const view = new DataView(out.buffer);
  out.set([0x4f, 0x67, 0x67, 0x53, 0, headerType]);
  view.setBigInt64(6, granule, true);
  view.setUint32(14, serial, true);
  out[26] = lacing.length;
  out.set(lacing, 27);
  out.set(body, 27 + lacing.length);
  return out;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

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

  it('turns Ogg Opus into an E-RTMP Opus sequence start and frames timed by their samples', () => {
    const head = buildOpusHead({ channels: 1, preSkip: 312, inputSampleRate: 48_000 });
    const tags = new TextEncoder().encode('OpusTags\0\0\0\0\0\0\0\0');
    // TOC: config 1 (SILK narrowband, 20 ms), code 0 (one frame per packet).
    const frame = Uint8Array.of(1 << 3, 0xaa, 0xbb);
    const file = concat(
      page(1, 0n, 0x02, [head.length], head),
      page(1, 0n, 0, [tags.length], tags),
      page(1, 2880n, 0x04, [3, 3, 3], concat(frame, frame, frame)),
    );
    const track = oggOpusToTrack(file);
    assert.deepEqual(
      track.tags.map((tag) => [tag.type, tag.timestampMs, tag.data[0]]),
      [
        [FlvTagType.audio, 0, 0x90],
        [FlvTagType.audio, 0, 0x91],
        [FlvTagType.audio, 20, 0x91],
        [FlvTagType.audio, 40, 0x91],
      ],
    );
    assert.equal(track.metadata.audiochannels, 1);
  });
});
