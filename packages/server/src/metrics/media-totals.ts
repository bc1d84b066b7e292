/**
 * Monotonic totals of the media plane for counters: bytes ingested and sent, and units dropped,
 * over every stream this node held — the live ones read as they are, the ended ones added up
 * when they end (a counter must not fall when a stream goes away) — plus the bytes sent from
 * storage (recordings, chapters, clips, VOD), which no stream of the hub counts.
 */
import type { Hub, LiveStream } from '@airwave/media';

/** What one stream counted. */
interface StreamCounts {
  bytesIn: number;
  bytesOut: number;
  droppedTimestamps: number;
  droppedForReaders: number;
}

function countsOf(stream: LiveStream): StreamCounts {
  return {
    bytesIn: stream.stats.bytesIn,
    bytesOut: stream.stats.bytesOut,
    droppedTimestamps: stream.stats.droppedTimestamps,
    droppedForReaders: stream.readerDrops,
  };
}

/** Totals of a hub since this object was made. */
export class MediaTotals {
  private readonly ended: StreamCounts = { bytesIn: 0, bytesOut: 0, droppedTimestamps: 0, droppedForReaders: 0 };
  private storedBytesOut = 0;

  constructor(private readonly hub: Hub) {
    hub.addOutput((stream) => ({
      close: () => {
        const counts = countsOf(stream);
        this.ended.bytesIn += counts.bytesIn;
        this.ended.bytesOut += counts.bytesOut;
        this.ended.droppedTimestamps += counts.droppedTimestamps;
        this.ended.droppedForReaders += counts.droppedForReaders;
      },
    }));
  }

  /** `bytes` of an answer from storage (not a live stream's) were sent to a viewer. */
  sentFromStorage(bytes: number): void {
    this.storedBytesOut += bytes;
  }

  /** Every count, ended streams and live ones together (and what storage sent). */
  current(): Readonly<StreamCounts> {
    const total = { ...this.ended };
    total.bytesOut += this.storedBytesOut;
    for (const stream of this.hub.streams()) {
      const counts = countsOf(stream);
      total.bytesIn += counts.bytesIn;
      total.bytesOut += counts.bytesOut;
      total.droppedTimestamps += counts.droppedTimestamps;
      total.droppedForReaders += counts.droppedForReaders;
    }
    return total;
  }
}
