/**
 * The index of a recording kept on storage beside its segments: every closed segment of every
 * track with its timing (decode time, duration, wall clock, offset on the recording's media
 * timeline), and the tracks' codecs per init version. On a store that appends (local files) it is
 * one log of JSON lines, a line per segment; elsewhere (S3) JSON chunks of INDEX_CHUNK_ENTRIES
 * rewritten as they grow (ADR 0023). A segment is listed only after its bytes are written, so
 * after a kill of the process the index names exactly the segments that play.
 */
import type { CmafTrackName } from '@airwave/media/protocols/shared/cmaf/cmaf-types';
import type { ObjectAppender, ObjectStorage } from '../../storage/object-storage.js';
import { StorageNotFoundError } from '../../storage/object-storage.js';
import { INDEX_CHUNK_ENTRIES, indexChunkKey, indexJournalKey, tracksKey } from './recording-keys.js';

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
  /** A packed segment's pack (packKey; ADR 0062); absent: the segment is an object of its own (segmentKey). */
  readonly pack?: number;
  /** A packed segment's first byte in its pack. */
  readonly offset?: number;
  /** The pack holds every track's segments (sharedPackKey, ADR 0089); absent: its track's own (packKey). */
  readonly shared?: boolean;
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

async function readBytes(storage: ObjectStorage, key: string): Promise<Buffer | undefined> {
  try {
    const read = await storage.get(key);
    const chunks: Buffer[] = [];
    for await (const chunk of read.body) {
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks);
  } catch (error) {
    if (error instanceof StorageNotFoundError) {
      return undefined;
    }
    throw error;
  }
}

async function readJson<T>(storage: ObjectStorage, key: string): Promise<T | undefined> {
  const bytes = await readBytes(storage, key);
  return bytes === undefined ? undefined : (JSON.parse(bytes.toString('utf8')) as T);
}

/** The entries of a journal: one JSON line each; a last line cut short by a kill is not an entry. */
function journalEntries(bytes: Buffer): IndexedSegment[] {
  const text = bytes.toString('utf8');
  const complete = text.slice(0, text.lastIndexOf('\n') + 1);
  return complete
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as IndexedSegment);
}

/** Reads a recording's index from storage (empty when nothing was written). */
export async function readRecordingIndex(storage: ObjectStorage, prefix: string): Promise<RecordingIndex> {
  const tracks = (await readJson<RecordedTrack[]>(storage, tracksKey(prefix))) ?? [];
  const journal = await readBytes(storage, indexJournalKey(prefix));
  if (journal !== undefined) {
    return { segments: journalEntries(journal), tracks };
  }
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
  return { segments, tracks };
}

function journalText(segments: readonly IndexedSegment[]): Buffer {
  return Buffer.from(segments.map((segment) => `${JSON.stringify(segment)}\n`).join(''));
}

/**
 * Replaces a recording's segment list on storage with `segments` (crash recovery dropping what a
 * power loss did not keep), in the form the index already has there.
 */
export async function rewriteRecordingIndex(
  storage: ObjectStorage,
  prefix: string,
  segments: readonly IndexedSegment[],
): Promise<void> {
  if ((await storage.head(indexJournalKey(prefix))) !== null) {
    await storage.put(indexJournalKey(prefix), journalText(segments));
    return;
  }
  const chunks = Math.max(1, Math.ceil(segments.length / INDEX_CHUNK_ENTRIES));
  for (let chunk = 0; chunk < chunks; chunk++) {
    const slice = segments.slice(chunk * INDEX_CHUNK_ENTRIES, (chunk + 1) * INDEX_CHUNK_ENTRIES);
    await storage.put(indexChunkKey(prefix, chunk), Buffer.from(JSON.stringify(slice)));
  }
  for (let chunk = chunks; (await storage.head(indexChunkKey(prefix, chunk))) !== null; chunk++) {
    await storage.delete(indexChunkKey(prefix, chunk));
  }
}

/**
 * Appends segments to a recording's index on storage (one writer per recording, calls in order):
 * a line each to the journal where the store appends, else the chunks not yet written in full.
 */
export class SegmentIndexWriter {
  private readonly entries: IndexedSegment[] = [];
  private readonly tracks: RecordedTrack[] = [];
  /** Chunks before this one are written in full (chunked form). */
  private written = 0;
  /** Entries not yet in the journal (appended without `flush`). */
  private unwritten: IndexedSegment[] = [];
  private journal: Promise<ObjectAppender> | undefined;

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
   * Appends written segments. With `flush` (the default) they reach storage now; without, only
   * when a chunk fills up or the next flush comes — a writer with more segments queued batches
   * their index write (under a backlog a kill then loses at most those queued segments).
   */
  async append(segments: readonly IndexedSegment[], flush = true): Promise<void> {
    this.entries.push(...segments);
    if (this.storage.openAppender) {
      this.unwritten.push(...segments);
      if (flush) {
        await this.flushJournal();
      }
      return;
    }
    const full = Math.floor(this.entries.length / INDEX_CHUNK_ENTRIES);
    const last = flush ? Math.ceil(this.entries.length / INDEX_CHUNK_ENTRIES) - 1 : full - 1;
    for (let chunk = this.written; chunk <= last; chunk++) {
      const slice = this.entries.slice(chunk * INDEX_CHUNK_ENTRIES, (chunk + 1) * INDEX_CHUNK_ENTRIES);
      await this.storage.put(indexChunkKey(this.prefix, chunk), Buffer.from(JSON.stringify(slice)));
    }
    this.written = full;
  }

  /** Writes what is pending and brings the index to stable storage; the writer is done. */
  async close(): Promise<void> {
    await this.append([], true);
    if (this.journal) {
      const journal = await this.journal;
      this.journal = undefined;
      try {
        await journal.sync();
      } finally {
        await journal.close();
      }
    }
  }

  private async flushJournal(): Promise<void> {
    const open = this.storage.openAppender;
    if (this.unwritten.length === 0 || !open) {
      return;
    }
    const lines = journalText(this.unwritten);
    this.unwritten = [];
    this.journal ??= open.call(this.storage, indexJournalKey(this.prefix));
    await (await this.journal).append(lines);
  }
}
