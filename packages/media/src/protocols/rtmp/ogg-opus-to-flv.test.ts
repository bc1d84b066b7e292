import assert from 'node:assert/strict';
import { it } from 'node:test';
import { buildOpusHead } from '../../codecs/opus.js';
import { ParseError } from '../../errors.js';
import { FlvTagType } from '../../formats/flv/flv-tag.js';
import { concatBytes as concat, oggPage as page } from '../../testing/ogg-pages.js';
import { oggOpusToTrack } from './ogg-opus-to-flv.js';

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

it('refuses an Ogg stream without OpusHead and OpusTags first', () => {
  const other = new TextEncoder().encode('NotOpus');
  assert.throws(() => oggOpusToTrack(page(1, 0n, 0x02, [other.length], other)), ParseError);
});
