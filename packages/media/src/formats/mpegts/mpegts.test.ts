/** MPEG-TS segments built from real encoder output must decode in ffprobe/ffmpeg with the source timestamps. */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { concatBytes } from '../../bits/bytes.js';
import { adtsHeader, buildAudioSpecificConfig, parseAudioSpecificConfig } from '../../codecs/aac.js';
import { ParseError, UnsupportedError } from '../../errors.js';
import type { MediaUnit } from '../../stream/media-unit.js';
import type { Track } from '../../stream/track.js';
import { type EncodedMedia, encodeTestMedia, ffmpegSkip, ffprobeJson, run } from '../../testing/ffmpeg-media.js';
import { suiteTempDir } from '../../testing/temp-dir.js';
import { lavfiInputs } from '../../testing/test-source.js';
import { TS_PACKET_SIZE } from './packet-writer.js';
import { TsMuxer } from './ts-muxer.js';

const skip = ffmpegSkip();
const tmp = suiteTempDir('airwave-mpegts-');

const cases = [
  {
    name: 'H.264 with B-frames + AAC',
    codecs: ['h264', 'aac'],
    width: 640,
    height: 360,
    args: [
      ...lavfiInputs('640x360', 48_000),
      '-t',
      '2',
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-bf',
      '2',
      '-g',
      '30',
      '-c:a',
      'aac',
    ],
  },
  {
    name: 'H.265 with B-frames + Opus',
    codecs: ['hevc', 'opus'],
    width: 320,
    height: 240,
    args: [
      ...lavfiInputs('320x240', 48_000),
      '-t',
      '1',
      '-c:v',
      'libx265',
      '-x265-params',
      'log-level=error',
      '-bf',
      '2',
      '-g',
      '15',
      '-c:a',
      'libopus',
    ],
  },
  {
    name: 'AAC only (PCR on the audio PID)',
    codecs: ['aac'],
    width: 0,
    height: 0,
    args: ['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100', '-t', '1', '-c:a', 'aac'],
  },
] as const;

/** Segments starting at each video keyframe (every 20 units without video), each opened by writeTables(). */
function segments(media: EncodedMedia): Uint8Array[] {
  const muxer = new TsMuxer(media.tracks);
  const video = media.tracks.find((track: Track) => track.kind === 'video');
  const out: Uint8Array[] = [];
  media.units.forEach((unit: MediaUnit, index) => {
    const starts = video ? unit.trackId === video.id && unit.key : index % 20 === 0;
    if (starts) {
      if (index > 0) {
        out.push(muxer.take());
      }
      muxer.writeTables();
    }
    muxer.writeUnit(unit);
  });
  out.push(muxer.take());
  return out;
}

interface ProbedStream {
  codec_name: string;
  codec_type: string;
  width?: number;
  height?: number;
  nb_read_frames?: string;
}

for (const c of cases) {
  describe(`MPEG-TS ${c.name}`, { skip }, () => {
    let media: EncodedMedia;
    const source = (): EncodedMedia => {
      media ??= encodeTestMedia(tmp.path, c.args);
      return media;
    };

    it('concatenated segments decode with the source codecs, size, frame counts and no errors', () => {
      const { tracks, units } = source();
      const parts = segments(source());
      for (const part of parts) {
        assert.equal(part.length % TS_PACKET_SIZE, 0);
        assert.equal(part[0], 0x47);
        assert.equal(((part[1] ?? 0) & 0x1f) * 256 + (part[2] ?? 0), 0, 'every segment starts with the PAT');
      }
      const file = join(tmp.path, `${c.name.replaceAll(/\W+/g, '-')}.ts`);
      writeFileSync(file, concatBytes(parts));

      const probe = run('ffprobe', ['-v', 'error', '-count_frames', '-show_streams', '-of', 'json', file]);
      assert.equal(probe.stderr, '');
      const streams = (JSON.parse(probe.stdout) as { streams: ProbedStream[] }).streams;
      assert.deepEqual(
        streams.map((stream) => stream.codec_name),
        [...c.codecs],
      );
      tracks.forEach((track, index) => {
        const stream = streams[index];
        assert.equal(
          Number(stream?.nb_read_frames),
          units.filter((unit) => unit.trackId === track.id).length,
          `frames of ${stream?.codec_name}`,
        );
        if (track.kind === 'video') {
          assert.equal(stream?.width, c.width);
          assert.equal(stream?.height, c.height);
        }
      });
      assert.equal(run('ffmpeg', ['-v', 'error', '-i', file, '-f', 'null', '-']).stderr, '');
    });

    it('keeps the source timestamps: packets in dts order, decoded frames in pts order', () => {
      const { tracks, units } = source();
      const file = join(tmp.path, `${c.name.replaceAll(/\W+/g, '-')}-ts.ts`);
      writeFileSync(file, concatBytes(segments(source())));
      tracks.forEach((track, index) => {
        const trackUnits = units.filter((unit) => unit.trackId === track.id);
        const to90k = (value: number): number => Math.round((value * 90_000) / track.timescale);
        const select = ['-select_streams', String(index)];
        const packets = (ffprobeJson([...select, '-show_entries', 'packet=pts,dts', '-show_packets', file]).packets ??
          []) as { pts: number; dts: number }[];
        assert.deepEqual(
          packets.map((packet) => [packet.dts, packet.pts]),
          trackUnits.map((unit) => [to90k(unit.dts), to90k(unit.pts)]),
        );
        if (track.kind === 'video') {
          const frames = (ffprobeJson([...select, '-show_entries', 'frame=pts', '-show_frames', file]).frames ??
            []) as { pts: number }[];
          assert.deepEqual(
            frames.map((frame) => frame.pts),
            trackUnits.map((unit) => unit.pts).sort((a, b) => a - b),
          );
        }
      });
    });

    it('a single later segment decodes on its own', () => {
      const parts = segments(source());
      const file = join(tmp.path, `${c.name.replaceAll(/\W+/g, '-')}-last.ts`);
      writeFileSync(file, parts[parts.length - 1] ?? new Uint8Array(0));
      assert.equal(run('ffmpeg', ['-v', 'error', '-i', file, '-f', 'null', '-']).stderr, '');
    });
  });
}

