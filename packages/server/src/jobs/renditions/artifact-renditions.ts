/**
 * Makes the stored renditions of a chapter or clip from its recorded CMAF segments, without
 * re-encoding: one ffmpeg child per artifact (bounded concurrency) reads each track as one
 * fragmented MP4 (init + segments, streamed from storage into pipes 3 and 4) and writes a
 * progressive MP4 with `moov` first (`-movflags +faststart`, seekable) and an MPEG-TS HLS VOD
 * rendition; both are uploaded under the artifact's prefix and the artifact becomes `ready`.
 */
import { createReadStream } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '@airwave/media';
import type { ArtifactRecord, RecordingRecord } from '../../domain/recordings/recording.js';
import type { RecordingEvents } from '../../domain/recordings/recording-events.js';
import { artifactHlsKey, artifactMp4Key } from '../../domain/recordings/recording-keys.js';
import type { ArtifactRenditions } from '../../domain/recordings/recording-lifecycle.js';
import type { RecordingsStore } from '../../domain/recordings/recordings.store.js';
import { readRecordingIndex } from '../../domain/recordings/segment-index.js';
import { selectSegments, type TrackSelection } from '../../domain/recordings/segment-selection.js';
import type { ObjectStorage } from '../../storage/object-storage.js';
import { pipeInputs, runFfmpeg, trackBytes } from '../ffmpeg-job.js';
import { JobQueue } from '../job-queue.js';

/** Options of the rendition jobs. */
export interface RenditionJobsOptions {
  readonly storage: ObjectStorage;
  readonly store: RecordingsStore;
  readonly log: Logger;
  /** ffmpeg children at once (default 1). */
  readonly concurrency?: number;
  readonly ffmpegPath?: string;
  /** Told when an artifact's renditions are stored (or failed). */
  readonly onDone?: (artifact: ArtifactRecord, recording: RecordingRecord) => void;
  readonly events?: RecordingEvents;
}

/** Seconds per MPEG-TS HLS segment of a stored rendition. */
const TS_SEGMENT_SECONDS = 4;

/** Queues and runs rendition jobs. */
export class RenditionJobs implements ArtifactRenditions {
  private readonly queue: JobQueue<{ artifact: ArtifactRecord; recording: RecordingRecord }>;

  constructor(private readonly options: RenditionJobsOptions) {
    this.queue = new JobQueue((job) => this.run(job.artifact, job.recording), options.concurrency ?? 1);
  }

  enqueue(artifact: ArtifactRecord, recording: RecordingRecord): void {
    this.queue.push({ artifact, recording });
  }

  /** Resolves when no job is queued or running (tests). */
  settled(): Promise<void> {
    return this.queue.settled();
  }

  /** Shutdown: kills the running jobs and drops the waiting ones, whose artifacts stay `processing`; resolves with how many. */
  stop(): Promise<number> {
    return this.queue.stop();
  }

  /** Queues the artifacts of this node's recordings still `processing` (left by a stop or a kill); returns how many. */
  async requeueUnfinished(nodeId: string): Promise<number> {
    const unfinished = await this.options.store.processingArtifactsOnNode(nodeId);
    for (const { artifact, recording } of unfinished) {
      this.enqueue(artifact, recording);
    }
    return unfinished.length;
  }

  private async run(artifact: ArtifactRecord, recording: RecordingRecord): Promise<void> {
    const { storage, store, log } = this.options;
    const dir = await mkdtemp(join(tmpdir(), 'airwave-rendition-'));
    const started = Date.now();
    this.options.events?.processing('processing.started', artifact, 'rendition');
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
      this.options.events?.processing('processing.completed', artifact, 'rendition', {
        durationMs: Date.now() - started,
      });
      if (done) {
        this.options.events?.artifact('storage.synced', done, artifactMp4Key(done.id));
        this.options.onDone?.(done, recording);
      }
    } catch (error) {
      if (this.queue.stopped) {
        log.info({ artifactId: artifact.id }, 'artifact renditions interrupted by shutdown: the next start makes them');
        return;
      }
      const reason = error instanceof Error ? error.message : String(error);
      log.error({ artifactId: artifact.id, reason }, 'artifact renditions failed');
      const failed = await store
        .updateArtifact(artifact.id, { status: 'failed', errorMessage: reason, updatedAt: new Date() })
        .catch(() => undefined);
      this.options.events?.processing('processing.failed', artifact, 'rendition', { error: reason });
      if (failed) {
        this.options.onDone?.(failed, recording);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** Runs ffmpeg over the tracks (fed through pipes 3, 4) into `dir`. */
  private async remux(prefix: string, tracks: readonly TrackSelection[], dir: string): Promise<void> {
    const maps = tracks.flatMap((_, i) => ['-map', String(i)]);
    const args = [
      '-hide_banner',
      '-loglevel',
      'error',
      '-nostdin',
      ...pipeInputs(tracks.length),
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
    await runFfmpeg(
      args,
      tracks.map((track) => trackBytes(this.options.storage, prefix, track.track, track.segments)),
      this.options.ffmpegPath,
    );
  }
}
