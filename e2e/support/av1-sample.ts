/**
 * AV1 + Opus a test makes itself: ffmpeg encodes its lavfi test pattern with libaom (real-time
 * usage, so one temporal unit per frame) into IVF and a sine with libopus into Ogg, as fast as it
 * can; scripts/publish-flv.ts sends them as E-RTMP `av01` + `Opus`. The third-party E-FLV samples
 * stay a cross-check of the same path.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseIvf } from '@airwave/media/formats/ivf/ivf';
import { readOggPackets } from '@airwave/media/formats/ogg/ogg';

/** Where the files are and what they hold. */
export interface Av1Sample {
  readonly ivf: string;
  readonly ogg: string;
  readonly width: number;
  readonly height: number;
  /** Temporal units in the IVF file (frames the outputs must decode). */
  readonly frames: number;
  /** Opus packets in the Ogg file (after OpusHead and OpusTags). */
  readonly audioPackets: number;
}

/** Encodes `seconds` of width × height AV1 at 30 fps (keyframe every second) and mono Opus into `dir`. */
export function makeAv1Sample(dir: string, seconds: number, width = 320, height = 180): Av1Sample {
  const ivf = join(dir, 'video.ivf');
  const ogg = join(dir, 'audio.ogg');
  const quiet = ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y'];
  const video = spawnSync('ffmpeg', [
    ...quiet,
    ...['-f', 'lavfi', '-i', `testsrc2=size=${width}x${height}:rate=30`, '-t', String(seconds)],
    ...['-c:v', 'libaom-av1', '-usage', 'realtime', '-cpu-used', '8', '-g', '30', '-f', 'ivf', ivf],
  ]);
  assert.equal(video.status, 0, `ffmpeg could not make ${ivf}: ${video.stderr?.toString()}`);
  const audio = spawnSync('ffmpeg', [
    ...quiet,
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000', '-t', String(seconds)],
    ...['-ac', '1', '-c:a', 'libopus', '-b:a', '48k', '-f', 'ogg', ogg],
  ]);
  assert.equal(audio.status, 0, `ffmpeg could not make ${ogg}: ${audio.stderr?.toString()}`);
  return {
    ivf,
    ogg,
    width,
    height,
    frames: parseIvf(readFileSync(ivf)).frames.length,
    audioPackets: readOggPackets(readFileSync(ogg)).length - 2,
  };
}
