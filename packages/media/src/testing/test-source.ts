/**
 * Test-only ffmpeg arguments of the synthetic source most media tests encode: the lavfi
 * testsrc2 picture and a 440 Hz sine, fed to `encodeTestMedia`.
 */

/** ffmpeg inputs: testsrc2 at `size` (`WxH`) and 30 fps, and a 440 Hz sine at `sampleRate` (lavfi's 44.1 kHz unless given). */
export function lavfiInputs(size: string, sampleRate?: number): string[] {
  const sine = sampleRate === undefined ? 'sine=frequency=440' : `sine=frequency=440:sample_rate=${sampleRate}`;
  return ['-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=30`, '-f', 'lavfi', '-i', sine];
}

/** What `testSourceArgs` encodes. */
export interface TestSourceOptions {
  /** Seconds of media. */
  readonly seconds: number;
  /** Picture size `WxH` (default 320x180). */
  readonly size?: string;
  /** Frames from one keyframe to the next (default 30). */
  readonly gop?: number;
  /** Keyframes exactly every `gop` frames, none at scene cuts. */
  readonly fixedGop?: boolean;
  /** B-frames of the default libx264 encoder (default 2). */
  readonly bFrames?: number;
  /** Video codec options replacing the default libx264 (ultrafast preset). */
  readonly video?: readonly string[];
}

/** ffmpeg arguments (no output) of `lavfiInputs(size)` encoded as 4:2:0 video with a keyframe every `gop` frames and AAC audio. */
export function testSourceArgs(options: TestSourceOptions): string[] {
  const gop = String(options.gop ?? 30);
  const video = options.video ?? ['-c:v', 'libx264', '-preset', 'ultrafast', '-bf', String(options.bFrames ?? 2)];
  return [
    ...lavfiInputs(options.size ?? '320x180'),
    ...video,
    ...['-pix_fmt', 'yuv420p', '-g', gop],
    ...(options.fixedGop ? ['-keyint_min', gop, '-sc_threshold', '0'] : []),
    ...['-c:a', 'aac', '-t', String(options.seconds)],
  ];
}
