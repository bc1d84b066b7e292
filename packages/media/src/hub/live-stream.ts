/**
 * One live stream: the publisher's description, the last GOP for late joiners, a bounded history
 * of recent GOPs for packagers created on demand, and fan-out to readers. Synchronous readers
 * (packagers) run inline and must not block; queued readers (network viewers) have bounded queues
 * and drop to the next keyframe when slow.
 */
import { ProtocolError } from '../errors.js';
import type { Logger } from '../ports.js';
import type { MediaUnit } from '../stream/media-unit.js';
import type { StreamDescription, Track } from '../stream/track.js';
import { QueuedReader, type ReaderOptions } from './reader.js';
import type { ReplayClock } from './replay-clock.js';
import { TimestampGuard } from './timestamp-guard.js';
import { type HistoryLimits, UnitHistory } from './unit-history.js';
import { ViewerSessions } from './viewer-sessions.js';

/** Callbacks of a synchronous reader (a packager or recorder running in the event loop). */
export interface StreamSink {
  /** The description changed (first publish, reconnect with new codec config). */
  onDescription?(description: StreamDescription): void;
  /** One unit, already timestamp-normalised. */
  onUnit(unit: MediaUnit): void;
  /** The publisher dropped; the stream may resume inside the reconnect window. */
  onInterrupted?(): void;
  /** The stream ended for good. */
  onEnd?(reason: string): void;
}

/** Most bytes the GOP cache holds; a longer GOP keeps only its tail from the last keyframe. */
export const GOP_CACHE_MAX_BYTES = 32 * 1024 * 1024;

/** Counters of one live stream. */
export interface LiveStreamStats {
  units: number;
  bytesIn: number;
  droppedTimestamps: number;
  rebased: number;
  /** Media bytes delivered to viewers by every output (counted by the delivery layer). */
  bytesOut: number;
}

/** One live stream and its readers. */
export class LiveStream {
  readonly stats: LiveStreamStats = { units: 0, bytesIn: 0, droppedTimestamps: 0, rebased: 0, bytesOut: 0 };
  readonly viewers: ViewerSessions;
  readonly startedAt = new Date();
  private currentDescription: StreamDescription | undefined;
  private gop: MediaUnit[] = [];
  private gopBytes = 0;
  private readonly sinks = new Set<StreamSink>();
  private readonly readers = new Set<QueuedReader>();
  /** Units dropped for slow queued readers that have closed since. */
  private closedReaderDrops = 0;
  /** Consumers outside the hub's viewers and readers that wait for units (relays to other nodes). */
  private watchers = 0;
  /** Open queued readers that do not make the stream watched (`watches: false`: pushes). */
  private patientReaders = 0;
  private readonly guards = new Map<number, TimestampGuard>();
  private videoTrackId: number | undefined;
  private ended: string | undefined;
  private interrupted = false;
  /** After a reconnect: where the shared timeline continues, applied at the first new unit. */
  private resumeAtSeconds: number | undefined;
  /** After a reconnect: the shift applied to the returning publisher's timestamps, for tracks it adds later. */
  private resumeOffsetSeconds: number | undefined;
  /** Recent GOPs, kept once an on-demand output asked for them (`retainHistory`). */
  private history: UnitHistory | undefined;

  constructor(
    /** Stream UUID. */
    readonly streamId: string,
    /** Public playback id. */
    readonly playbackId: string,
    private readonly log: Logger,
    viewerIdleMs?: number,
    /** Wall clock stamped on history units (their arrival time). */
    private readonly now: () => number = Date.now,
  ) {
    this.viewers = new ViewerSessions(viewerIdleMs);
  }

  /** The publisher's current description, once it declared its tracks. */
  get description(): StreamDescription | undefined {
    return this.currentDescription;
  }

  /** Reason the stream ended, or undefined while it is live or reconnecting. */
  get endReason(): string | undefined {
    return this.ended;
  }

  /** True between a publisher drop and its return (or the end of the reconnect window). */
  get isInterrupted(): boolean {
    return this.interrupted;
  }

  /** Units of the current GOP, starting at its keyframe. */
  get gopCache(): readonly MediaUnit[] {
    return this.gop;
  }

