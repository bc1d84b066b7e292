import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ParseError, UnsupportedError } from '../../errors.js';
import { EFLV_FIXTURES as FIXTURES } from '../../testing/eflv-fixtures.js';
import { encodeAmf0 } from '../amf0/amf0-encode.js';
import { Amf0EcmaArray, amf0Object } from '../amf0/amf0-value.js';
import { parseAudioTag } from './flv-audio.js';
import { buildAudioTag, buildVideoTag } from './flv-build.js';
import { parseMediaTag } from './flv-media.js';
import { metadataHints, parseScriptTag } from './flv-script.js';
import { FlvTagReader, FlvTagType, readFlvTags } from './flv-tag.js';
import { parseVideoTag } from './flv-video.js';
import { encodeFlvHeader, encodeFlvTag } from './flv-writer.js';

describe('FLV tags', () => {
  it('writes and reads back a file, whole and one byte at a time', () => {
    const tags = [
      { type: FlvTagType.script, timestampMs: 0, data: encodeAmf0('onMetaData', amf0Object({ width: 2 })) },
      { type: FlvTagType.video, timestampMs: 0x01234567, data: Uint8Array.of(0x17, 1, 0, 0, 0, 9) },
      { type: FlvTagType.audio, timestampMs: 40, data: Uint8Array.of(0xaf, 1, 7) },
    ] as const;
    const file = new Uint8Array(
      Buffer.concat([encodeFlvHeader({ audio: true, video: true }), ...tags.map(encodeFlvTag)]),
    );
    assert.deepEqual(readFlvTags(file), tags);
    const reader = new FlvTagReader();
    const got = [];
    for (const byte of file) {
      got.push(...reader.push(Uint8Array.of(byte)));
    }
    assert.deepEqual(got, tags);
    assert.equal(reader.header?.hasVideo, true);
    assert.equal(reader.buffered, 0);
  });

  it('hands out tag data as views of the pushed bytes only when asked to', () => {
    const tag = { type: FlvTagType.audio, timestampMs: 40, data: Uint8Array.of(0xaf, 1, 7) };
    const bytes = encodeFlvTag(tag);
    const copied = readFlvTags(bytes, { expectHeader: false })[0];
    const viewed = readFlvTags(bytes, { expectHeader: false, views: true })[0];
    assert.deepEqual(viewed, tag);
    assert.deepEqual(copied, tag);
    assert.equal(viewed?.data.buffer, bytes.buffer);
    assert.notEqual(copied?.data.buffer, bytes.buffer);
  });

  it('rejects a bad signature, a reserved tag type, encrypted tags and oversized tags', () => {
    assert.throws(() => readFlvTags(Buffer.from('FLX\x01\x05\x00\x00\x00\x09\x00\x00\x00\x00')), ParseError);
    const bad = encodeFlvTag({ type: FlvTagType.audio, timestampMs: 0, data: new Uint8Array(4) });
    bad[0] = 7;
    assert.throws(() => readFlvTags(bad, { expectHeader: false }), /tag type 7/);
    bad[0] = 0x28;
    assert.throws(() => readFlvTags(bad, { expectHeader: false }), UnsupportedError);
    const big = encodeFlvTag({ type: FlvTagType.video, timestampMs: 0, data: new Uint8Array(100) });
    assert.throws(() => readFlvTags(big, { expectHeader: false, maxTagSize: 99 }), /exceeds the 99-byte limit/);
  });
});

