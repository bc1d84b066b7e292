/** Opus control headers and descriptors for MPEG-TS. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildOpusHead, parseOpusHead } from '../../codecs/opus.js';
import { UnsupportedError } from '../../errors.js';
import { opusControlHeader, opusDescriptors } from './opus-ts.js';

describe('Opus in MPEG-TS', () => {
  it('encodes au_size as 0xFF bytes plus a remainder', () => {
    assert.deepEqual([...opusControlHeader(0)], [0x7f, 0xe0, 0]);
    assert.deepEqual([...opusControlHeader(254)], [0x7f, 0xe0, 254]);
    assert.deepEqual([...opusControlHeader(255)], [0x7f, 0xe0, 0xff, 0]);
    assert.deepEqual([...opusControlHeader(600)], [0x7f, 0xe0, 0xff, 0xff, 90]);
  });

  it('describes mono and stereo streams and refuses other mapping families', () => {
    const stereo = opusDescriptors(parseOpusHead(buildOpusHead({ channels: 2 })));
    assert.deepEqual([...stereo], [0x05, 4, 0x4f, 0x70, 0x75, 0x73, 0x7f, 2, 0x80, 2]);
    const surround = parseOpusHead(
      buildOpusHead({
        channels: 6,
        mappingFamily: 1,
        streamCount: 4,
        coupledCount: 2,
        channelMapping: Uint8Array.of(0, 4, 1, 2, 3, 5),
      }),
    );
    assert.throws(() => opusDescriptors(surround), UnsupportedError);
  });
});
