/**
 * Real encoders and probes for e2e tests: ffmpeg publishes a lavfi test pattern, ffprobe
 * reports what an output really contains. ffprobe runs asynchronously: the server under test
 * lives in the test's own process, so a blocking ffprobe would starve it.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { hasCommand, spawnTracked, type Tracked } from './processes.js';

/** Why ffmpeg-based tests skip, or false when ffmpeg and ffprobe are present. */
export const ffmpegMissing: string | false =
  hasCommand('ffmpeg') && hasCommand('ffprobe') ? false : 'ffmpeg/ffprobe not installed (apt-get install ffmpeg)';

/** What the test pattern looks like. */
export interface PatternOptions {
  readonly seconds?: number;
  readonly width?: number;
  readonly height?: number;
  readonly fps?: number;
  /** B-frames (default true: `-bf 2`). */
  readonly bframes?: boolean;
  /** Keyframe interval in frames (default 2 s worth). */
  readonly gop?: number;
  readonly audio?: boolean;
  /** Pace input in real time (`-re`, default true). */
  readonly realtime?: boolean;
  /** Extra output options before the URL (e.g. `-tls_verify 0`). */
  readonly outputArgs?: readonly string[];
  /** Output container (default flv; mpegts for SRT). */
  readonly format?: string;
}

/** ffmpeg arguments publishing an H.264/AAC test pattern as FLV (or `format`) to `url`. */
export function patternArgs(url: string, options: PatternOptions = {}): string[] {
  const fps = options.fps ?? 30;
  const size = `${options.width ?? 640}x${options.height ?? 360}`;
  const args = ['-hide_banner', '-loglevel', 'error', '-nostdin'];
  if (options.realtime ?? true) {
    args.push('-re');
  }
  args.push('-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=${fps}`);
  if (options.audio ?? true) {
    args.push('-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000');
  }
  if (options.seconds !== undefined) {
    args.push('-t', String(options.seconds));
  }
  args.push(
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-pix_fmt',
    'yuv420p',
    '-g',
    String(options.gop ?? fps * 2),
    '-bf',
    options.bframes === false ? '0' : '2',
  );
  if (options.audio ?? true) {
    args.push('-c:a', 'aac', '-b:a', '96k', '-ac', '2');
  }
  args.push(...(options.outputArgs ?? []), '-f', options.format ?? 'flv', url);
  return args;
}

/** Starts ffmpeg publishing the test pattern; stop it with `.stop()`. */
export function publishPattern(url: string, options: PatternOptions = {}): Tracked {
  return spawnTracked('ffmpeg', patternArgs(url, options));
}

/** One stream as ffprobe reports it. */
export interface ProbedStream {
  readonly codec_type: string;
  readonly codec_name: string;
  readonly width?: number;
  readonly height?: number;
  readonly nb_read_frames?: string;
  readonly sample_rate?: string;
  readonly channels?: number;
}

/** One packet as ffprobe reports it. */
export interface ProbedPacket {
  readonly codec_type: string;
  readonly stream_index: number;
  readonly pts_time?: string;
  readonly dts_time?: string;
  /** `K__` for a keyframe. */
  readonly flags: string;
}

/** Runs ffprobe asynchronously and returns its parsed JSON. */
export function ffprobeJson<T>(args: readonly string[], input: string): Promise<T> {
  return new Promise((resolve, reject) => {
    execFile(
      'ffprobe',
      ['-v', 'error', '-of', 'json', ...args, input],
      { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) {
          reject(new Error(`ffprobe ${input} failed: ${error.message} ${stderr}`));
          return;
        }
        resolve(JSON.parse(stdout) as T);
      },
    );
  });
}

/** Packets of an input in file order (ffprobe `-show_packets`). */
export async function probePackets(input: string): Promise<ProbedPacket[]> {
  const parsed = await ffprobeJson<{ packets?: ProbedPacket[] }>(
    ['-show_entries', 'packet=codec_type,stream_index,pts_time,dts_time,flags'],
    input,
  );
  return parsed.packets ?? [];
}

/** Streams of an input with their frames counted (ffprobe `-count_frames -show_streams`). */
export async function probeStreams(input: string, extraArgs: readonly string[] = []): Promise<ProbedStream[]> {
  const parsed = await ffprobeJson<{ streams?: ProbedStream[] }>(
    ['-count_frames', '-show_streams', ...extraArgs],
    input,
  );
  return parsed.streams ?? [];
}

/** The first stream of a type. */
export function byType(streams: readonly ProbedStream[], type: string): ProbedStream {
  const found = streams.find((stream) => stream.codec_type === type);
  assert.ok(found, `no ${type} stream in ${JSON.stringify(streams)}`);
  return found;
}
