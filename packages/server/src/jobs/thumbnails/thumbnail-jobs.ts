/**
 * Posters and sprite sheets, made by ffmpeg children (bounded concurrency, never in the event
 * loop) from the recorded CMAF segments: a poster JPEG from the middle segment, and a 10 × 10
 * sprite sheet with its WebVTT cues spread evenly over the duration. Long content decodes only
 * the keyframes of 100 segments spread over it (`-skip_frame nokey`), so an hour costs about 100
 * decoded frames. A live recording gets a poster of its newest segment when its poster is asked
 * for and the last is missing or older than LIVE_POSTER_MAX_AGE_MS (an ffmpeg per stream every
 * few seconds cost about 1 % of a core per recorded stream, most of the recording's cost, for
 * posters nobody looked at, ADR 0022; one at every recording's start, a burst of ffmpeg jobs when
 * many streams start at once, ADR 0086).
 * Stored beside the content: `<prefix>poster.jpg`, `sprite.jpg`, `sprite.vtt`, `live-poster.jpg`.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '@airwave/media';
import type { ArtifactRecord, RecordingRecord } from '../../domain/recordings/recording.js';
import type { RecordingEvents } from '../../domain/recordings/recording-events.js';
import { artifactPrefix } from '../../domain/recordings/recording-keys.js';
import { type IndexedSegment, readRecordingIndex } from '../../domain/recordings/segment-index.js';
import { selectSegments } from '../../domain/recordings/segment-selection.js';
import type { ObjectStorage } from '../../storage/object-storage.js';
import { pipeInputs, runFfmpeg, trackBytes } from '../ffmpeg-job.js';
import { JobQueue } from '../job-queue.js';
import { jpegSize, SPRITE_COLUMNS, SPRITE_ROWS, SPRITE_TILES, spreadEvenly, spriteVtt } from './sprite-sheet.js';

/** A live poster older than this is made again when it is asked for, ms. */
export const LIVE_POSTER_MAX_AGE_MS = 6000;

/** Width of one sprite thumbnail, pixels (height follows the aspect ratio). */
const TILE_WIDTH = 160;
/** Widest poster, pixels. */
const POSTER_MAX_WIDTH = 1280;

/** One job: images of an artifact, of a whole recording, or a live poster of one segment. */
type ThumbnailJob =
  | { readonly kind: 'artifact'; readonly artifact: ArtifactRecord; readonly recording: RecordingRecord }
  | { readonly kind: 'recording'; readonly recording: RecordingRecord }
  | {
      readonly kind: 'live';
      readonly recording: RecordingRecord;
      readonly segment: IndexedSegment;
      /** Called once the poster is stored (or failed). */
      readonly done: () => void;
    };

/** Options of the thumbnail jobs. */
export interface ThumbnailJobsOptions {
  readonly storage: ObjectStorage;
  readonly log: Logger;
  readonly events?: RecordingEvents;
  /** ffmpeg children at once (default 1). */
  readonly concurrency?: number;
  readonly ffmpegPath?: string;
}

/** What one sprite run measured. */
export interface SpriteTiming {
  readonly posterMs: number;
  readonly spriteMs: number;
}

/** Queues and runs poster and sprite jobs. */
export class ThumbnailJobs {
  private readonly queue: JobQueue<ThumbnailJob>;
  private readonly livePending = new Map<string, Promise<void>>();
  /** Per open recording on this node: its newest video segment and when its live poster was made. */
  private readonly live = new Map<string, { recording: RecordingRecord; newest: IndexedSegment; madeAt: number }>();

  constructor(private readonly options: ThumbnailJobsOptions) {
    this.queue = new JobQueue((job) => this.run(job), options.concurrency ?? 1);
  }

  /** Poster and sprite of a chapter or clip. */
  artifact(artifact: ArtifactRecord, recording: RecordingRecord): void {
    this.queue.push({ kind: 'artifact', artifact, recording });
  }

  /** Poster and sprite of a whole finished recording. */
  recording(recording: RecordingRecord): void {
    this.queue.push({ kind: 'recording', recording });
  }

  /** Follows a live recording's newest video segment (its poster is made when first asked for: ADR 0086). */
  liveSegment(recording: RecordingRecord, segment: IndexedSegment): void {
    const known = this.live.get(recording.id);
    if (known) {
      known.newest = segment;
      return;
    }
    this.live.set(recording.id, { recording, newest: segment, madeAt: 0 });
  }

  /** The recording ended: its live poster is no longer refreshed. */
  liveEnded(recordingId: string): void {
    this.live.delete(recordingId);
  }

  /**
   * Makes a live recording's poster from its newest segment unless the last one is fresh (or one
   * is being made: that one is awaited); resolves at once for recordings not live on this node.
   */
  livePoster(recordingId: string): Promise<void> {
    const entry = this.live.get(recordingId);
    const pending = this.livePending.get(recordingId);
    if (pending || !entry || Date.now() - entry.madeAt < LIVE_POSTER_MAX_AGE_MS) {
      return pending ?? Promise.resolve();
    }
    const made = new Promise<void>((done) => {
      this.queue.push({ kind: 'live', recording: entry.recording, segment: entry.newest, done });
    }).finally(() => {
      entry.madeAt = Date.now();
      this.livePending.delete(recordingId);
    });
    this.livePending.set(recordingId, made);
    return made;
  }

  /** Resolves when no job is queued or running. */
  settled(): Promise<void> {
    return this.queue.settled();
  }

