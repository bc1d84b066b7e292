/**
 * The wall clock of a packager created after its stream started: while the stream's history is
 * replayed into it, it reads each replayed unit's arrival time, so program date times and DASH
 * availability times match those an always-on packager would have given; otherwise the base clock.
 */

/** A clock that can be pinned to a replayed unit's arrival time. */
export class ReplayClock {
  private pinned: number | undefined;

  /** `base` is the clock outside replays (default Date.now). */
  constructor(private readonly base: () => number = Date.now) {}

  /** Current time in ms: the pinned arrival time during a replay, else the base clock. */
  readonly now = (): number => this.pinned ?? this.base();

  /** Pins the clock to `ms`, or releases it with undefined. */
  pin(ms: number | undefined): void {
    this.pinned = ms;
  }
}