describe('FLV video tag bodies', () => {
  it('parses legacy AVC config, frames with signed composition time, and end of sequence', () => {
    const config = parseVideoTag(Uint8Array.of(0x17, 0, 0, 0, 0, 1, 0x64, 0, 0x1f), 0);
    assert.equal(config?.codec, 'h264');
    assert.equal(config?.packetType, 'config');
    assert.deepEqual([...(config?.data ?? [])], [1, 0x64, 0, 0x1f]);
    const frame = parseVideoTag(Uint8Array.of(0x27, 1, 0xff, 0xff, 0xd8, 0, 0, 0, 1, 0x41), 1000);
    assert.equal(frame?.packetType, 'frame');
    assert.equal(frame?.key, false);
    assert.equal(frame?.compositionOffsetMs, -40);
    assert.equal(frame?.timestampMs, 1000);
    const positive = parseVideoTag(Uint8Array.of(0x17, 1, 0, 0, 0x50, 0, 0, 0, 1, 0x65), 0);
    assert.equal(positive?.compositionOffsetMs, 80);
    assert.equal(positive?.key, true);
    assert.equal(parseVideoTag(Uint8Array.of(0x17, 2, 0, 0, 0), 0)?.packetType, 'end');
  });

  it('parses legacy CodecID 12 as HEVC', () => {
    const packet = parseVideoTag(Uint8Array.of(0x1c, 1, 0, 0, 0x21, 0, 0, 0, 1, 0x26), 5);
    assert.equal(packet?.codec, 'h265');
    assert.equal(packet?.compositionOffsetMs, 33);
  });

  it('ignores command frames and refuses other legacy codecs', () => {
    assert.equal(parseVideoTag(Uint8Array.of(0x57, 0), 0), null);
    assert.equal(parseVideoTag(Uint8Array.of(0xd0, 0), 0), null);
    assert.throws(() => parseVideoTag(Uint8Array.of(0x12, 0), 0), UnsupportedError);
    assert.throws(() => parseVideoTag(Uint8Array.of(0x17, 5, 0, 0, 0), 0), ParseError);
    assert.throws(() => parseVideoTag(Uint8Array.of(0x17, 1, 0), 0), ParseError);
    assert.throws(() => parseVideoTag(new Uint8Array(0), 0), ParseError);
  });

  it('round-trips E-RTMP hvc1/av01/vp09/avc1 through the builder', () => {
    const data = Uint8Array.of(1, 2, 3);
    for (const codec of ['h264', 'h265', 'av1', 'vp9'] as const) {
      for (const packetType of ['config', 'frame', 'end'] as const) {
        const cts = codec === 'h264' || codec === 'h265' ? -33 : 0;
        const body = buildVideoTag({ codec, packetType, key: true, compositionOffsetMs: cts, data, legacy: false });
        assert.equal(body[0] && body[0] & 0x80, 0x80);
        const packet = parseVideoTag(body, 7);
        assert.equal(packet?.codec, codec);
        assert.equal(packet?.packetType, packetType);
        assert.equal(packet?.compositionOffsetMs, packetType === 'frame' ? cts : 0);
        assert.deepEqual([...(packet?.data ?? [])], packetType === 'end' ? [] : [1, 2, 3]);
      }
    }
    const x = buildVideoTag({ codec: 'h265', packetType: 'frame', key: false, data });
    assert.equal((x[0] ?? 0) & 0x0f, 3, 'CodedFramesX when the composition time is 0');
  });

  it('skips ModEx prefixes and reads metadata packets', () => {
    const modEx = Uint8Array.of(0x97, 2, 0x01, 0x86, 0xa0, 0x01, ...Buffer.from('av01'), 0xaa);
    const packet = parseVideoTag(modEx, 3);
    assert.equal(packet?.packetType, 'frame');
    assert.deepEqual([...(packet?.data ?? [])], [0xaa]);
    const meta = parseVideoTag(Uint8Array.of(0x84, ...Buffer.from('hvc1'), 5), 0);
    assert.equal(meta?.packetType, 'metadata');
    assert.throws(() => parseVideoTag(Uint8Array.of(0x97, 200, 0), 0), /ModEx data truncated/);
    assert.throws(() => parseVideoTag(Uint8Array.of(0x91, ...Buffer.from('vp08'), 1), 0), UnsupportedError);
  });

  it('keeps the first track of a multitrack message and counts the rest', () => {
    const track = (id: number, bytes: number[]) => [id, 0, 0, bytes.length, ...bytes];
    const many = Uint8Array.of(0x96, 0x11, ...Buffer.from('av01'), ...track(0, [0xa]), ...track(1, [0xb, 0xc]));
    const packet = parseVideoTag(many, 0);
    assert.equal(packet?.codec, 'av1');
    assert.deepEqual([...(packet?.data ?? [])], [0xa]);
    assert.equal(packet?.droppedTracks, 1);
    const one = parseVideoTag(Uint8Array.of(0x96, 0x00, ...Buffer.from('vp09'), 0, 0x42), 0);
    assert.equal(one?.packetType, 'config');
    assert.deepEqual([...(one?.data ?? [])], [0x42]);
    const manyCodecs = Uint8Array.of(
      0x96,
      0x21,
      ...Buffer.from('hvc1'),
      ...track(3, [0, 0, 1, 9]),
      ...Buffer.from('av01'),
      ...track(0, [7]),
    );
    const preferred = parseVideoTag(manyCodecs, 0);
    assert.equal(preferred?.codec, 'av1', 'track 0 is preferred');
    assert.throws(() => parseVideoTag(Uint8Array.of(0x96, 0x16, ...Buffer.from('av01')), 0), ParseError);
    assert.throws(() => parseVideoTag(Uint8Array.of(0x96, 0x11, ...Buffer.from('av01'), 0, 0, 0, 9, 1), 0), ParseError);
  });
});