  /** Declares or replaces the tracks. */
  setDescription(description: StreamDescription): void {
    this.assertOpen();
    this.currentDescription = description;
    this.videoTrackId = description.tracks.find((t) => t.kind === 'video')?.id;
    for (const track of description.tracks) {
      this.guards.get(track.id)?.retime(track.timescale, typicalStep(track));
      if (!this.guards.has(track.id)) {
        const guard = new TimestampGuard(track.timescale, typicalStep(track));
        if (this.resumeOffsetSeconds !== undefined) {
          guard.resume(this.resumeOffsetSeconds);
        }
        this.guards.set(track.id, guard);
      }
    }
    this.gop = [];
    this.gopBytes = 0;
    this.history?.describe(description, this.now());
    for (const sink of this.sinks) {
      sink.onDescription?.(description);
    }
  }

  /** Accepts one unit from the publisher; never waits for readers. */
  write(unit: MediaUnit): void {
    if (this.ended) {
      return;
    }
    const guard = this.guards.get(unit.trackId);
    if (guard && this.resumeAtSeconds !== undefined) {
      const offsetSeconds = this.resumeAtSeconds - unit.dts / guard.timescale;
      this.resumeAtSeconds = undefined;
      this.resumeOffsetSeconds = offsetSeconds;
      for (const each of this.guards.values()) {
        each.resume(offsetSeconds);
      }
    }
    if (!guard) {
      this.stats.droppedTimestamps++;
      return;
    }
    const verdict = guard.accept(unit);
    if (verdict.action === 'drop') {
      this.stats.droppedTimestamps++;
      if (this.stats.droppedTimestamps % 100 === 1) {
        this.log.warn({ trackId: unit.trackId, dropped: this.stats.droppedTimestamps }, verdict.reason);
      }
      return;
    }
    if (verdict.action === 'rebase') {
      this.stats.rebased++;
      this.log.info({ trackId: unit.trackId }, `re-based timestamps: ${verdict.reason}`);
    }
    const accepted = verdict.unit;
    this.stats.units++;
    this.stats.bytesIn += accepted.data.byteLength;
    this.remember(accepted);
    if (this.history) {
      this.record(this.history, accepted, guard.timescale);
    }
    for (const sink of this.sinks) {
      sink.onUnit(accepted);
    }
    for (const reader of this.readers) {
      reader.offer(accepted);
    }
  }

  /** Adds a synchronous reader; it gets the description and the cached GOP at once. */
  attach(sink: StreamSink, replayGop = true): () => void {
    this.sinks.add(sink);
    if (this.currentDescription) {
      sink.onDescription?.(this.currentDescription);
      if (replayGop) {
        for (const unit of this.gop) {
          sink.onUnit(unit);
        }
      }
    }
    if (this.ended) {
      sink.onEnd?.(this.ended);
    }
    return () => this.sinks.delete(sink);
  }

  /**
   * Whether a viewer waits for this stream's units: a playback session is active (any protocol)
   * or a queued reader is open. Packagers without viewers do not count: nobody sees when their
   * output appears, so ingest may batch its reads of an unwatched stream.
   */
  get watched(): boolean {
    return this.viewers.count > 0 || this.readers.size > this.patientReaders || this.watchers > 0;
  }

  /** Marks the stream watched (a relay to another node) until the returned function is called. */
  watch(): () => void {
    this.watchers++;
    let released = false;
    return () => {
      if (!released) {
        released = true;
        this.watchers--;
      }
    };
  }

  /**
   * Keeps a history of at least `limits` (widened when several outputs ask) from now on, so
   * that `prime` can bring a late packager up to date. Costs memory only, no packaging.
   */
  retainHistory(limits: HistoryLimits): void {
    if (this.history) {
      this.history.widen(limits);
    } else {
      this.history = new UnitHistory(limits);
      if (this.currentDescription) {
        this.history.describe(this.currentDescription, this.now());
      }
    }
  }

  /** Payload bytes the GOP cache holds (the units shared with the history and packagers count here). */
  get gopCacheBytes(): number {
    return this.gopBytes;
  }

  /** Payload bytes and whole GOPs the history holds (0 without one). */
  get historySize(): { readonly bytes: number; readonly gops: number } {
    return { bytes: this.history?.byteLength ?? 0, gops: this.history?.gopCount ?? 0 };
  }

