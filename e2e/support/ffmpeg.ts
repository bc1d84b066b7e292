/**
 * Real encoders and probes for e2e tests: ffmpeg publishes a lavfi test pattern, ffprobe
 * reports what an output really contains.
 */
import { spawnSync } from 'node:child_process';
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
}

/** ffmpeg arguments publishing an H.264/AAC test pattern as FLV to `url`. */
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
  args.push(...(options.outputArgs ?? []), '-f', 'flv', url);
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

/** Runs ffprobe with frame counting on a URL or file; throws with ffprobe's stderr on failure. */
export function probe(input: string, extraArgs: readonly string[] = []): { streams: ProbedStream[]; stderr: string } {
  const result = spawnSync(
    'ffprobe',
    ['-v', 'error', '-count_frames', '-show_streams', '-of', 'json', ...extraArgs, input],
    { encoding: 'utf8', timeout: 60_000 },
  );
  if (result.status !== 0) {
    throw new Error(`ffprobe ${input} failed (${result.status}): ${result.stderr}`);
  }
  const parsed = JSON.parse(result.stdout) as { streams?: ProbedStream[] };
  return { streams: parsed.streams ?? [], stderr: result.stderr };
}
