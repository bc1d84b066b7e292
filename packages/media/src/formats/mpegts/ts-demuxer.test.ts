/** The MPEG-TS demuxer against the muxer's own programs (no tools needed) and against ffmpeg-made streams. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseAdtsFrames } from '../../codecs/aac.js';
import { fixture } from '../../codecs/fixtures.js';
import { splitLengthPrefixed, toLengthPrefixed } from '../../codecs/nal.js';
import type { MediaUnit } from '../../stream/media-unit.js';
import type { StreamDescription, Track } from '../../stream/track.js';
import { ffmpegSkip, ffprobeJson, run } from '../../testing/ffmpeg-media.js';
import { trackWithConfig } from '../../testing/synthetic-av.js';
import { suiteTempDir } from '../../testing/temp-dir.js';
import { adtsHeaderFor, transportStream, withStreamType } from '../../testing/ts-streams.js';
import { TS_PACKET_SIZE } from './packet-writer.js';
import { PROGRAM_START } from './program-clock.js';
import { h264AacOpusProgram, h265Program, latmProgram } from './ts-demuxer.fuzz.js';
import { TsDemuxer, type TsDemuxerOptions } from './ts-demuxer.js';
import { TsMuxer } from './ts-muxer.js';

/** Everything a demuxer delivered. */
interface Demuxed {
  readonly descriptions: StreamDescription[];
  readonly units: MediaUnit[];
  readonly unsupported: string[];
  readonly demuxer: TsDemuxer;
}

function demux(chunks: readonly Uint8Array[], options?: TsDemuxerOptions): Demuxed {
  const result: Demuxed = {
    descriptions: [],
    units: [],
    unsupported: [],
    demuxer: undefined as unknown as TsDemuxer,
  };
  const demuxer = new TsDemuxer(
    {
      setDescription: (description) => result.descriptions.push(description),
      write: (unit) => result.units.push(unit),
      unsupported: (pid, reason) => result.unsupported.push(`${pid}: ${reason}`),
    },
    options,
  );
  for (const chunk of chunks) {
    demuxer.push(chunk);
  }
  demuxer.end();
  return { ...result, demuxer };
}

function unitsOf(result: Demuxed, trackId: number): MediaUnit[] {
  return result.units.filter((unit) => unit.trackId === trackId);
}

/** Splits `bytes` into chunks of pseudo-random sizes 1..max. */
function chunked(bytes: Uint8Array, max: number, seed: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  let state = seed;
  for (let at = 0; at < bytes.length; ) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const size = 1 + (state % max);
    out.push(bytes.slice(at, at + size));
    at += size;
  }
  return out;
}

/** The IDR slice of the fixture access unit, without its SPS and PPS. */
function idrSliceOnly(): Uint8Array {
  return toLengthPrefixed(
    splitLengthPrefixed(fixture('h264KeyAccessUnit')).filter((nal) => (nal[0] as number) % 32 === 5),
  );
}

/** A muxed H.264 stream of `frames` frames (keyframe every 10) from `firstDts`, big enough to span packets. */
function longVideoProgram(frames: number, firstDts = 0): Uint8Array {
  const muxer = new TsMuxer([trackWithConfig('h264', fixture('h264Avcc'))]);
  muxer.writeTables();
  const slice = idrSliceOnly();
  for (let i = 0; i < frames; i++) {
    const filler = new Uint8Array(600).fill(i & 0xff);
    const key = i % 10 === 0;
    const nal = toLengthPrefixed([Uint8Array.of(key ? 0x65 : 0x41, 0x88, ...filler)]);
    const data = key ? Uint8Array.from([...slice, ...nal]) : nal;
    muxer.writeUnit({ trackId: 1, dts: firstDts + i * 3000, pts: firstDts + i * 3000 + 3000, key, data });
  }
  return muxer.take().slice();
}

