/**
 * The key-frame interval of each video track of a live publish, measured from the decode times of
 * consecutive key frames the node receives (a publisher reconnecting starts the measure again). A
 * new value counts as a change worth persisting only when it differs from the last one persisted
 * by more than a tenth, so a steady GOP is written once and a wandering one (scene cuts) rarely.
 */
import type { MediaUnit, Track } from '@airwave/media';
import type { TrackInfo } from '../domain/streams/stream.js';

/** Relative change of the interval that is worth persisting. */
const CHANGE = 0.1;

/** Measures and remembers the intervals of one stream. */
export class KeyframeIntervals {
  private readonly timescales = new Map<number, number>();
  private readonly lastKey = new Map<number, number>();
  private readonly measured = new Map<number, number>();
  private readonly persisted = new Map<number, number>();

  /** Takes the tracks of a (new) description: only video tracks are measured. */
  describe(tracks: readonly Track[]): void {
    this.timescales.clear();
    for (const track of tracks) {
      if (track.kind === 'video') {
        this.timescales.set(track.id, track.timescale);
      }
    }
  }

  /** Looks at one unit; true when a key frame moved an interval enough to persist it. */
  observe(unit: MediaUnit): boolean {
    const timescale = this.timescales.get(unit.trackId);
    if (timescale === undefined) {
      return false;
    }
    if (unit.discontinuity) {
      this.lastKey.delete(unit.trackId);
    }
    if (!unit.key) {
      return false;
    }
    const previous = this.lastKey.get(unit.trackId);
    this.lastKey.set(unit.trackId, unit.dts);
    if (previous === undefined || unit.dts <= previous) {
      return false;
    }
    const ms = Math.round(((unit.dts - previous) * 1000) / timescale);
    this.measured.set(unit.trackId, ms);
    const stored = this.persisted.get(unit.trackId);
    return stored === undefined || Math.abs(ms - stored) > stored * CHANGE;
  }

  /** `tracks` with the measured interval on each video track; what it answers counts as persisted. */
  annotate(tracks: readonly TrackInfo[]): TrackInfo[] {
    return tracks.map((track) => {
      const ms = track.kind === 'video' ? this.measured.get(track.id) : undefined;
      if (ms === undefined) {
        return track;
      }
      this.persisted.set(track.id, ms);
      return { ...track, keyframeIntervalMs: ms };
    });
  }
}
