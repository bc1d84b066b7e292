/**
 * The benchmark's source: one 720p30 H.264/AAC file (20 s, GOP 60, ~3 Mb/s) encoded once by ffmpeg
 * into bench/.work/ and pushed unchanged (`-c copy`) to every server; an FLV copy of it feeds our
 * own paced publisher in the latency and fan-out sections.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** bench/.work/ (gitignored). */
export const WORK_DIR = fileURLToPath(new URL('../.work/', import.meta.url));
/** Frame rate and GOP of the source. */
export const SOURCE_FPS = 30;
/** Seconds the file lasts (pushed in a loop). */
export const SOURCE_SECONDS = 20;

/** The source file in MP4 and FLV (same packets), encoding it on first use; `bFrames: false` for WebRTC playback. */
export function benchMedia(options: { readonly bFrames?: boolean } = {}): { mp4: string; flv: string } {
  mkdirSync(WORK_DIR, { recursive: true });
  const suffix = options.bFrames === false ? '-nobf' : '';
  const mp4 = `${WORK_DIR}source-720p30${suffix}.mp4`;
  const flv = `${WORK_DIR}source-720p30${suffix}.flv`;
  if (!existsSync(mp4)) {
    ffmpeg([
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=1280x720:rate=${SOURCE_FPS}`,
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:sample_rate=48000',
      '-t',
      String(SOURCE_SECONDS),
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-profile:v',
      'high',
      '-pix_fmt',
      'yuv420p',
      '-b:v',
      '3M',
      '-maxrate',
      '3M',
      '-bufsize',
      '6M',
      '-g',
      '60',
      '-keyint_min',
      '60',
      '-sc_threshold',
      '0',
      ...(options.bFrames === false ? ['-bf', '0'] : []),
      '-c:a',
      'aac',
      '-b:a',
      '128k',
      '-ac',
      '2',
      '-movflags',
      '+faststart',
      `${mp4}.tmp.mp4`,
    ]);
    renameSync(`${mp4}.tmp.mp4`, mp4);
  }
  if (!existsSync(flv)) {
    ffmpeg(['-i', mp4, '-c', 'copy', '-f', 'flv', `${flv}.tmp`]);
    renameSync(`${flv}.tmp`, flv);
  }
  return { mp4, flv };
}

function ffmpeg(args: readonly string[]): void {
  const result = spawnSync('ffmpeg', ['-v', 'error', '-y', ...args], { encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(`ffmpeg ${args.join(' ')} failed: ${result.stderr}`);
  }
}

/** Running `ffmpeg -re -stream_loop -1 -i <file> -c copy -f flv <url>` publishers. */
export interface Publishers {
  /** PIDs of the live ffmpeg processes. */
  pids(): number[];
  /** How many exited before being stopped. */
  failed(): number;
  /** Starts more publishers, one per URL. */
  add(urls: readonly string[]): void;
  /** Stops every publisher by PID and waits for them. */
  stop(): Promise<void>;
}

/** Starts the same ffmpeg push for each URL (same command for every server). */
export function startPublishers(file: string, urls: readonly string[] = []): Publishers {
  const children = new Set<ReturnType<typeof spawn>>();
  let failures = 0;
  let stopping = false;
  const add = (list: readonly string[]): void => {
    for (const url of list) {
      const child = spawn(
        'ffmpeg',
        ['-nostdin', '-v', 'error', '-re', '-stream_loop', '-1', '-i', file, '-c', 'copy', '-f', 'flv', url],
        { stdio: 'ignore' },
      );
      children.add(child);
      child.once('exit', () => {
        children.delete(child);
        if (!stopping) {
          failures++;
        }
      });
    }
  };
  add(urls);
  return {
    pids: () => [...children].flatMap((child) => (child.pid === undefined ? [] : [child.pid])),
    failed: () => failures,
    add,
    stop: async () => {
      stopping = true;
      await Promise.all(
        [...children].map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null || child.signalCode !== null) {
                resolve();
                return;
              }
              child.once('exit', () => resolve());
              child.kill('SIGTERM');
              setTimeout(() => child.kill('SIGKILL'), 3000).unref();
            }),
        ),
      );
    },
  };
}
