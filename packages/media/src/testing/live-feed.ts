/**
 * Test-only live source: replays the units of an encoded file as if an encoder kept sending,
 * pass after pass, with timestamps continuing where the previous pass ended.
 */
import type { MediaUnit } from '../stream/media-unit.js';
import type { Track } from '../stream/track.js';

/** Seconds one pass of `units` lasts: the latest end of any track, one frame after its last unit. */
export function passSeconds(tracks: readonly Track[], units: readonly MediaUnit[]): number {
  let end = 0;
  for (const track of tracks) {
    const own = units.filter((unit) => unit.trackId === track.id);
    const last = own[own.length - 1];
    const before = own[own.length - 2];
    if (last) {
      const step = before ? last.dts - before.dts : 0;
      end = Math.max(end, (last.dts + step) / track.timescale);
    }
  }
  return end;
}

/** The units of pass `pass` (0 = as encoded), every timestamp moved `pass` whole passes later. */
export function unitsOfPass(tracks: readonly Track[], units: readonly MediaUnit[], pass: number): MediaUnit[] {
  const seconds = passSeconds(tracks, units) * pass;
  const timescales = new Map(tracks.map((track) => [track.id, track.timescale]));
  return units.map((unit) => {
    const shift = Math.round(seconds * (timescales.get(unit.trackId) ?? 1));
    return { ...unit, dts: unit.dts + shift, pts: unit.pts + shift };
  });
}

/** Where test units go (a hub Publisher). */
export interface UnitWriter {
  write(unit: MediaUnit): void;
}

/** Writes `units` in order. */
export function writeUnits(writer: UnitWriter, units: Iterable<MediaUnit>): void {
  for (const unit of units) {
    writer.write(unit);
  }
}

/** Writes passes `from` up to (not including) `to` of an encoded file, timestamps continuing. */
export function writePasses(
  writer: UnitWriter,
  media: { readonly tracks: readonly Track[]; readonly units: readonly MediaUnit[] },
  from: number,
  to: number,
): void {
  for (let pass = from; pass < to; pass++) {
    writeUnits(writer, unitsOfPass(media.tracks, media.units, pass));
  }
}
