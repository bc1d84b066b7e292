/**
 * Turns a live unit sequence into ISO/IEC 14496-12 movie fragments for progressive MP4: one
 * fragment per GOP or per `fragmentSeconds` of video, whichever is shorter. The timeline starts
 * at 0 and stays continuous across reader drops (every track shifts by the same wall-clock gap).
 */
import { buildFragment, type TrackFragment } from '../../formats/fmp4/fragment.js';
import { trackFragmentFromUnits } from '../../formats/fmp4/samples.js';
import { typicalStep } from '../../hub/live-stream.js';
import type { MediaUnit } from '../../stream/media-unit.js';
import type { Track } from '../../stream/track.js';

/** Options of a live fragmenter. */
export interface LiveFragmenterOptions {
  /** Longest fragment in seconds of video (default 0.5); a keyframe always starts a fragment. */
  readonly fragmentSeconds?: number;
}

interface TrackState {
  readonly track: Track;
  /** Added to every dts/pts of the track to get output time. */
  offset: number;
  /** Output dts of the last sample handed to a fragment. */
  lastDts: number | undefined;
  /** Output duration of the last sample handed to a fragment. */
  lastDuration: number;
  batch: MediaUnit[];
  /** Video tracks start at a keyframe. */
  waitingForKey: boolean;
}

/** Builds fragments from units in decode order. */
export class LiveFragmenter {
  private readonly states = new Map<number, TrackState>();
  private readonly timeline: TrackState | undefined;
  private readonly fragmentSeconds: number;
  private sequence = 1;
  private started = false;

  constructor(tracks: readonly Track[], options: LiveFragmenterOptions = {}) {
    this.fragmentSeconds = options.fragmentSeconds ?? 0.5;
    for (const track of tracks) {
      this.states.set(track.id, {
        track,
        offset: 0,
        lastDts: undefined,
        lastDuration: typicalStep(track),
        batch: [],
        waitingForKey: track.kind === 'video',
      });
    }
    const timelineTrack = tracks.find((track) => track.kind === 'video') ?? tracks[0];
    this.timeline = timelineTrack ? this.states.get(timelineTrack.id) : undefined;
  }

  /** Fragments written so far. */
  get fragments(): number {
    return this.sequence - 1;
  }

  /**
   * Accepts the next unit; `afterGap` says units were dropped before it (the timeline is then
   * re-joined so playback continues without a hole). Returns the fragments completed by it.
   */
  push(unit: MediaUnit, afterGap = false): Uint8Array[] {
    const state = this.states.get(unit.trackId);
    const timeline = this.timeline;
    if (!state || !timeline) {
      return [];
    }
    if (state.waitingForKey && !unit.key) {
      return [];
    }
    state.waitingForKey = false;
    const out: Uint8Array[] = [];
    if (!this.started) {
      this.started = true;
      this.shiftAll(unit, state, 0);
    } else if (afterGap) {
      this.emit(out, undefined);
      this.shiftAll(unit, state, this.outputEndSeconds());
    }
    const dts = unit.dts + state.offset;
    const floor = state.batch[state.batch.length - 1]?.dts ?? state.lastDts ?? 0;
    if (dts < floor) {
      return out;
    }
    if (state === timeline) {
      const first = state.batch[0];
      const startsGop = unit.key && state.track.kind === 'video';
      const full = first !== undefined && dts - first.dts >= this.fragmentSeconds * state.track.timescale;
      if (startsGop || full) {
        this.emit(out, dts);
      }
    }
    state.batch.push(dts === unit.dts ? unit : { ...unit, dts, pts: unit.pts + state.offset });
    return out;
  }

  /** Writes whatever is batched (the stream ended). */
  flush(): Uint8Array | undefined {
    const out: Uint8Array[] = [];
    this.emit(out, undefined);
    return out[0];
  }

  /** Shifts every track so `unit` lands at `targetSeconds` of output time. */
  private shiftAll(unit: MediaUnit, state: TrackState, targetSeconds: number): void {
    const deltaSeconds = targetSeconds - (unit.dts + state.offset) / state.track.timescale;
    for (const each of this.states.values()) {
      each.offset += Math.round(deltaSeconds * each.track.timescale);
    }
  }

  /** End of the timeline track's latest sample written, in seconds of output time. */
  private outputEndSeconds(): number {
    const timeline = this.timeline;
    if (!timeline || timeline.lastDts === undefined) {
      return 0;
    }
    return (timeline.lastDts + timeline.lastDuration) / timeline.track.timescale;
  }

  /** Builds one fragment of everything batched; the timeline track's last sample ends at `timelineNext`. */
  private emit(out: Uint8Array[], timelineNext: number | undefined): void {
    const trafs: TrackFragment[] = [];
    for (const state of this.states.values()) {
      if (state.batch.length === 0) {
        continue;
      }
      const traf = trackFragmentFromUnits(
        state.track.id,
        state.batch,
        state === this.timeline ? timelineNext : undefined,
        state.lastDuration,
      );
      const last = traf.samples[traf.samples.length - 1];
      const lastUnit = state.batch[state.batch.length - 1];
      state.lastDts = lastUnit?.dts;
      state.lastDuration = last?.duration ?? state.lastDuration;
      state.batch = [];
      trafs.push(traf);
    }
    if (trafs.length > 0) {
      out.push(buildFragment(this.sequence++, trafs));
    }
  }
}
