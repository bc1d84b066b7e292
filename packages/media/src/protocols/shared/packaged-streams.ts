/**
 * One packager per live stream of a hub, looked up by playback id, for the request-based
 * protocols (classic HLS, LL-HLS, DASH). On demand (the default of the server), a stream is
 * packaged only while viewers ask for it: the first request creates the packager and primes it
 * from the stream's history, and it is dropped after `packagerIdleMs` without requests. Always
 * mode packages every stream from publish on. A republished playback id gets a fresh packager;
 * an ended stream keeps answering for a grace period so players see its end (EXT-X-ENDLIST of
 * RFC 8216 §4.3.3.4, a static MPD of ISO/IEC 23009-1 §5.4).
 */
import type { Hub, StreamOutput } from '../../hub/hub.js';
import { IdleSweeper } from '../../hub/idle-sweeper.js';
import type { LiveStream, StreamSink } from '../../hub/live-stream.js';
import type { ReplayClock } from '../../hub/replay-clock.js';
import { HISTORY_MAX_BYTES, type HistoryLimits } from '../../hub/unit-history.js';
import type { PlaybackProtocol } from '../../hub/viewer-sessions.js';
import { errorResponse, notReady, type PlayRequest, type PlayResponse, playbackIdNotFound } from './http-types.js';

/** What the registry needs of a packager: a stream sink that remembers why its stream ended. */
export interface EndingPackager extends StreamSink {
  /** Why the stream ended, undefined while it is live or reconnecting. */
  readonly ended: string | undefined;
  onEnd(reason: string): void;
  /** Bytes of media output the packager holds (its window), for the memory metrics. */
  readonly heldBytes?: number;
  /** Called once the registry forgets the packager: release what it holds outside the heap (files). */
  dispose?(): void;
}

/** A packaged stream. */
export interface PackagedStream<P extends EndingPackager> {
  readonly stream: LiveStream;
  readonly packager: P;
}

/** A new packager and the clock it reads, pinned to arrival times while it is primed. */
export interface NewPackager<P extends EndingPackager> {
  readonly packager: P;
  readonly clock?: ReplayClock;
}

/** When streams are packaged: from publish on, or only while viewers ask. */
export type PackagingMode = 'always' | 'on-demand';

/** Options of a set of packaged streams. */
export interface PackagingOptions {
  /** `always` (the library default) packages from publish on; `on-demand` from the first request. */
  readonly packaging?: PackagingMode;
  /** On demand: a live stream's packager is dropped after this long without requests (default 60 s). */
  readonly packagerIdleMs?: number;
  /** How long an ended stream keeps answering (default 60 s). */
  readonly endedGraceMs?: number;
  /** Clock of the idle check (tests; default Date.now). */
  readonly idleClock?: () => number;
}

interface Held<P extends EndingPackager> {
  readonly stream: LiveStream;
  current: PackagedStream<P> | undefined;
  detach: (() => void) | undefined;
  lastRequest: number;
  timer: NodeJS.Timeout | undefined;
}

/** True when the entry's stream is live (or reconnecting) and has a packager. */
function packagesLive(entry: Held<EndingPackager>): boolean {
  return entry.current !== undefined && !entry.stream.endReason;
}

/** Default of how long an ended stream keeps answering. */
export const DEFAULT_ENDED_GRACE_MS = 60_000;
/** Default of how long an on-demand packager lives without requests. */
export const DEFAULT_PACKAGER_IDLE_MS = 60_000;

/** The packagers of every stream of one hub. */
export class PackagedStreams<P extends EndingPackager> {
  private readonly entries = new Map<string, Held<P>>();
  private readonly mode: PackagingMode;
  private readonly idleMs: number;
  private readonly endedGraceMs: number;
  private readonly clock: () => number;
  private readonly sweeper: IdleSweeper;

  /** `history` is what a primed packager needs to fill its window (on demand only). */
  constructor(
    hub: Hub,
    private readonly create: (stream: LiveStream) => NewPackager<P>,
    private readonly history: Omit<HistoryLimits, 'maxBytes'> & { readonly maxBytes?: number },
    options: PackagingOptions = {},
  ) {
    this.mode = options.packaging ?? 'always';
    this.idleMs = options.packagerIdleMs ?? DEFAULT_PACKAGER_IDLE_MS;
    this.endedGraceMs = options.endedGraceMs ?? DEFAULT_ENDED_GRACE_MS;
    this.clock = options.idleClock ?? Date.now;
    this.sweeper = new IdleSweeper(
      this.idleMs,
      () => this.sweep(),
      () => this.hasLivePackager(),
    );
    hub.addOutput((stream) => this.open(stream));
  }

