/** Options of the CMAF packager (segment and part targets, window, limits) and their defaults. */
import { type Logger, silentLogger } from '../../../ports.js';
import type { SegmentSpool } from '../segment-spool.js';

/** What a CMAF packager may be told; every field has a default. */
export interface CmafPackagerOptions {
  /** Segments are cut at the first video keyframe at or after this duration (seconds, default 2). */
  readonly segmentTargetSeconds?: number;
  /** Parts close when the next sample would pass this duration (seconds, default 0.5; 0.1–2). */
  readonly partTargetSeconds?: number;
  /** Complete segments kept per track (default 10; at least 3). */
  readonly windowSegments?: number;
  /** A segment without a keyframe is cut anyway after this long (seconds, default max(10, 5 targets)). */
  readonly maxSegmentSeconds?: number;
  /** Wall clock for program date times and availability times (tests). */
  readonly now?: () => number;
  /** Where dropped units and failed parts are reported (bounded rate); default silent. */
  readonly log?: Logger;
  /** Called for every dropped unit or failed part (metrics). */
  readonly onFailure?: () => void;
  /**
   * Where complete segments older than the newest `memorySegments` are written, leaving memory
   * (default: every segment of the window stays in memory).
   */
  readonly spool?: SegmentSpool;
  /** Complete segments per track kept in memory when spooling (default 2: every part LL-HLS lists). */
  readonly memorySegments?: number;
  /**
   * Parts keep their samples' bytes where they are (`CmafPart.samples`, `CmafSegment.pieces`)
   * instead of copying them into blocks, for an owner that writes segments out with one gathered
   * write and serves nothing from memory (a recorder; ADR 0062).
   */
  readonly gatherSamples?: boolean;
}

/** Options with every default applied. */
export interface ResolvedCmafOptions {
  readonly segmentTargetSeconds: number;
  readonly partTargetSeconds: number;
  readonly windowSegments: number;
  readonly maxSegmentSeconds: number;
  readonly now: () => number;
  readonly log: Logger;
  readonly onFailure: (() => void) | undefined;
  readonly spool: SegmentSpool | undefined;
  readonly memorySegments: number;
  readonly gatherSamples: boolean;
}

/** Applies defaults and checks ranges; throws RangeError on values that cannot work. */
export function resolveCmafOptions(options: CmafPackagerOptions = {}): ResolvedCmafOptions {
  const segmentTargetSeconds = options.segmentTargetSeconds ?? 2;
  const partTargetSeconds = options.partTargetSeconds ?? 0.5;
  const windowSegments = options.windowSegments ?? 10;
  if (!(segmentTargetSeconds >= 0.5 && segmentTargetSeconds <= 30)) {
    throw new RangeError(`segmentTargetSeconds must be within 0.5–30, got ${segmentTargetSeconds}`);
  }
  if (!(partTargetSeconds >= 0.1 && partTargetSeconds <= 2 && partTargetSeconds <= segmentTargetSeconds)) {
    throw new RangeError(
      `partTargetSeconds must be within 0.1–2 and at most the segment target, got ${partTargetSeconds}`,
    );
  }
  if (!(Number.isInteger(windowSegments) && windowSegments >= 3 && windowSegments <= 1000)) {
    throw new RangeError(`windowSegments must be an integer within 3–1000, got ${windowSegments}`);
  }
  const maxSegmentSeconds = options.maxSegmentSeconds ?? Math.max(10, 5 * segmentTargetSeconds);
  if (!(maxSegmentSeconds >= segmentTargetSeconds && maxSegmentSeconds <= 120)) {
    throw new RangeError(`maxSegmentSeconds must be within the segment target and 120, got ${maxSegmentSeconds}`);
  }
  return {
    segmentTargetSeconds,
    partTargetSeconds,
    windowSegments,
    maxSegmentSeconds,
    now: options.now ?? Date.now,
    log: options.log ?? silentLogger,
    onFailure: options.onFailure,
    spool: options.spool,
    memorySegments: options.spool ? Math.max(1, options.memorySegments ?? 2) : windowSegments,
    gatherSamples: options.gatherSamples ?? false,
  };
}

/**
 * How long a request for a new stream's first playlist or manifest waits: `override` when given,
 * else the longest a first segment can take (the forced cut plus one target).
 */
export function firstSegmentWaitMs(options: ResolvedCmafOptions, override?: number): number {
  return override ?? 1000 * (options.maxSegmentSeconds + options.segmentTargetSeconds);
}