describe('FLV audio tag bodies', () => {
  it('parses legacy AAC and E-RTMP Opus/mp4a', () => {
    const config = parseAudioTag(Uint8Array.of(0xaf, 0, 0x12, 0x10), 0);
    assert.deepEqual([config.codec, config.packetType, [...config.data]], ['aac', 'config', [0x12, 0x10]]);
    assert.equal(parseAudioTag(Uint8Array.of(0xaf, 1, 0x21), 23).packetType, 'frame');
    for (const codec of ['aac', 'opus'] as const) {
      for (const packetType of ['config', 'frame', 'end'] as const) {
        const packet = parseAudioTag(buildAudioTag({ codec, packetType, data: Uint8Array.of(9) }), 20);
        assert.equal(packet.codec, codec);
        assert.equal(packet.packetType, packetType);
      }
    }
    const ex = parseAudioTag(Uint8Array.of(0x91, ...Buffer.from('mp4a'), 0x21), 1);
    assert.equal(ex.codec, 'aac');
    assert.equal(ex.packetType, 'frame');
  });

  it('refuses MP3, unknown FourCCs and bad AACPacketType', () => {
    assert.throws(() => parseAudioTag(Uint8Array.of(0x2f, 0), 0), UnsupportedError);
    assert.throws(() => parseAudioTag(Uint8Array.of(0x91, ...Buffer.from('fLaC')), 0), UnsupportedError);
    assert.throws(() => parseAudioTag(Uint8Array.of(0xaf, 2), 0), ParseError);
    assert.throws(() => parseAudioTag(Uint8Array.of(0xaf), 0), ParseError);
  });
});

describe('FLV script tags', () => {
  it('reads onMetaData hints, with and without @setDataFrame', () => {
    const meta = new Amf0EcmaArray(amf0Object({ width: 640, height: 360, framerate: 29.97, encoder: 'Lavf' }));
    for (const body of [encodeAmf0('onMetaData', meta), encodeAmf0('@setDataFrame', 'onMetaData', meta)]) {
      const hints = metadataHints(parseScriptTag(body));
      assert.deepEqual(hints, {
        width: 640,
        height: 360,
        framerate: 29.97,
        encoder: 'Lavf',
        hasVideo: true,
        hasAudio: false,
      });
    }
    assert.deepEqual(metadataHints(parseScriptTag(encodeAmf0('onCuePoint', meta))), {});
  });
});

describe('E-FLV fixtures (AV1 + Opus)', { skip: existsSync(FIXTURES) ? false : `${FIXTURES} is absent` }, () => {
  for (const [name, width, height, frames, packets] of [
    ['testsrc', 980, 540, 300, 501],
    ['mptestsrc', 512, 512, 342, 501],
    ['bbb', 960, 540, 897, 1501],
  ] as const) {
    it(`parses every tag of ${name}.flv`, () => {
      const tags = readFlvTags(readFileSync(`${FIXTURES}/${name}.flv`));
      let videoFrames = 0;
      let audioFrames = 0;
      let keys = 0;
      let av1Config: Uint8Array | undefined;
      let opusHead: Uint8Array | undefined;
      let hints = {};
      for (const tag of tags) {
        if (tag.type === FlvTagType.script) {
          hints = metadataHints(parseScriptTag(tag.data));
          continue;
        }
        const packet = parseMediaTag(tag.type, tag.data, tag.timestampMs);
        assert.ok(packet);
        if (packet.kind === 'video' && packet.packetType === 'frame') {
          videoFrames++;
          keys += packet.key ? 1 : 0;
          assert.equal(packet.codec, 'av1');
        } else if (packet.kind === 'audio' && packet.packetType === 'frame') {
          audioFrames++;
          assert.equal(packet.codec, 'opus');
        } else if (packet.kind === 'video' && packet.packetType === 'config' && packet.data.byteLength > 0) {
          av1Config = packet.data;
        } else if (packet.kind === 'audio' && packet.packetType === 'config') {
          opusHead = packet.data;
        }
      }
      assert.deepEqual(
        [Reflect.get(hints, 'width'), Reflect.get(hints, 'height'), Reflect.get(hints, 'framerate')],
        [width, height, 30],
      );
      assert.equal(av1Config?.[0], 0x81, 'av1C marker and version');
      assert.equal(
        Buffer.from(opusHead ?? [])
          .subarray(0, 8)
          .toString(),
        'OpusHead',
      );
      assert.equal(videoFrames, frames);
      assert.equal(audioFrames, packets);
      assert.ok(keys >= 1);
    });
  }
});