describe('TsDemuxer on the muxer’s programs', () => {
  it('turns H.264, AAC and Opus back into the tracks and units the muxer was given', () => {
    const result = demux([h264AacOpusProgram()]);
    assert.equal(result.descriptions.length, 1);
    const tracks = result.descriptions[0]?.tracks ?? [];
    assert.deepEqual(
      tracks.map((track: Track) => [track.id, track.codec]),
      [
        [1, 'h264'],
        [2, 'aac'],
        [3, 'opus'],
      ],
    );
    const video = tracks[0];
    assert.ok(video?.kind === 'video');
    assert.equal(video.codecString, 'avc1.64000a');
    assert.deepEqual([video.width, video.height], [64, 64]);
    const audio = tracks[1];
    assert.ok(audio?.kind === 'audio');
    assert.deepEqual([audio.sampleRate, audio.channels, audio.codecString], [48_000, 1, 'mp4a.40.2']);

    const videoUnits = unitsOf(result, 1);
    assert.deepEqual(
      videoUnits.map((unit) => [unit.dts, unit.pts, unit.key]),
      [
        [PROGRAM_START, PROGRAM_START + 3000, true],
        [PROGRAM_START + 3000, PROGRAM_START + 6000, false],
      ],
    );
    assert.deepEqual(videoUnits[0]?.data, idrSliceOnly(), 'parameter sets and the AUD are left out of the unit');
    const adts = parseAdtsFrames(fixture('adts')).frames;
    assert.deepEqual(
      unitsOf(result, 2).map((unit) => [unit.dts, unit.data]),
      [
        [48_000, adts[0]?.payload],
        [49_024, adts[1]?.payload],
      ],
    );
    assert.deepEqual(
      unitsOf(result, 3).map((unit) => [unit.dts, unit.data]),
      [[48_000, fixture('opusPacket')]],
    );
  });

  it('gives the same units however the bytes are chunked', () => {
    const program = Uint8Array.from([...h264AacOpusProgram(), ...longVideoProgram(12)]);
    const whole = demux([program]).units;
    for (const max of [1, 7, 188, 1316, 5000]) {
      assert.deepEqual(demux(chunked(program, max, max)).units, whole, `chunks of up to ${max} bytes`);
    }
  });

  it('keeps timestamps continuous across the 2^33 wrap', () => {
    const result = demux([longVideoProgram(60, 2 ** 33 - 90_000)]);
    const dts = unitsOf(result, 1).map((unit) => unit.dts);
    assert.equal(dts.length, 60);
    assert.deepEqual(
      dts,
      dts.map((_, index) => PROGRAM_START + index * 3000),
    );
  });

  it('counts a continuity error and drops only the PES it broke', () => {
    const program = longVideoProgram(20);
    // Packet 12 lies inside the 4th frame's PES (each frame spans 4 packets after PAT and PMT).
    const lost = Uint8Array.from([
      ...program.subarray(0, 12 * TS_PACKET_SIZE),
      ...program.subarray(13 * TS_PACKET_SIZE),
    ]);
    const result = demux([lost]);
    assert.equal(result.demuxer.stats.continuityErrors, 1);
    assert.equal(result.demuxer.stats.droppedPes, 1);
    assert.equal(unitsOf(result, 1).length, 19);
  });

  it('finds packets again after garbage and counts what it skipped', () => {
    const program = longVideoProgram(10);
    const garbage = new Uint8Array(500).fill(0x11);
    const at = 6 * TS_PACKET_SIZE;
    const result = demux([program.subarray(0, at), garbage, program.subarray(at)]);
    assert.equal(result.demuxer.stats.skippedBytes, 500);
    assert.equal(unitsOf(result, 1).length, 10);
  });

  it('follows a PMT change to another codec on the same PID', () => {
    const result = demux([longVideoProgram(10), h265Program()]);
    assert.deepEqual(
      result.descriptions.map((description) => description.tracks.map((track) => `${track.id}:${track.codec}`)),
      [['1:h264'], ['1:h265']],
    );
    // The H.264 PES open at the change (the last frame) completes; the re-typed PID's counter starts afresh.
    assert.equal(result.demuxer.stats.continuityErrors, 0);
    assert.deepEqual(
      result.units.map((unit) => unit.key),
      [true, ...new Array(9).fill(false), true],
    );
    assert.deepEqual(result.units.at(-1)?.data, fixture('h265KeyAccessUnit'));
  });

  it('leaves AC-3 out with a clear reason and describes the other streams', () => {
    const result = demux([withStreamType(h264AacOpusProgram(), 0x101, 0x81)]);
    assert.equal(result.unsupported.length, 1);
    assert.match(result.unsupported[0] ?? '', /^257: AC-3 audio \(stream_type 0x81\) is not supported/);
    assert.deepEqual(
      result.descriptions.map((description) => description.tracks.map((track) => track.codec)),
      [['h264', 'opus']],
    );
  });

  it('reads AAC in LATM/LOAS', () => {
    const result = demux([latmProgram()]);
    const track = result.descriptions[0]?.tracks[0];
    assert.ok(track?.kind === 'audio');
    assert.deepEqual([track.codecString, track.sampleRate, track.channels], ['mp4a.40.2', 48_000, 2]);
    assert.deepEqual(track.config, Uint8Array.of(0x11, 0x90));
    assert.deepEqual(
      result.units.map((unit) => [unit.dts, unit.data.length]),
      [
        [48_000, 40],
        [49_024, 300],
      ],
    );
  });

  it('reads ADTS frames that continue into the next PES', () => {
    const frame = (fill: number) => Uint8Array.from([...adtsHeaderFor(100), ...new Uint8Array(100).fill(fill)]);
    const joined = Uint8Array.from([...frame(1), ...frame(2), ...frame(3)]);
    const ts = transportStream(
      [{ pid: 0x101, streamType: 0x0f }],
      [
        { pid: 0x101, streamId: 0xc0, pts: 0, payload: joined.subarray(0, 150) },
        { pid: 0x101, streamId: 0xc0, pts: 1920 * 2, payload: joined.subarray(150) },
      ],
    );
    const result = demux([ts]);
    assert.deepEqual(
      result.units.map((unit) => [unit.dts, unit.data[0]]),
      [
        [48_000, 1],
        [49_024, 2],
        [50_048, 3],
      ],
    );
  });

  it('describes the known tracks when a declared stream stays silent, and again when it starts', () => {
    const video = longVideoProgram(90);
    const silentAudio = transportStream(
      [
        { pid: 0x100, streamType: 0x1b },
        { pid: 0x101, streamType: 0x0f },
      ],
      [],
    );
    const audio = transportStream(
      [
        { pid: 0x100, streamType: 0x1b },
        { pid: 0x101, streamType: 0x0f },
      ],
      [
        {
          pid: 0x101,
          streamId: 0xc0,
          pts: 90 * 3000,
          payload: Uint8Array.from([...adtsHeaderFor(10), ...new Uint8Array(10)]),
        },
      ],
    );
    const result = demux([silentAudio, video.subarray(2 * TS_PACKET_SIZE), audio.subarray(2 * TS_PACKET_SIZE)]);
    assert.deepEqual(
      result.descriptions.map((description) => description.tracks.map((track) => track.codec)),
      [['h264'], ['h264', 'aac']],
    );
    assert.equal(unitsOf(result, 1).length, 90, 'video held while waiting is delivered');
    assert.equal(unitsOf(result, 2).length, 1);
  });

  it('counts transport errors and drops what they touch', () => {
    const program = longVideoProgram(5);
    const broken = program.slice();
    // The packet after the third frame's first packet (payload_unit_start_indicator set).
    const starts: number[] = [];
    for (let at = 0; at < program.length; at += TS_PACKET_SIZE) {
      if (((program[at + 1] as number) & 0x40) !== 0) {
        starts.push(at);
      }
    }
    const hit = (starts[4] as number) + TS_PACKET_SIZE;
    broken[hit + 1] = (broken[hit + 1] as number) | 0x80;
    const result = demux([broken]);
    assert.equal(result.demuxer.stats.transportErrors, 1);
    assert.equal(unitsOf(result, 1).length, 4);
  });
});