describe('TsMuxer', () => {
  it('refuses AV1 and VP9 tracks with an UnsupportedError naming what works', () => {
    for (const codec of ['av1', 'vp9'] as const) {
      assert.throws(
        () =>
          new TsMuxer([
            {
              kind: 'video',
              id: 1,
              codec,
              timescale: 90_000,
              config: new Uint8Array(4),
              codecString: codec,
              width: 16,
              height: 16,
            },
          ]),
        (error: unknown) => error instanceof UnsupportedError && /H\.264, H\.265, AAC and Opus/.test(error.message),
      );
    }
  });

  it('refuses at construction an AAC configuration ADTS cannot carry', () => {
    const config = buildAudioSpecificConfig({ objectType: 2, sampleRate: 50_000, channels: 2 });
    assert.throws(
      () =>
        new TsMuxer([
          {
            kind: 'audio',
            id: 1,
            codec: 'aac',
            timescale: 50_000,
            config,
            codecString: 'mp4a.40.2',
            sampleRate: 50_000,
            channels: 2,
          },
        ]),
      UnsupportedError,
    );
  });

  it('writes the ADTS header adtsHeader() builds for every frame length, and refuses frames ADTS cannot carry', () => {
    const config = buildAudioSpecificConfig({ objectType: 2, sampleRate: 44_100, channels: 2 });
    const muxer = new TsMuxer([aacTrack(config)]);
    for (const length of [0, 1, 7, 255, 256, 1024, 2047, 2048, 8184]) {
      muxer.writeUnit({ trackId: 1, dts: 0, pts: 0, key: true, data: new Uint8Array(length).fill(0xaa) });
      const payload = pesPayload(muxer.take());
      assert.deepEqual([...payload.subarray(0, 7)], [...adtsHeader(parseAudioSpecificConfig(config), length)]);
      assert.equal(payload.length, 7 + length);
    }
    assert.throws(
      () => muxer.writeUnit({ trackId: 1, dts: 0, pts: 0, key: true, data: new Uint8Array(8185) }),
      UnsupportedError,
    );
    assert.equal(muxer.size, 0, 'a refused unit writes nothing');
  });

  it('leaves no trace of a malformed video unit and writes the next one whole', () => {
    const muxer = new TsMuxer([videoTrack()]);
    const good = Uint8Array.of(0, 0, 0, 3, 0x41, 0x9a, 0x02);
    for (const bad of [
      Uint8Array.of(0, 0, 0, 9, 0x41),
      Uint8Array.of(0, 0, 0, 0),
      Uint8Array.of(0, 0, 0, 3, 0x41, 1, 2, 0),
    ]) {
      assert.throws(() => muxer.writeUnit({ trackId: 1, dts: 0, pts: 0, key: false, data: bad }), ParseError);
    }
    assert.equal(muxer.size, 0);
    muxer.writeUnit({ trackId: 1, dts: 0, pts: 0, key: false, data: good });
    const packets = muxer.take();
    assert.equal(packets[3], 0x30, 'continuity counter 0: nothing was counted for the refused units');
    assert.deepEqual([...pesPayload(packets)], [0, 0, 0, 1, 0x09, 0xf0, 0, 0, 0, 1, 0x41, 0x9a, 0x02]);
  });

  it('refuses units of tracks it was not created with', () => {
    const muxer = new TsMuxer([
      {
        kind: 'audio',
        id: 1,
        codec: 'aac',
        timescale: 44_100,
        config: buildAudioSpecificConfig({ objectType: 2, sampleRate: 44_100, channels: 2 }),
        codecString: 'mp4a.40.2',
        sampleRate: 44_100,
        channels: 2,
      },
    ]);
    assert.throws(
      () => muxer.writeUnit({ trackId: 2, dts: 0, pts: 0, key: true, data: new Uint8Array(4) }),
      RangeError,
    );
  });
});

function aacTrack(config: Uint8Array): Track {
  return {
    kind: 'audio',
    id: 1,
    codec: 'aac',
    timescale: 44_100,
    config,
    codecString: 'mp4a.40.2',
    sampleRate: 44_100,
    channels: 2,
  };
}

/** An H.264 track with a minimal avcC (one SPS, one PPS). */
function videoTrack(): Track {
  const sps = [0x67, 0x42, 0xc0, 0x1e, 0xd9];
  const pps = [0x68, 0xce, 0x3c, 0x80];
  return {
    kind: 'video',
    id: 1,
    codec: 'h264',
    timescale: 90_000,
    config: Uint8Array.of(1, 0x42, 0xc0, 0x1e, 0xff, 0xe1, 0, sps.length, ...sps, 1, 0, pps.length, ...pps),
    codecString: 'avc1.42c01e',
    width: 16,
    height: 16,
  };
}

/** The payload of the one PES packet in `packets` (its header skipped). */
function pesPayload(packets: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [];
  for (let at = 0; at < packets.length; at += TS_PACKET_SIZE) {
    const packet = packets.subarray(at, at + TS_PACKET_SIZE);
    const control = ((packet[3] ?? 0) >> 4) & 3;
    parts.push(packet.subarray(control === 3 ? 5 + (packet[4] ?? 0) : 4));
  }
  const pes = concatBytes(parts);
  return pes.subarray(9 + (pes[8] ?? 0));
}
