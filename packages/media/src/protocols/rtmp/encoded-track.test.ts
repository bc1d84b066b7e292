/**
 * Encoder output → E-RTMP v2 tags: real ffmpeg H.264/H.265 Annex B, AAC ADTS and VP9 IVF wrapped
 * by the converters parse back through parseMediaTag as avc1/hvc1/mp4a/vp09 with the same frames.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseAudioSpecificConfig } from '../../codecs/aac.js';
import { describeAvcC } from '../../codecs/h264.js';
import { describeHvcC } from '../../codecs/h265.js';
import { splitAnnexB, splitLengthPrefixed } from '../../codecs/nal.js';
import { ffmpeg } from '../../codecs/test-support.js';
import { describeVpcC, vp9LevelFor } from '../../codecs/vp9.js';
import { decodeAmf0 } from '../../formats/amf0/amf0-decode.js';
import { parseMediaTag } from '../../formats/flv/flv-media.js';
import type { FlvPacket } from '../../formats/flv/flv-packet.js';
import { FlvTagType } from '../../formats/flv/flv-tag.js';
import { adtsToTrack } from './adts-to-flv.js';
import { h264AnnexBToTrack, h265AnnexBToTrack } from './annexb-to-flv.js';
import { type EncodedTrack, toFlvTags } from './encoded-track.js';
import { vp9IvfToTrack } from './ivf-to-flv.js';

const LAVFI = ['-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=30', '-t', '1'];
const ffmpegMissing = (() => {
  try {
    ffmpeg(['-f', 'lavfi', '-i', 'nullsrc=size=16x16', '-frames:v', '1', '-f', 'null', '-']);
    return false;
  } catch {
    return 'ffmpeg is missing';
  }
})();

function packets(track: EncodedTrack): FlvPacket[] {
  return track.tags.map((tag) => {
    const packet = parseMediaTag(tag.type, tag.data, tag.timestampMs);
    assert.ok(packet, 'a media tag');
    return packet;
  });
}

/** The E-RTMP header bytes of a tag body: IsExHeader, then PacketType and FourCC. */
function exHeader(body: Uint8Array): { ex: boolean; packetType: number; fourCc: string } {
  const first = body[0] ?? 0;
  return { ex: (first & 0x80) !== 0, packetType: first & 0x0f, fourCc: String.fromCharCode(...body.subarray(1, 5)) };
}