  /**
   * The packaged stream with this playback id (live, reconnecting, or ended within the grace
   * period), its packager created and primed from the stream's history when it has none.
   */
  get(playbackId: string): PackagedStream<P> | undefined {
    const entry = this.entries.get(playbackId);
    if (!entry) {
      return undefined;
    }
    entry.lastRequest = this.clock();
    return entry.current ?? this.start(entry);
  }

  /** True while a packager exists for this playback id (none on demand before the first request). */
  isPackaging(playbackId: string): boolean {
    return this.entries.get(playbackId)?.current !== undefined;
  }

  /**
   * The packaged stream a viewer request names, counting the viewer under `protocol` while the
   * stream is live; the 404 answer when there is none.
   */
  forViewer(req: PlayRequest, protocol: PlaybackProtocol): PackagedStream<P> | PlayResponse {
    const packaged = this.get(req.playbackId);
    if (!packaged) {
      return playbackIdNotFound(req.playbackId);
    }
    if (packaged.packager.ended === undefined) {
      packaged.stream.viewers.touch(req.sessionId, protocol);
    }
    return packaged;
  }

  /**
   * On demand: drops the packagers of live streams without a request for longer than the idle
   * time (a later request primes a new one). Runs on a timer; returns how many were dropped.
   */
  sweep(now = this.clock()): number {
    let dropped = 0;
    for (const entry of this.entries.values()) {
      if (this.mode === 'on-demand' && packagesLive(entry) && now - entry.lastRequest > this.idleMs) {
        entry.detach?.();
        entry.detach = undefined;
        entry.current?.packager.dispose?.();
        entry.current = undefined;
        dropped++;
      }
    }
    return dropped;
  }

  /** Bytes the packagers of every stream hold (live and within the ended grace period). */
  heldBytes(): number {
    let total = 0;
    for (const entry of this.entries.values()) {
      total += entry.current?.packager.heldBytes ?? 0;
    }
    return total;
  }

  /** Forgets every stream and stops the grace timers (shutdown). */
  close(): void {
    for (const entry of this.entries.values()) {
      clearTimeout(entry.timer);
      entry.detach?.();
      entry.current?.packager.dispose?.();
    }
    this.entries.clear();
    this.sweeper.stop();
  }

  /** True while some live stream has a packager (what the idle sweep watches). */
  private hasLivePackager(): boolean {
    for (const entry of this.entries.values()) {
      if (packagesLive(entry)) {
        return true;
      }
    }
    return false;
  }

  private start(entry: Held<P>): PackagedStream<P> {
    const { packager, clock } = this.create(entry.stream);
    const current = { stream: entry.stream, packager };
    entry.current = current;
    entry.detach = entry.stream.prime(packager, clock);
    if (this.mode === 'on-demand') {
      this.sweeper.ensure();
    }
    return current;
  }

  private open(stream: LiveStream): StreamOutput {
    const previous = this.entries.get(stream.playbackId);
    clearTimeout(previous?.timer);
    previous?.current?.packager.dispose?.();
    const entry: Held<P> = {
      stream,
      current: undefined,
      detach: undefined,
      lastRequest: this.clock(),
      timer: undefined,
    };
    this.entries.set(stream.playbackId, entry);
    if (this.mode === 'always') {
      this.start(entry);
    } else {
      stream.retainHistory({ maxBytes: HISTORY_MAX_BYTES, ...this.history });
    }
    return {
      close: () => {
        if (entry.current) {
          entry.detach?.();
          entry.detach = undefined;
          entry.current.packager.onEnd(stream.endReason ?? 'stream closed');
        }
        clearTimeout(entry.timer);
        entry.timer = setTimeout(() => {
          if (this.entries.get(stream.playbackId) === entry) {
            this.entries.delete(stream.playbackId);
            entry.current?.packager.dispose?.();
          }
        }, this.endedGraceMs);
        entry.timer.unref();
      },
    };
  }
}

/**
 * The answer when a packager has no segment: 503 (try again) while its stream is live, 404 once
 * it ended without producing one.
 */
export function noSegmentYet(packager: EndingPackager, playbackId: string): PlayResponse {
  if (packager.ended !== undefined) {
    return errorResponse(404, 'playback_id_not_found', `the stream of playback id ${playbackId} ended without media`);
  }
  return notReady('the stream has not produced a segment yet');
}
