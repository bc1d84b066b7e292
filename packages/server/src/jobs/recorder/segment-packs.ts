/**
 * The packs a recorder appends its segments to on a store that appends (ADR 0062): per track one
 * appender open at a time and a new pack every PACK_SEGMENTS segments, so a closed segment costs
 * one write instead of creating a file, written around the page cache where the store can (ADR 0081).
 * A segment's place (pack, offset) is decided when it is queued; its bytes are appended in that
 * order, and the index names it only once they are.
 */
import type { CmafTrackName } from '@airwave/media/protocols/shared/cmaf/cmaf-types';
import { PACK_SEGMENTS, packKey } from '../../domain/recordings/recording-keys.js';
import type { ObjectAppender, ObjectStorage } from '../../storage/object-storage.js';

/** Where a packed segment lies. */
export interface PackPlace {
  readonly pack: number;
  readonly offset: number;
}

/** The packs of one recording. */
export class SegmentPacks {
  private readonly places = new Map<CmafTrackName, { pack: number; count: number; size: number }>();
  private readonly open = new Map<CmafTrackName, { pack: number; appender: Promise<ObjectAppender> }>();

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

  /** Places the next segment of `track` (segment `msn`, `bytes` long); called in queue order. */
  place(track: CmafTrackName, msn: number, bytes: number): PackPlace {
    let place = this.places.get(track);
    if (!place || place.count >= this.packSegments) {
      place = { pack: msn, count: 0, size: 0 };
      this.places.set(track, place);
    }
    const offset = place.size;
    place.size += bytes;
    place.count++;
    return { pack: place.pack, offset };
  }

  /** Appends a placed segment's bytes; per track in placement order, one call at a time. */
  async write(track: CmafTrackName, pack: number, pieces: readonly Uint8Array[]): Promise<void> {
    let open = this.open.get(track);
    if (open?.pack !== pack) {
      const previous = open;
      open = { pack, appender: this.openAppender(packKey(this.prefix, track, pack)) };
      this.open.set(track, open);
      if (previous) {
        await (await previous.appender).close();
      }
    }
    await (await open.appender).append(pieces);
  }

  /** Brings the open packs to stable storage and closes them (the recording is over). */
  async close(): Promise<void> {
    const open = [...this.open.values()];
    this.open.clear();
    await Promise.all(
      open.map(async ({ appender }) => {
        const opened = await appender;
        try {
          await opened.sync();
        } finally {
          await opened.close();
        }
      }),
    );
  }
}
