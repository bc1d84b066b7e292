/**
 * The packs a recorder appends its segments to on a store that appends (ADR 0062, 0089): one pack
 * per recording for every track, one appender open at a time and a new pack every PACK_SEGMENTS
 * segments, so the segments one cut closes (video and audio) cost one write, written around the
 * page cache where the store can (ADR 0081). A batch's places (pack, offset) are decided when it
 * is queued; its bytes are appended in that order, and the index names them only once they are.
 */
import { PACK_SEGMENTS, sharedPackKey } from '../../domain/recordings/recording-keys.js';
import type { ObjectAppender, ObjectStorage } from '../../storage/object-storage.js';

/** Where a packed segment lies: `shared` marks a pack holding every track's segments (ADR 0089). */
export interface PackPlace {
  readonly pack: number;
  readonly offset: number;
  readonly shared: true;
}

/** The packs of one recording. */
export class SegmentPacks {
  /** Segments placed so far: a pack is numbered by its first segment's place in the recording. */
  private placed = 0;
  private current: { pack: number; count: number; size: number } | undefined;
  private open: { pack: number; appender: Promise<ObjectAppender> } | undefined;

  constructor(
    private readonly openAppender: (key: string) => Promise<ObjectAppender>,
    private readonly prefix: string,
    /** Segments per pack (tests use fewer). */
    private readonly packSegments = PACK_SEGMENTS,
  ) {}

  /** Packs on `storage` when it appends, else undefined (each segment is then an object of its own). */
  static of(storage: ObjectStorage, prefix: string, packSegments?: number): SegmentPacks | undefined {
    const open = storage.openAppender;
    return open
      ? new SegmentPacks((key) => open.call(storage, key, { direct: true }), prefix, packSegments)
      : undefined;
  }

  /** Places a batch of segments (`sizes` in bytes, in write order) back to back in one pack; called in queue order. */
  place(sizes: readonly number[]): PackPlace[] {
    let current = this.current;
    if (!current || current.count >= this.packSegments) {
      current = { pack: this.placed, count: 0, size: 0 };
      this.current = current;
    }
    const places: PackPlace[] = [];
    for (const size of sizes) {
      places.push({ pack: current.pack, offset: current.size, shared: true });
      current.size += size;
    }
    current.count += sizes.length;
    this.placed += sizes.length;
    return places;
  }

  /** Appends a placed batch's bytes (every segment's pieces in placement order); one call at a time. */
  async write(pack: number, pieces: readonly Uint8Array[]): Promise<void> {
    let open = this.open;
    if (open?.pack !== pack) {
      const previous = open;
      open = { pack, appender: this.openAppender(sharedPackKey(this.prefix, pack)) };
      this.open = open;
      if (previous) {
        await (await previous.appender).close();
      }
    }
    await (await open.appender).append(pieces);
  }

  /** Brings the open pack to stable storage and closes it (the recording is over). */
  async close(): Promise<void> {
    const open = this.open;
    this.open = undefined;
    if (!open) {
      return;
    }
    const opened = await open.appender;
    try {
      await opened.sync();
    } finally {
      await opened.close();
    }
  }
}