  /**
   * Adds a synchronous reader primed from the history: the description in force at its start,
   * then every unit, description change and publisher drop since, in order, with `clock` pinned
   * to each one's arrival time; then live units. Without a history it is `attach`.
   */
  prime(sink: StreamSink, clock?: ReplayClock): () => void {
    const history = this.history;
    if (!history) {
      return this.attach(sink);
    }
    this.sinks.add(sink);
    history.replay(sink, (at) => clock?.pin(at));
    if (this.ended) {
      sink.onEnd?.(this.ended);
    }
    return () => this.sinks.delete(sink);
  }

  /** Opens a queued reader starting at the cached GOP's keyframe (`watches: false`: see ReaderOptions). */
  openReader(options: ReaderOptions = {}): QueuedReader {
    const patient = options.watches === false;
    const reader = new QueuedReader(
      options,
      (unit) => this.videoTrackId === undefined || (unit.trackId === this.videoTrackId && unit.key),
      (closed) => {
        if (this.readers.delete(closed)) {
          this.closedReaderDrops += closed.stats.dropped;
          this.patientReaders -= patient ? 1 : 0;
        }
      },
    );
    if (this.ended) {
      reader.close();
      return reader;
    }
    this.readers.add(reader);
    this.patientReaders += patient ? 1 : 0;
    for (const unit of this.gop) {
      reader.offer(unit);
    }
    return reader;
  }

  /** Units dropped for slow queued readers (open and closed) since the stream started. */
  get readerDrops(): number {
    let dropped = this.closedReaderDrops;
    for (const reader of this.readers) {
      dropped += reader.stats.dropped;
    }
    return dropped;
  }

  /** Number of queued readers (network viewers attached to the hub). */
  get readerCount(): number {
    return this.readers.size;
  }

  /** The publisher dropped: readers stay, timestamps will be re-based on resume. */
  interrupt(): void {
    this.interrupted = true;
    this.history?.interrupt(this.now());
    for (const sink of this.sinks) {
      sink.onInterrupted?.();
    }
  }

  /** A publisher returned inside the reconnect window. */
  resume(): void {
    this.interrupted = false;
    const due = [...this.guards.values()]
      .map((guard) => guard.expectedNextSeconds())
      .filter((seconds): seconds is number => seconds !== undefined);
    this.resumeAtSeconds = due.length > 0 ? Math.max(...due) : undefined;
    this.resumeOffsetSeconds = undefined;
    for (const guard of this.guards.values()) {
      guard.resume();
    }
  }

  /**
   * Ends the stream: every reader and sink is told; queued readers drain what they hold, then end.
   * The history stays, so a packager primed during an ended grace period shows the stream's end.
   */
  end(reason: string): void {
    if (this.ended) {
      return;
    }
    this.ended = reason;
    this.interrupted = false;
    for (const sink of this.sinks) {
      sink.onEnd?.(reason);
    }
    for (const reader of [...this.readers]) {
      reader.finish();
    }
    this.viewers.clear();
    this.gop = [];
    this.gopBytes = 0;
  }

  private record(history: UnitHistory, unit: MediaUnit, timescale: number): void {
    const onTimeline = this.videoTrackId === undefined || unit.trackId === this.videoTrackId;
    history.push(unit, onTimeline && unit.key, onTimeline ? unit.dts / timescale : undefined, this.now());
  }

  private remember(unit: MediaUnit): void {
    const startsGop = this.videoTrackId === undefined ? unit.key : unit.trackId === this.videoTrackId && unit.key;
    if (startsGop) {
      this.gop = [];
      this.gopBytes = 0;
    } else if (this.gop.length === 0 && this.videoTrackId !== undefined) {
      return;
    }
    this.gop.push(unit);
    this.gopBytes += unit.data.byteLength;
    if (this.gopBytes > GOP_CACHE_MAX_BYTES) {
      this.gop = [];
      this.gopBytes = 0;
    }
  }

  private assertOpen(): void {
    if (this.ended) {
      throw new ProtocolError(`stream ${this.streamId} has ended`);
    }
  }
}

/** A frame's usual duration in the track's timescale, used until the track's own timestamps tell. */
export function typicalStep(track: Track): number {
  if (track.kind === 'video') {
    return Math.round(track.timescale / (track.fps ?? 30));
  }
  return track.codec === 'aac' ? 1024 : Math.round(track.timescale / 50);
}