  /** Shutdown: kills the running jobs and drops the waiting ones; resolves with how many were left. */
  stop(): Promise<number> {
    return this.queue.stop();
  }

  /**
   * Queues the images of finished recordings and ready artifacts whose sprite cues are not in
   * storage (a stop or a kill interrupted their job); returns how many were queued.
   */
  async requeueMissing(
    recordings: readonly RecordingRecord[],
    artifacts: readonly { artifact: ArtifactRecord; recording: RecordingRecord }[],
  ): Promise<number> {
    let queued = 0;
    for (const recording of recordings) {
      if (!(await this.options.storage.head(`${recording.storagePrefix}sprite.vtt`))) {
        this.recording(recording);
        queued++;
      }
    }
    for (const { artifact, recording } of artifacts) {
      if (!(await this.options.storage.head(`${artifactPrefix(artifact.id)}sprite.vtt`))) {
        this.artifact(artifact, recording);
        queued++;
      }
    }
    return queued;
  }

  private async run(job: ThumbnailJob): Promise<void> {
    const scope = job.kind === 'artifact' ? job.artifact : job.recording;
    const prefix = job.kind === 'artifact' ? artifactPrefix(job.artifact.id) : job.recording.storagePrefix;
    const { events, log } = this.options;
    try {
      if (job.kind === 'live') {
        try {
          await this.poster(job.recording.storagePrefix, [job.segment], `${prefix}live-poster.jpg`);
        } finally {
          job.done();
        }
        return;
      }
      const index = await readRecordingIndex(this.options.storage, job.recording.storagePrefix);
      const [first, last] =
        job.kind === 'artifact' ? [job.artifact.firstSegment, job.artifact.lastSegment] : [0, Number.MAX_SAFE_INTEGER];
      const video = selectSegments(index, first, last).find((track) => track.track === 'video');
      if (!video) {
        return;
      }
      events?.processing('processing.started', scope, 'sprite');
      const timing = await this.images(job.recording.storagePrefix, video.segments, prefix);
      events?.processing('processing.completed', scope, 'thumbnail', { durationMs: timing.posterMs });
      events?.processing('processing.completed', scope, 'sprite', { durationMs: timing.spriteMs });
    } catch (error) {
      if (this.queue.stopped) {
        return;
      }
      const reason = error instanceof Error ? error.message : String(error);
      log.warn({ prefix, reason }, 'thumbnails failed');
      events?.processing('processing.failed', scope, 'sprite', { error: reason });
    }
  }

  /** Makes and stores the poster, the sprite sheet and its cues of some video segments under `outPrefix`. */
  async images(recordingPrefix: string, segments: readonly IndexedSegment[], outPrefix: string): Promise<SpriteTiming> {
    const middle = segments[Math.floor(segments.length / 2)] as IndexedSegment;
    const posterStart = Date.now();
    await this.poster(recordingPrefix, [middle], `${outPrefix}poster.jpg`);
    const spriteStart = Date.now();
    const duration = segments.reduce((sum, segment) => sum + segment.duration / segment.timescale, 0);
    const long = segments.length >= SPRITE_TILES;
    const fed = long ? spreadEvenly(segments, SPRITE_TILES) : segments;
    const sprite = await this.ffmpegImage(recordingPrefix, fed, long ? ['-skip_frame', 'nokey'] : [], [
      '-vf',
      `fps=${SPRITE_TILES}/${duration.toFixed(3)},scale=${TILE_WIDTH}:-2,tile=${SPRITE_COLUMNS}x${SPRITE_ROWS}`,
      '-frames:v',
      '1',
      '-q:v',
      '5',
    ]);
    const size = jpegSize(sprite);
    if (!size) {
      throw new Error('ffmpeg wrote a sprite sheet that is not a JPEG');
    }
    await this.options.storage.put(`${outPrefix}sprite.jpg`, sprite);
    const vtt = spriteVtt(duration, size.width / SPRITE_COLUMNS, size.height / SPRITE_ROWS, 'sprite.jpg');
    await this.options.storage.put(`${outPrefix}sprite.vtt`, Buffer.from(vtt));
    return { posterMs: spriteStart - posterStart, spriteMs: Date.now() - spriteStart };
  }

  private async poster(recordingPrefix: string, segments: readonly IndexedSegment[], key: string): Promise<void> {
    // A segment starts on a keyframe: decode only keyframes, on one thread (no frames decoded ahead).
    const jpeg = await this.ffmpegImage(
      recordingPrefix,
      segments,
      ['-skip_frame', 'nokey', '-threads', '1'],
      ['-vf', `scale='min(${POSTER_MAX_WIDTH},iw)':-2`, '-frames:v', '1', '-q:v', '3'],
    );
    await this.options.storage.put(key, jpeg);
  }

  /** Runs ffmpeg over video segments and returns the one JPEG it writes. */
  private async ffmpegImage(
    recordingPrefix: string,
    segments: readonly IndexedSegment[],
    inputOptions: readonly string[],
    outputOptions: readonly string[],
  ): Promise<Buffer> {
    const dir = await mkdtemp(join(tmpdir(), 'airwave-thumb-'));
    try {
      const out = join(dir, 'out.jpg');
      await runFfmpeg(
        ['-hide_banner', '-loglevel', 'error', '-nostdin', ...pipeInputs(1, inputOptions), ...outputOptions, '-y', out],
        [trackBytes(this.options.storage, recordingPrefix, 'video', segments)],
        this.options.ffmpegPath,
      );
      return await readFile(out);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}