describe('encoder output as E-RTMP tags', { skip: ffmpegMissing }, () => {
  it('H.264 Annex B (no B-frames) → avc1 SequenceStart + CodedFramesX, one per picture, IDR every 10', () => {
    const annexB = ffmpeg([
      ...LAVFI,
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-bf',
      '0',
      '-g',
      '10',
      '-f',
      'h264',
      '-',
    ]);
    const track = h264AnnexBToTrack(annexB, 30);
    const [config, ...frames] = packets(track);
    assert.ok(config);
    assert.equal(`${config.codec} ${config.packetType}`, 'h264 config');
    const description = describeAvcC(config.data);
    assert.equal(`${description.width}x${description.height}`, '320x240');
    assert.deepEqual(exHeader(track.tags[0]?.data ?? new Uint8Array()), { ex: true, packetType: 0, fourCc: 'avc1' });
    assert.equal(frames.length, 30);
    frames.forEach((frame, index) => {
      assert.equal(
        `${frame.codec} ${frame.packetType} ${frame.key}`,
        `h264 frame ${index % 10 === 0}`,
        `frame ${index}`,
      );
      assert.equal(frame.timestampMs, Math.round((index * 1000) / 30));
      assert.equal(frame.compositionOffsetMs, 0);
      assert.deepEqual(exHeader(track.tags[index + 1]?.data ?? new Uint8Array()), {
        ex: true,
        packetType: 3,
        fourCc: 'avc1',
      });
    });
    const sliceCount = splitAnnexB(annexB).filter((nal) => [1, 5].includes((nal[0] ?? 0) & 0x1f)).length;
    const sent = frames
      .flatMap((frame) => splitLengthPrefixed(frame.data))
      .filter((nal) => [1, 5].includes((nal[0] ?? 0) & 0x1f));
    assert.equal(sent.length, sliceCount, 'every slice is sent once');
    assert.equal(track.metadata.videocodecid, 0x61766331);
  });

  it('H.265 Annex B → hvc1 SequenceStart + one frame per picture', () => {
    const annexB = ffmpeg([
      ...LAVFI,
      ...[
        '-c:v',
        'libx265',
        '-preset',
        'ultrafast',
        '-bf',
        '0',
        '-x265-params',
        'keyint=15:log-level=error',
        '-f',
        'hevc',
        '-',
      ],
    ]);
    const [config, ...frames] = packets(h265AnnexBToTrack(annexB, 30));
    assert.ok(config);
    const description = describeHvcC(config.data);
    assert.equal(`${config.codec} ${description.width}x${description.height}`, 'h265 320x240');
    assert.equal(frames.length, 30);
    assert.deepEqual(
      frames.flatMap((frame, index) => (frame.key ? [index] : [])),
      [0, 15],
    );
  });

  it('AAC ADTS → mp4a ExAudioTagHeader SequenceStart (AudioSpecificConfig) + CodedFrames at 1024-sample steps', () => {
    const adts = ffmpeg([
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100', '-t', '1'],
      ...['-c:a', 'aac', '-ac', '2', '-f', 'adts', '-'],
    ]);
    const track = adtsToTrack(adts);
    const [config, ...frames] = packets(track);
    assert.ok(config);
    assert.equal(`${config.codec} ${config.packetType}`, 'aac config');
    const asc = parseAudioSpecificConfig(config.data);
    assert.equal(`${asc.objectType} ${asc.sampleRate} ${asc.channels}`, '2 44100 2');
    assert.deepEqual(exHeader(track.tags[0]?.data ?? new Uint8Array()), { ex: true, packetType: 0, fourCc: 'mp4a' });
    assert.ok(frames.length >= 43, `${frames.length} frames for one second`);
    frames.forEach((frame, index) => {
      assert.equal(`${frame.codec} ${frame.packetType}`, 'aac frame');
      assert.equal(frame.timestampMs, Math.round((index * 1024 * 1000) / 44100));
      assert.equal(((track.tags[index + 1]?.data[0] ?? 0) >> 4) & 0x0f, 9, 'SoundFormat 9 (ExHeader)');
    });
  });

  it('VP9 IVF → vp09 SequenceStart (vpcC from the key frame) + CodedFrames with key flags from the frame header', () => {
    const ivf = ffmpeg([
      ...LAVFI,
      '-c:v',
      'libvpx-vp9',
      '-deadline',
      'realtime',
      '-cpu-used',
      '8',
      '-g',
      '10',
      '-f',
      'ivf',
      '-',
    ]);
    const track = vp9IvfToTrack(ivf);
    const [config, ...frames] = packets(track);
    assert.ok(config && frames[0]);
    const description = describeVpcC(config.data, frames[0].data);
    assert.equal(
      `${config.codec} ${config.packetType} ${description.width}x${description.height} ${description.codecString}`,
      'vp9 config 320x240 vp09.00.20.08',
    );
    assert.equal(frames.length, 30);
    assert.deepEqual(
      frames.flatMap((frame, index) => (frame.key ? [index] : [])),
      [0, 10, 20],
    );
    assert.deepEqual(
      frames.map((frame) => frame.timestampMs),
      frames.map((_, index) => Math.round((index * 1000) / 30)),
    );
    assert.deepEqual(exHeader(track.tags[1]?.data ?? new Uint8Array()), { ex: true, packetType: 1, fourCc: 'vp09' });
  });

  it('toFlvTags: onMetaData first, then both tracks merged by timestamp with each sequence start first', () => {
    const video = h264AnnexBToTrack(ffmpeg([...LAVFI, '-c:v', 'libx264', '-bf', '0', '-f', 'h264', '-']), 30);
    const audio = adtsToTrack(
      ffmpeg(['-f', 'lavfi', '-i', 'sine=sample_rate=48000', '-t', '1', '-c:a', 'aac', '-f', 'adts', '-']),
    );
    const tags = toFlvTags([video, audio]);
    const [script, ...media] = tags;
    assert.equal(script?.type, FlvTagType.script);
    const [name, metadata] = decodeAmf0(script?.data ?? new Uint8Array());
    assert.equal(name, 'onMetaData');
    assert.ok(metadata && typeof metadata === 'object');
    assert.equal(media.length, video.tags.length + audio.tags.length);
    assert.deepEqual(
      media.slice(0, 2).map((tag) => parseMediaTag(tag.type, tag.data, 0)?.packetType),
      ['config', 'config'],
    );
    for (let i = 1; i < media.length; i++) {
      assert.ok((media[i]?.timestampMs ?? 0) >= (media[i - 1]?.timestampMs ?? 0), `tag ${i} in timestamp order`);
    }
  });

  it('bad input is refused with a clear error', () => {
    assert.throws(() => h264AnnexBToTrack(new Uint8Array([0, 0, 0, 1, 0x65, 0x88]), 30), /no SPS\/PPS/);
    assert.throws(() => h264AnnexBToTrack(new Uint8Array(0), 0), /frame rate 0/);
    assert.throws(() => adtsToTrack(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])), /ADTS sync word/);
    assert.throws(() => vp9IvfToTrack(new Uint8Array(40)), /DKIF/);
  });

  it('vp9LevelFor picks the lowest level whose picture size and sample rate fit', () => {
    assert.equal(vp9LevelFor(320, 240, 30), 20);
    assert.equal(vp9LevelFor(640, 360, 30), 21);
    assert.equal(vp9LevelFor(1280, 720, 30), 31);
    assert.equal(vp9LevelFor(1920, 1080, 60), 41);
    assert.equal(vp9LevelFor(7680, 4320, 120), 62);
  });
});