interface ProbePacket {
  readonly codec_type: string;
  readonly stream_index: number;
  readonly pts: number;
  readonly dts: number;
  readonly flags: string;
}

describe('TsDemuxer on ffmpeg-made transport streams', { skip: ffmpegSkip() }, () => {
  const tmp = suiteTempDir('airwave-ts-demux-');
  const source = [
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=160x120:rate=30',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:sample_rate=48000',
  ];
  const cases = [
    {
      name: 'H.264 with B-frames + AAC',
      codecs: ['h264', 'aac'],
      args: ['-c:v', 'libx264', '-preset', 'ultrafast', '-bf', '2', '-g', '30', '-c:a', 'aac'],
    },
    {
      name: 'H.265 + Opus',
      codecs: ['h265', 'opus'],
      args: ['-c:v', 'libx265', '-x265-params', 'log-level=error', '-g', '30', '-c:a', 'libopus'],
    },
    {
      name: 'H.264 + AAC in LATM',
      codecs: ['h264', 'aac'],
      args: ['-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-mpegts_flags', 'latm'],
    },
    {
      name: 'H.264 + AAC across the 2^33 wrap',
      codecs: ['h264', 'aac'],
      args: ['-c:v', 'libx264', '-preset', 'ultrafast', '-bf', '2', '-c:a', 'aac', '-output_ts_offset', '95442'],
    },
  ] as const;

  for (const each of cases) {
    it(`${each.name}: every packet ffprobe sees, with its timestamps and key flag`, () => {
      const file = join(tmp.path, `${each.codecs.join('-')}-${cases.indexOf(each)}.ts`);
      run('ffmpeg', ['-v', 'error', '-y', ...source, '-t', '3', ...each.args, '-f', 'mpegts', file]);
      const result = demux(chunked(readFileSync(file), 1316, 7));
      assert.deepEqual(
        result.descriptions.map((description) => description.tracks.map((track) => track.codec)),
        [[...each.codecs]],
      );
      const probed = (ffprobeJson([
        '-show_packets',
        '-show_entries',
        'packet=codec_type,stream_index,pts,dts,flags',
        file,
      ]).packets ?? []) as ProbePacket[];
      const tracks = result.descriptions[0]?.tracks ?? [];
      tracks.forEach((track, index) => {
        const expected = probed.filter((packet) => packet.stream_index === index);
        const got = unitsOf(result, track.id);
        assert.equal(got.length, expected.length, `${track.codec} packets`);
        const toPes = (value: number) => Math.round((value * 90_000) / track.timescale);
        const offset = toPes(got[0]?.dts ?? 0) - (expected[0]?.dts ?? 0);
        got.forEach((unit, i) => {
          const packet = expected[i] as ProbePacket;
          assert.ok(Math.abs(toPes(unit.dts) - packet.dts - offset) <= 1, `${track.codec} dts of packet ${i}`);
          assert.ok(Math.abs(toPes(unit.pts) - packet.pts - offset) <= 1, `${track.codec} pts of packet ${i}`);
          assert.equal(unit.key, packet.flags.startsWith('K'), `${track.codec} key flag of packet ${i}`);
        });
      });
      assert.equal(result.demuxer.stats.continuityErrors, 0);
      assert.equal(result.demuxer.stats.droppedUnits, 0);
    });
  }

  it('leaves AC-3 out with a clear reason (ffmpeg -c:a ac3)', () => {
    const file = join(tmp.path, 'ac3.ts');
    run('ffmpeg', [
      '-v',
      'error',
      '-y',
      ...source,
      '-t',
      '1',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-c:a',
      'ac3',
      '-f',
      'mpegts',
      file,
    ]);
    const result = demux([readFileSync(file)]);
    assert.deepEqual(result.unsupported, [
      '257: AC-3 audio (stream_type 0x81) is not supported (H.264, H.265, AAC in ADTS or LATM, and Opus are); the stream is left out',
    ]);
    assert.deepEqual(
      result.descriptions.map((description) => description.tracks.map((track) => track.codec)),
      [['h264']],
    );
    assert.equal(unitsOf(result, 1).length, 30);
  });
});
