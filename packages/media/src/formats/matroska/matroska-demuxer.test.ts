/**
 * The Matroska demuxer on what ffmpeg writes: a live WebM (VP9 + Opus, unknown-size Segment and
 * Clusters) and an AV1 + Opus WebM, fed whole and in small chunks; tracks, key frames, frame
 * counts (ffprobe's) and timestamps come out as the file has them.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ParseError } from '../../errors.js';
import type { MediaUnit } from '../../stream/media-unit.js';
import type { StreamDescription } from '../../stream/track.js';
import { ffmpegSkip, ffprobeJson, run } from '../../testing/ffmpeg-media.js';
import { suiteTempDir } from '../../testing/temp-dir.js';
import { lavfiInputs } from '../../testing/test-source.js';
import { MatroskaDemuxer } from './matroska-demuxer.js';

function demux(bytes: Uint8Array, chunk: number): { descriptions: StreamDescription[]; units: MediaUnit[] } {
  const descriptions: StreamDescription[] = [];
  const units: MediaUnit[] = [];
  const demuxer = new MatroskaDemuxer({ setDescription: (d) => descriptions.push(d), write: (u) => units.push(u) });
  for (let at = 0; at < bytes.byteLength; at += chunk) {
    demuxer.push(bytes.subarray(at, at + chunk));
  }
  return { descriptions, units };
}

describe('Matroska demuxer', { skip: ffmpegSkip() }, () => {
  const dir = suiteTempDir('airwave-mkv-');

  function encode(name: string, video: readonly string[]): { bytes: Uint8Array; frames: number; audioPackets: number } {
    const file = join(dir.path, name);
    run('ffmpeg', [
      ...['-v', 'error', '-y', ...lavfiInputs('320x180', 48_000)],
      ...[
        '-t',
        '2',
        ...video,
        '-g',
        '30',
        '-c:a',
        'libopus',
        '-f',
        'webm',
        '-live',
        '1',
        '-cluster_time_limit',
        '100',
        file,
      ],
    ]);
    const packets = (ffprobeJson(['-show_entries', 'packet=codec_type', file]).packets ?? []) as {
      codec_type: string;
    }[];
    return {
      bytes: readFileSync(file),
      frames: packets.filter((packet) => packet.codec_type === 'video').length,
      audioPackets: packets.filter((packet) => packet.codec_type === 'audio').length,
    };
  }

  it('reads VP9 + Opus from a live WebM, whole and in 7-byte chunks', () => {
    const source = encode('vp9.webm', ['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8']);
    for (const chunk of [source.bytes.byteLength, 7]) {
      const { descriptions, units } = demux(source.bytes, chunk);
      assert.equal(descriptions.length, 1);
      const [video, audio] = descriptions[0]?.tracks ?? [];
      assert.equal(video?.codec, 'vp9');
      assert.match(video?.codecString ?? '', /^vp09\.00\.\d\d\.08/);
      assert.equal(video?.kind === 'video' && video.width, 320);
      assert.equal(audio?.codec, 'opus');
      const videoUnits = units.filter((unit) => unit.trackId === 1);
      assert.equal(videoUnits.length, source.frames, 'every VP9 frame');
      assert.equal(videoUnits[0]?.key, true);
      assert.equal(videoUnits.filter((unit) => unit.key).length, 2, 'a key frame every 30 frames');
      assert.ok(videoUnits.every((unit, i) => i === 0 || unit.dts > (videoUnits[i - 1] as MediaUnit).dts));
      const audioUnits = units.filter((unit) => unit.trackId === 2);
      assert.equal(audioUnits.length, source.audioPackets, 'every Opus packet');
      assert.ok(
        audioUnits.slice(1).every((unit, i) => unit.dts - (audioUnits[i] as MediaUnit).dts === 960),
        '20 ms steps',
      );
    }
  });

  it('reads AV1 with its av1C', () => {
    const source = encode('av1.webm', ['-c:v', 'libsvtav1', '-preset', '12']);
    const { descriptions, units } = demux(source.bytes, 4096);
    const video = descriptions[0]?.tracks[0];
    assert.equal(video?.codec, 'av1');
    assert.match(video?.codecString ?? '', /^av01\.0\./);
    assert.equal(units.filter((unit) => unit.trackId === 1).length, source.frames);
  });

  it('refuses a stream without a carried track and unknown-size leaves', () => {
    const h264 = join(dir.path, 'h264.mkv');
    run('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=160x90:rate=10',
      '-t',
      '1',
      '-c:v',
      'libx264',
      h264,
    ]);
    const unsupported: string[] = [];
    const demuxer = new MatroskaDemuxer({
      setDescription() {},
      write() {},
      unsupported: (_n, reason) => unsupported.push(reason),
    });
    assert.throws(() => demuxer.push(readFileSync(h264)), ParseError);
    assert.match(unsupported[0] ?? '', /V_MPEG4\/ISO\/AVC is not carried/);
    assert.throws(
      () => new MatroskaDemuxer({ setDescription() {}, write() {} }).push(Uint8Array.of(0x86, 0xff)),
      /unknown size/,
    );
  });
});
