/**
 * Makes the stored renditions of a chapter or clip from its recorded CMAF segments, without
 * re-encoding: one ffmpeg child per artifact (bounded concurrency) reads each track as one
 * fragmented MP4 (init + segments, streamed from storage into pipes 3 and 4) and writes a
 * progressive MP4 with `moov` first (`-movflags +faststart`, seekable) and an MPEG-TS HLS VOD
 * rendition; both are uploaded under the artifact's prefix and the artifact becomes `ready`.
 */
import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Logger } from '@airwave/media';
import type { ArtifactRecord, RecordingRecord } from '../../domain/recordings/recording.js';
import { artifactHlsKey, artifactMp4Key, initKey, segmentKey } from '../../domain/recordings/recording-keys.js';
import type { ArtifactRenditions } from '../../domain/recordings/recording-lifecycle.js';
import type { RecordingsStore } from '../../domain/recordings/recordings.store.js';
import { readRecordingIndex } from '../../domain/recordings/segment-index.js';
import { selectSegments, type TrackSelection } from '../../domain/recordings/segment-selection.js';
import type { ObjectStorage } from '../../storage/object-storage.js';

/** Options of the rendition jobs. */
export interface RenditionJobsOptions {
  readonly storage: ObjectStorage;
  readonly store: RecordingsStore;
  readonly log: Logger;
  /** ffmpeg children at once (default 1). */
  readonly concurrency?: number;
  readonly ffmpegPath?: string;
  /** Told when an artifact's renditions are stored (or failed). */
  readonly onDone?: (artifact: ArtifactRecord) => void;
}

/** Seconds per MPEG-TS HLS segment of a stored rendition. */
const TS_SEGMENT_SECONDS = 4;

/** Queues and runs rendition jobs. */
export class RenditionJobs implements ArtifactRenditions {
  private readonly waiting: { artifact: ArtifactRecord; recording: RecordingRecord }[] = [];
  private running = 0;
  private readonly idle = new Set<() => void>();

  constructor(private readonly options: RenditionJobsOptions) {}

  enqueue(artifact: ArtifactRecord, recording: RecordingRecord): void {
    this.waiting.push({ artifact, recording });
    this.pump();
  }

  /** Resolves when no job is queued or running (shutdown, tests). */
  settled(): Promise<void> {
    if (this.running === 0 && this.waiting.length === 0) {
      return Promise.resolve();
    }
    return new Promise((resolve) => this.idle.add(resolve));
  }

  private pump(): void {
    while (this.running < (this.options.concurrency ?? 1) && this.waiting.length > 0) {
      const job = this.waiting.shift() as { artifact: ArtifactRecord; recording: RecordingRecord };
      this.running++;
      this.run(job.artifact, job.recording).finally(() => {
        this.running--;
        this.pump();
        if (this.running === 0 && this.waiting.length === 0) {
          for (const resolve of this.idle) {
            resolve();
          }
          this.idle.clear();
        }
      });
    }
  }

  private async run(artifact: ArtifactRecord, recording: RecordingRecord): Promise<void> {
    const { storage, store, log } = this.options;
    const dir = await mkdtemp(join(tmpdir(), 'airwave-rendition-'));
    try {
      const index = await readRecordingIndex(storage, recording.storagePrefix);
      const tracks = selectSegments(index, artifact.firstSegment, artifact.lastSegment);
      if (tracks.length === 0) {
        throw new Error('no recorded segments in the artifact range');
      }
      await this.remux(recording.storagePrefix, tracks, dir);
      let size = 0;
      for (const name of await readdir(dir)) {
        const key = name === 'full.mp4' ? artifactMp4Key(artifact.id) : artifactHlsKey(artifact.id, name);
        await storage.put(key, createReadStream(join(dir, name)));
        size += (await storage.head(key))?.size ?? 0;
      }
      const segmentBytes = tracks.reduce(
        (sum, track) => sum + track.segments.reduce((bytes, segment) => bytes + segment.bytes, 0),
        0,
      );
      const done = await store.updateArtifact(artifact.id, {
        status: 'ready',
        sizeBytes: segmentBytes + size,
        updatedAt: new Date(),
      });
      log.info({ artifactId: artifact.id, kind: artifact.kind }, 'artifact renditions stored');
      if (done) {
        this.options.onDone?.(done);
      }
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      log.error({ artifactId: artifact.id, reason }, 'artifact renditions failed');
      const failed = await store
        .updateArtifact(artifact.id, { status: 'failed', errorMessage: reason, updatedAt: new Date() })
        .catch(() => undefined);
      if (failed) {
        this.options.onDone?.(failed);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** Runs ffmpeg over the tracks (fed through pipes 3, 4) into `dir`. */
  private async remux(prefix: string, tracks: readonly TrackSelection[], dir: string): Promise<void> {
    const inputs = tracks.flatMap((_, i) => ['-f', 'mp4', '-i', `pipe:${3 + i}`]);
    const maps = tracks.flatMap((_, i) => ['-map', String(i)]);
    const args = [
      '-hide_banner',
      '-loglevel',
      'error',
      '-nostdin',
      ...inputs,
      ...maps,
      '-c',
      'copy',
      '-movflags',
      '+faststart',
      join(dir, 'full.mp4'),
      ...maps,
      '-c',
      'copy',
      '-f',
      'hls',
      '-hls_time',
      String(TS_SEGMENT_SECONDS),
      '-hls_playlist_type',
      'vod',
      '-hls_segment_type',
      'mpegts',
      '-hls_segment_filename',
      join(dir, 'seg-%05d.ts'),
      join(dir, 'index.m3u8'),
    ];
    const child = spawn(this.options.ffmpegPath ?? 'ffmpeg', args, {
      stdio: ['ignore', 'ignore', 'pipe', ...tracks.map(() => 'pipe' as const)],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-2000);
    });
    const exited = new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code) => resolve(code));
    });
    const feeds = tracks.map((track, i) =>
      pipeline(Readable.from(this.trackBytes(prefix, track)), child.stdio[3 + i] as Writable).catch(
        (error: NodeJS.ErrnoException) => {
          if (error.code !== 'EPIPE') {
            child.kill('SIGKILL');
            throw error;
          }
        },
      ),
    );
    const [code] = await Promise.all([exited, ...feeds]);
    if (code !== 0) {
      throw new Error(`ffmpeg exited with ${code}: ${stderr.trim().split('\n').pop() ?? ''}`);
    }
  }

  /** The bytes of one track as a fragmented MP4: its init segment, then its segments from storage. */
  private async *trackBytes(prefix: string, track: TrackSelection): AsyncGenerator<Uint8Array> {
    const first = track.segments[0];
    if (!first) {
      return;
    }
    let version = -1;
    for (const segment of track.segments) {
      if (segment.init !== version) {
        version = segment.init;
        yield* (await this.options.storage.get(initKey(prefix, track.track, version))).body;
      }
      yield* (await this.options.storage.get(segmentKey(prefix, track.track, segment.msn))).body;
    }
  }
}
