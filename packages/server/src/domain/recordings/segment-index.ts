/**
 * The index of a recording kept on storage beside its segments: every closed segment of every
 * track with its timing (decode time, duration, wall clock, offset on the recording's media
 * timeline) in JSON chunks of INDEX_CHUNK_ENTRIES, and the tracks' codecs per init version. A
 * segment is listed only after its bytes are durable, so after a crash the index names exactly
 * the segments that play.
 */
import type { CmafTrackName } from '@airwave/media/protocols/shared/cmaf/cmaf-types';
import type { ObjectStorage } from '../../storage/object-storage.js';
import { StorageNotFoundError } from '../../storage/object-storage.js';
import { INDEX_CHUNK_ENTRIES, indexChunkKey, tracksKey } from './recording-keys.js';

/** One closed segment of one track. */
export interface IndexedSegment {
  readonly track: CmafTrackName;
  readonly msn: number;
  /** Init segment version describing it. */
  readonly init: number;
  readonly timescale: number;
  /** Decode time of its first sample and its duration, in `timescale`. */
  readonly start: number;
  readonly duration: number;
  /** Earliest presentation time (DASH SegmentTimeline `t`). */
  readonly ept: number;
  /** Wall-clock ms of its first sample. */
  readonly wallMs: number;
  /** Ms from the recording's first frame on its media timeline (outages not counted). */
  readonly offsetMs: number;
  /** First segment after a reconnect or codec change. */
  readonly discontinuity: boolean;
  readonly bytes: number;
}

/** A track of a recording as one init version describes it. */
export interface RecordedTrack {
  readonly track: CmafTrackName;
  readonly version: number;
  readonly codecString: string;
  readonly timescale: number;
  readonly width?: number;
  readonly height?: number;
  readonly sampleRate?: number;
  readonly channels?: number;
}

/** A recording's whole index. */
export interface RecordingIndex {
  readonly segments: readonly IndexedSegment[];
  readonly tracks: readonly RecordedTrack[];
}

async function readJson<T>(storage: ObjectStorage, key: string): Promise<T | undefined> {
  try {
    const read = await storage.get(key);
    const chunks: Buffer[] = [];
    for await (const chunk of read.body) {
      chunks.push(chunk as Buffer);
    }
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as T;
  } catch (error) {
    if (error instanceof StorageNotFoundError) {
      return undefined;
    }
    throw error;
  }
}

/** Reads a recording's index from storage (empty when nothing was written). */
export async function readRecordingIndex(storage: ObjectStorage, prefix: string): Promise<RecordingIndex> {
  const segments: IndexedSegment[] = [];
  for (let chunk = 0; ; chunk++) {
    const entries = await readJson<IndexedSegment[]>(storage, indexChunkKey(prefix, chunk));
    if (!entries) {
      break;
    }
    segments.push(...entries);
    if (entries.length < INDEX_CHUNK_ENTRIES) {
      break;
    }
  }
  const tracks = (await readJson<RecordedTrack[]>(storage, tracksKey(prefix))) ?? [];
  return { segments, tracks };
}

/** Appends segments to a recording's index on storage (one writer per recording, calls in order). */
export class SegmentIndexWriter {
  private readonly entries: IndexedSegment[] = [];
  private readonly tracks: RecordedTrack[] = [];
  /** Chunks before this one are written in full. */
  private written = 0;

  constructor(
    private readonly storage: ObjectStorage,
    private readonly prefix: string,
  ) {}

  /** Every segment indexed so far. */
  get segments(): readonly IndexedSegment[] {
    return this.entries;
  }

  /** Tracks described so far. */
  get described(): readonly RecordedTrack[] {
    return this.tracks;
  }

  /** Records a new init version's track description. */
  async describe(track: RecordedTrack): Promise<void> {
    this.tracks.push(track);
    await this.storage.put(tracksKey(this.prefix), Buffer.from(JSON.stringify(this.tracks)));
  }

  /**
   * Appends one durable segment. With `flush` (the default) the chunks not yet written in full are
   * rewritten; without, only a chunk that just filled up is — a writer with more segments queued
   * batches their index write (under a backlog a crash then loses at most those queued segments).
   */
  async append(segment: IndexedSegment, flush = true): Promise<void> {
    this.entries.push(segment);
    const full = this.entries.length % INDEX_CHUNK_ENTRIES === 0;
    if (!flush && !full) {
      return;
    }
    const last = Math.floor((this.entries.length - 1) / INDEX_CHUNK_ENTRIES);
    for (let chunk = Math.min(this.written, last); chunk <= last; chunk++) {
      const slice = this.entries.slice(chunk * INDEX_CHUNK_ENTRIES, (chunk + 1) * INDEX_CHUNK_ENTRIES);
      await this.storage.put(indexChunkKey(this.prefix, chunk), Buffer.from(JSON.stringify(slice)));
    }
    this.written = full ? last + 1 : last;
  }
}
