/**
 * One ffmpeg child of a background job: recorded tracks are fed as fragmented MP4 (init segment,
 * then segments, streamed from storage) into pipes 3, 4, …; the job resolves when ffmpeg exits 0
 * and rejects with its last stderr line otherwise.
 */
import { spawn } from 'node:child_process';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { CmafTrackName } from '@airwave/media/protocols/shared/cmaf/cmaf-types';
import { initKey } from '../domain/recordings/recording-keys.js';
import { readSegment } from '../domain/recordings/segment-bytes.js';
import type { IndexedSegment } from '../domain/recordings/segment-index.js';
import type { ObjectStorage } from '../storage/object-storage.js';
import { jobSpawnSignal } from './job-queue.js';

/** The bytes of some segments of one track as a fragmented MP4: each needed init segment, then the segments. */
export async function* trackBytes(
  storage: ObjectStorage,
  prefix: string,
  track: CmafTrackName,
  segments: readonly IndexedSegment[],
): AsyncGenerator<Uint8Array> {
  let version = -1;
  for (const segment of segments) {
    if (segment.init !== version) {
      version = segment.init;
      yield* (await storage.get(initKey(prefix, track, version))).body;
    }
    yield* (await readSegment(storage, prefix, segment)).body;
  }
}

/** Runs ffmpeg with `inputs[i]` streamed into pipe `3 + i` (killed when the job's queue stops). */
export async function runFfmpeg(
  args: readonly string[],
  inputs: readonly AsyncIterable<Uint8Array>[],
  ffmpegPath = 'ffmpeg',
): Promise<void> {
  const child = spawn(ffmpegPath, args, {
    stdio: ['ignore', 'ignore', 'pipe', ...inputs.map(() => 'pipe' as const)],
    ...jobSpawnSignal(),
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-2000);
  });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve(code));
  });
  const feeds = inputs.map((input, i) => {
    const pipe = child.stdio[3 + i] as Writable;
    // ffmpeg may close an input once it read what it needs: the socket pair then reports EPIPE or
    // ECONNRESET, also after the feed ended (no listener left: an uncaught exception otherwise).
    pipe.on('error', () => {});
    return pipeline(Readable.from(input), pipe).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') {
        child.kill('SIGKILL');
        throw error;
      }
    });
  });
  const [code] = await Promise.all([exited, ...feeds]);
  if (code !== 0) {
    throw new Error(`ffmpeg exited with ${code}: ${stderr.trim().split('\n').pop() ?? ''}`);
  }
}

/** ffmpeg arguments reading `count` fragmented MP4 inputs from pipes 3, 4, … */
export function pipeInputs(count: number, before: readonly string[] = []): string[] {
  return Array.from({ length: count }, (_, i) => [...before, '-f', 'mp4', '-i', `pipe:${3 + i}`]).flat();
}
