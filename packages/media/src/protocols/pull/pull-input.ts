/**
 * The contract between a pull session and one connection attempt to its source: the attempt
 * reports the address it dialled, the tracks and the units, and ends exactly once with why.
 */
import type { Logger } from '../../ports.js';
import type { MediaUnit } from '../../stream/media-unit.js';
import type { StreamDescription } from '../../stream/track.js';
import type { PullAddressGuard, PullRefusalKind } from './address-guard.js';
import type { HlsHistory } from './hls-history.js';
import type { PullTarget } from './pull-target.js';

/** Where an attempt delivers what it reads. */
export interface PullInputSink {
  /** The address the attempt dialled (after the guard checked it). */
  resolved(address: string): void;
  /** The tracks (again when they change). */
  describe(description: StreamDescription): void;
  /** One access unit, on the tracks last described. */
  unit(unit: MediaUnit): void;
  /** Whether a viewer waits for the units (an input may batch its reads while not); true when unknown. */
  watched?(): boolean;
}

/** How an attempt ended. */
export type PullEndKind = PullRefusalKind | 'source_ended' | 'failed' | 'stalled' | 'stopped' | 'redirected';

/** Why an attempt ended; `message` never carries credentials. */
export interface PullEnd {
  readonly kind: PullEndKind;
  readonly message: string;
  /** For `redirected`: where the source sent us (dialled by the next attempt, through the guard). */
  readonly redirectTo?: string;
}

/** One running attempt. */
export interface PullInput {
  /** Settles once, when the attempt is over (never rejects). */
  readonly ended: Promise<PullEnd>;
  /** Ends the attempt (idempotent); `ended` then settles with `stopped` unless it already ended otherwise. */
  stop(reason: string, kind?: PullEndKind): void;
}

/** What every attempt gets. */
export interface PullInputContext {
  readonly target: PullTarget;
  readonly sink: PullInputSink;
  readonly guard: PullAddressGuard;
  readonly log: Logger;
  /** What earlier attempts of the pull delivered from an HLS source (not replayed once it ended). */
  readonly history?: HlsHistory;
}

/** Opens one attempt for a target. */
export type PullInputFactory = (context: PullInputContext) => PullInput;

/** A settle-once end, shared by the inputs. */
export class EndOnce {
  readonly ended: Promise<PullEnd>;
  private resolve: (end: PullEnd) => void = () => undefined;
  private value: PullEnd | undefined;

  constructor() {
    this.ended = new Promise((resolve) => {
      this.resolve = resolve;
    });
  }

  /** Whether the end is decided. */
  get settled(): boolean {
    return this.value !== undefined;
  }

  /** Decides the end unless it already is; returns whether this call decided it. */
  settle(end: PullEnd): boolean {
    if (this.value) {
      return false;
    }
    this.value = end;
    this.resolve(end);
    return true;
  }
}
