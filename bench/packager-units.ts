/**
 * CPU of the packagers alone per unit (ADR 0093): the bench file's units (through ffmpeg to
 * MPEG-TS and our demuxer) fed in a loop, timestamps shifted each pass, into the TS muxer, the
 * TS-HLS segmenter and the CMAF packager (both spooling to a scratch directory, as the service
 * does). Prints ns per unit, median and fastest of the passes after a warm-up. A hot loop with warm
 * caches: it is a floor under what a unit costs in the service, not a figure for it.
 *
 * Usage: node --conditions=source --import tsx bench/packager-units.ts [passes]
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TsDemuxer } from '../packages/media/src/formats/mpegts/ts-demuxer.js';
import { TsMuxer } from '../packages/media/src/formats/mpegts/ts-muxer.js';
import { TsSegmenter } from '../packages/media/src/protocols/hls/ts/ts-segmenter.js';
import { CmafPackager } from '../packages/media/src/protocols/shared/cmaf/cmaf-packager.js';
import { SegmentSpool } from '../packages/media/src/protocols/shared/segment-spool.js';
import type { MediaUnit } from '../packages/media/src/stream/media-unit.js';
import type { Track } from '../packages/media/src/stream/track.js';
import { benchMedia, WORK_DIR } from './lib/media-file.js';

const PASSES = Number(process.argv[2] ?? 40);
const WARM_PASSES = 5;

/** The bench file's units and tracks, read back from an MPEG-TS copy of it. */
function readUnits(): { units: MediaUnit[]; tracks: readonly Track[] } {
  const ts = join(WORK_DIR, 'packager-units.mpegts');
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', benchMedia().flv, '-c', 'copy', '-f', 'mpegts', ts]);
  const units: MediaUnit[] = [];
  let tracks: readonly Track[] = [];
  const demuxer = new TsDemuxer({
    setDescription: (description) => {
      tracks = description.tracks;
    },
    write: (unit) => units.push({ ...unit, data: unit.data.slice() }),
  });
  demuxer.push(readFileSync(ts));
  demuxer.end();
  return { units, tracks };
}

/** Median and fastest ns per unit over the passes after the warm-up; `pass(loop)` feeds every unit once. */
function measure(name: string, count: number, pass: (loop: number) => void): void {
  const perUnit: number[] = [];
  for (let loop = 0; loop < PASSES; loop++) {
    const start = process.hrtime.bigint();
    pass(loop);
    if (loop >= WARM_PASSES) {
      perUnit.push(Number(process.hrtime.bigint() - start) / count);
    }
  }
  perUnit.sort((a, b) => a - b);
  const median = perUnit[Math.floor(perUnit.length / 2)] ?? Number.NaN;
  console.log(`${name}: ${median.toFixed(0)} ns/unit median, ${(perUnit[0] ?? Number.NaN).toFixed(0)} fastest`);
}

const { units, tracks } = readUnits();
/**
 * One pass's length per track, in that track's own timescale (the demuxer gives audio its sample
 * rate), plus a second, so every pass continues each track's timeline.
 */
const passTicks = new Map(
  tracks.map((track) => {
    const times = units.filter((unit) => unit.trackId === track.id).map((unit) => unit.dts);
    return [track.id, Math.max(...times) - Math.min(...times) + track.timescale];
  }),
);
const shifted = (unit: MediaUnit, loop: number): MediaUnit => {
  const offset = loop * (passTicks.get(unit.trackId) ?? 0);
  return { ...unit, dts: unit.dts + offset, pts: unit.pts + offset };
};
console.log(`${units.length} units of ${tracks.length} tracks per pass, ${PASSES} passes`);

const muxer = new TsMuxer(tracks);
measure('TsMuxer.writeUnit', units.length, () => {
  for (const unit of units) {
    muxer.writeUnit(unit);
  }
  muxer.take();
});

for (const [name, make] of [
  ['TsSegmenter.onUnit', (spool: SegmentSpool) => new TsSegmenter({ spool })],
  ['CmafPackager.onUnit', (spool: SegmentSpool) => new CmafPackager({ spool })],
] as const) {
  const spool = new SegmentSpool(join(tmpdir(), `packager-units-${process.pid}`));
  const sink: TsSegmenter | CmafPackager = make(spool);
  sink.onDescription({ tracks });
  measure(name, units.length, (loop) => {
    for (const unit of units) {
      sink.onUnit(shifted(unit, loop));
    }
  });
  sink.onEnd('done');
  spool.close();
}
