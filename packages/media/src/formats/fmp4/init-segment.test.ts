/** Structure of init segments (ISO/IEC 14496-12 §8, ISO/IEC 23000-19 §7.3.2.1). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildAudioSpecificConfig } from '../../codecs/aac.js';
import { buildOpusHead } from '../../codecs/opus.js';
import { buildVpcC } from '../../codecs/vp9.js';
import type { AudioTrack, VideoTrack } from '../../stream/track.js';
import { findBox, findBoxes, readBoxes, viewOf } from '../../testing/iso-boxes.js';
import { buildInitSegment } from './init-segment.js';

const avcC = Uint8Array.of(1, 0x64, 0, 0x1f, 0xff, 0xe0, 0);
const video: VideoTrack = {
  kind: 'video',
  id: 1,
  codec: 'h264',
  timescale: 90_000,
  config: avcC,
  codecString: 'avc1.64001f',
  width: 1280,
  height: 720,
};
const aac: AudioTrack = {
  kind: 'audio',
  id: 2,
  codec: 'aac',
  timescale: 44_100,
  config: buildAudioSpecificConfig({ objectType: 2, sampleRate: 44_100, channels: 2 }),
  codecString: 'mp4a.40.2',
  sampleRate: 44_100,
  channels: 2,
};
const fourcc = (data: Uint8Array, at: number): string => String.fromCharCode(...data.subarray(at, at + 4));

describe('buildInitSegment', () => {
  const init = buildInitSegment([video, aac]);

  it('writes ftyp with the CMAF brands, then moov with mvhd, one trak per track and mvex', () => {
    assert.deepEqual(
      readBoxes(init).map((box) => box.type),
      ['ftyp', 'moov'],
    );
    const ftyp = findBox(init, 'ftyp').payload;
    assert.deepEqual(
      [0, 8, 12, 16, 20].map((at) => fourcc(ftyp, at)),
      ['iso6', 'iso6', 'cmfc', 'mp41', 'dash'],
    );
    assert.deepEqual(
      readBoxes(findBox(init, 'moov').payload).map((box) => box.type),
      ['mvhd', 'trak', 'trak', 'mvex'],
    );
    assert.equal(viewOf(findBox(init, 'moov/mvhd')).getUint32(96), 3, 'next_track_ID');
    assert.deepEqual(
      findBoxes(init, 'moov/mvex/trex').map((box) => viewOf(box).getUint32(4)),
      [1, 2],
    );
  });

  it('describes each track: ids, timescales, handlers, dimensions, empty sample tables', () => {
    const tkhds = findBoxes(init, 'moov/trak/tkhd').map(viewOf);
    assert.deepEqual(
      tkhds.map((tkhd) => [tkhd.getUint32(12), tkhd.getUint32(76) / 65536, tkhd.getUint32(80) / 65536]),
      [
        [1, 1280, 720],
        [2, 0, 0],
      ],
    );
    assert.deepEqual(
      findBoxes(init, 'moov/trak/mdia/mdhd').map((box) => viewOf(box).getUint32(12)),
      [90_000, 44_100],
    );
    assert.deepEqual(
      findBoxes(init, 'moov/trak/mdia/hdlr').map((box) => fourcc(box.payload, 8)),
      ['vide', 'soun'],
    );
    for (const table of ['stts', 'stsc', 'stco']) {
      for (const box of findBoxes(init, `moov/trak/mdia/minf/stbl/${table}`)) {
        assert.equal(viewOf(box).getUint32(4), 0, `${table} is empty`);
      }
    }
  });

  it('writes avc1 with the avcC record and mp4a with an esds carrying the AudioSpecificConfig', () => {
    const [videoStsd, audioStsd] = findBoxes(init, 'moov/trak/mdia/minf/stbl/stsd');
    assert.ok(videoStsd && audioStsd);
    const avc1 = readBoxes(videoStsd.payload.subarray(8))[0];
    assert.equal(avc1?.type, 'avc1');
    const avc1View = viewOf(avc1 ?? videoStsd);
    assert.deepEqual([avc1View.getUint16(24), avc1View.getUint16(26)], [1280, 720]);
    const avcCBox = readBoxes(avc1?.payload.subarray(78) ?? new Uint8Array(0))[0];
    assert.equal(avcCBox?.type, 'avcC');
    assert.deepEqual([...(avcCBox?.payload ?? [])], [...avcC]);

    const mp4a = readBoxes(audioStsd.payload.subarray(8))[0];
    assert.equal(mp4a?.type, 'mp4a');
    const mp4aView = viewOf(mp4a ?? audioStsd);
    assert.deepEqual([mp4aView.getUint16(16), mp4aView.getUint32(24) / 65536], [2, 44_100]);
    const esds = readBoxes(mp4a?.payload.subarray(28) ?? new Uint8Array(0))[0];
    assert.equal(esds?.type, 'esds');
    const payload = esds?.payload ?? new Uint8Array(0);
    const dsi = payload.indexOf(0x05, 4 + 2 + 3 + 2 + 13);
    assert.deepEqual([...payload.subarray(dsi + 2, dsi + 2 + aac.config.length)], [...aac.config]);
    assert.equal(payload[dsi + 1], aac.config.length);
  });

  it('writes Opus + dOps with big-endian fields and vp09 + vpcC version 1', () => {
    const opus: AudioTrack = {
      ...aac,
      codec: 'opus',
      timescale: 48_000,
      sampleRate: 48_000,
      config: buildOpusHead({ channels: 2, preSkip: 312, inputSampleRate: 44_100 }),
    };
    const vp9: VideoTrack = { ...video, codec: 'vp9', config: buildVpcC({ profile: 0, level: 31, bitDepth: 8 }) };
    const single = buildInitSegment([opus]);
    assert.equal(findBoxes(single, 'moov/trak').length, 1);
    const entry = readBoxes(findBox(single, 'moov/trak/mdia/minf/stbl/stsd').payload.subarray(8))[0];
    assert.equal(entry?.type, 'Opus');
    const dOps = readBoxes(entry?.payload.subarray(28) ?? new Uint8Array(0))[0];
    assert.equal(dOps?.type, 'dOps');
    assert.deepEqual([...(dOps?.payload ?? [])], [0, 2, 0x01, 0x38, 0, 0, 0xac, 0x44, 0, 0, 0]);

    const vp = buildInitSegment([vp9]);
    const vp09 = readBoxes(findBox(vp, 'moov/trak/mdia/minf/stbl/stsd').payload.subarray(8))[0];
    assert.equal(vp09?.type, 'vp09');
    const vpcC = readBoxes(vp09?.payload.subarray(78) ?? new Uint8Array(0))[0];
    assert.equal(vpcC?.type, 'vpcC');
    assert.deepEqual([...(vpcC?.payload.subarray(0, 6) ?? [])], [1, 0, 0, 0, 0, 31]);
  });

  it('rejects an empty track list, duplicate ids and dimensions that do not fit', () => {
    assert.throws(() => buildInitSegment([]), RangeError);
    assert.throws(() => buildInitSegment([video, { ...aac, id: 1 }]), RangeError);
    assert.throws(() => buildInitSegment([{ ...video, width: 70_000 }]), RangeError);
  });
});
