/** Init segments and fragments built from real encoder output must be read back by ffprobe/ffmpeg. */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { concatBytes } from '../../bits/bytes.js';
import type { MediaUnit } from '../../stream/media-unit.js';
import type { Track } from '../../stream/track.js';
import { type EncodedMedia, encodeTestMedia, ffmpegSkip, ffprobeJson, run } from '../../testing/ffmpeg-media.js';
import { suiteTempDir } from '../../testing/temp-dir.js';
import { lavfiInputs } from '../../testing/test-source.js';
import { buildFragment, type TrackFragment } from './fragment.js';
import { buildInitSegment } from './init-segment.js';
import { trackFragmentFromUnits } from './samples.js';

const skip = ffmpegSkip();
const tmp = suiteTempDir('airwave-fmp4-');

const cases = [
  {
    name: 'H.264 with B-frames + AAC',
    video: 'h264',
    audio: 'aac',
    width: 640,
    height: 360,
    args: ['-t', '2', '-c:v', 'libx264', '-preset', 'veryfast', '-bf', '2', '-g', '30', '-c:a', 'aac'],
  },
  {
    name: 'H.265 with B-frames + AAC',
    video: 'hevc',
    audio: 'aac',
    width: 320,
    height: 240,
    args: ['-t', '1', '-c:v', 'libx265', '-x265-params', 'log-level=error', '-bf', '2', '-g', '15', '-c:a', 'aac'],
  },
  {
    name: 'AV1 + Opus',
    video: 'av1',
    audio: 'opus',
    width: 320,
    height: 240,
    args: ['-t', '1', '-c:v', 'libsvtav1', '-preset', '12', '-g', '15', '-c:a', 'libopus'],
  },
  {
    name: 'VP9 + Opus',
    video: 'vp9',
    audio: 'opus',
    width: 320,
    height: 240,
    args: ['-t', '1', '-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-g', '15', '-c:a', 'libopus'],
  },
] as const;

/** Splits units into groups that start at each video keyframe (audio by the same instants). */
function groupsByGop(media: EncodedMedia, tracks: readonly Track[]): MediaUnit[][][] {
  const video = media.tracks.find((track) => track.kind === 'video');
  assert.ok(video);
  const starts = media.units.filter((unit) => unit.trackId === video.id && unit.key).map((unit) => unit.dts / 90_000);
  return starts.map((keyframe, index) => {
    const start = index === 0 ? Number.NEGATIVE_INFINITY : keyframe;
    const end = starts[index + 1] ?? Number.POSITIVE_INFINITY;
    return tracks.map((track) =>
      media.units.filter((unit) => {
        const seconds = unit.dts / track.timescale;
        return unit.trackId === track.id && seconds >= start && seconds < end;
      }),
    );
  });
}

/** Init segment + one fragment per GOP for the given tracks. */
function fragmentedFile(media: EncodedMedia, tracks: readonly Track[]): Uint8Array {
  const groups = groupsByGop(media, tracks);
  const parts = [buildInitSegment(tracks)];
  groups.forEach((group, index) => {
    const fragments: TrackFragment[] = [];
    tracks.forEach((track, t) => {
      const units = group[t] ?? [];
      const nextDts = groups[index + 1]?.[t]?.[0]?.dts;
      if (units.length > 0) {
        fragments.push(trackFragmentFromUnits(track.id, units, nextDts));
      }
    });
    parts.push(buildFragment(index + 1, fragments, { styp: index === 0 }));
  });
  return concatBytes(parts);
}

interface ProbedStream {
  codec_name: string;
  width?: number;
  height?: number;
  sample_rate?: string;
  channels?: number;
  nb_read_frames?: string;
}

for (const c of cases) {
  describe(`fMP4 ${c.name}`, { skip }, () => {
    let media: EncodedMedia;
    const source = (): EncodedMedia => {
      media ??= encodeTestMedia(tmp.path, [...lavfiInputs(`${c.width}x${c.height}`, 48_000), ...c.args]);
      return media;
    };

    it('one-track video init + fragments decode with the source codec, size, frames and timestamps', () => {
      const { tracks, units } = source();
      const video = tracks.find((track) => track.kind === 'video');
      assert.ok(video);
      const file = join(tmp.path, `${c.video}-video.mp4`);
      writeFileSync(file, fragmentedFile(source(), [video]));

      const probe = run('ffprobe', ['-v', 'error', '-count_frames', '-show_streams', '-of', 'json', file]);
      assert.equal(probe.stderr, '');
      const streams = (JSON.parse(probe.stdout) as { streams: ProbedStream[] }).streams;
      const sourceUnits = units.filter((unit) => unit.trackId === video.id);
      assert.equal(streams.length, 1);
      assert.equal(streams[0]?.codec_name, c.video);
      assert.equal(streams[0]?.width, c.width);
      assert.equal(streams[0]?.height, c.height);
      assert.equal(Number(streams[0]?.nb_read_frames), sourceUnits.length);

      const packets = (ffprobeJson(['-show_packets', '-show_entries', 'packet=pts,dts,flags', file]).packets ?? []) as {
        pts: number;
        dts: number;
        flags: string;
      }[];
      assert.deepEqual(
        packets.map((packet) => [packet.dts, packet.pts, packet.flags.startsWith('K')]),
        sourceUnits.map((unit) => [unit.dts, unit.pts, unit.key]),
      );
      const frames = (ffprobeJson(['-show_frames', '-show_entries', 'frame=pts', file]).frames ?? []) as {
        pts: number;
      }[];
      assert.deepEqual(
        frames.map((frame) => frame.pts),
        sourceUnits.map((unit) => unit.pts).sort((a, b) => a - b),
      );
    });

    it('two-track init + fragments with two trafs decode without errors', () => {
      const { tracks, units } = source();
      const file = join(tmp.path, `${c.video}-av.mp4`);
      writeFileSync(file, fragmentedFile(source(), tracks));

      const probe = run('ffprobe', ['-v', 'error', '-count_frames', '-show_streams', '-of', 'json', file]);
      assert.equal(probe.stderr, '');
      const streams = (JSON.parse(probe.stdout) as { streams: ProbedStream[] }).streams;
      assert.deepEqual(
        streams.map((stream) => stream.codec_name),
        [c.video, c.audio],
      );
      const audio = tracks.find((track) => track.kind === 'audio');
      assert.ok(audio?.kind === 'audio');
      assert.equal(Number(streams[1]?.sample_rate), audio.sampleRate);
      assert.equal(streams[1]?.channels, audio.channels);
      tracks.forEach((track, index) => {
        assert.equal(
          Number(streams[index]?.nb_read_frames),
          units.filter((unit) => unit.trackId === track.id).length,
          `frames of track ${track.id}`,
        );
      });
      assert.equal(run('ffmpeg', ['-v', 'error', '-i', file, '-f', 'null', '-']).stderr, '');
    });
  });
}
