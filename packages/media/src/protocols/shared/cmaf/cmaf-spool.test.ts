import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { MediaUnit } from '../../../stream/media-unit.js';
import { bodyBytes } from '../../../testing/play-request.js';
import { SYNTHETIC_AUDIO, SYNTHETIC_VIDEO, syntheticUnits } from '../../../testing/synthetic-av.js';
import { suiteTempDir } from '../../../testing/temp-dir.js';
import { until } from '../../../testing/until.js';
import { SegmentSpool, type SpooledSegment } from '../segment-spool.js';
import type { CmafPackagerOptions } from './cmaf-options.js';
import { CmafPackager } from './cmaf-packager.js';
import { serveCmafResource } from './cmaf-resources.js';

function packager(options: CmafPackagerOptions = {}): CmafPackager {
  const cmaf = new CmafPackager({ now: () => Date.UTC(2026, 0, 1), windowSegments: 6, ...options });
  cmaf.onDescription({ tracks: [SYNTHETIC_VIDEO, SYNTHETIC_AUDIO] });
  return cmaf;
}

function feed(cmaf: CmafPackager, units: readonly MediaUnit[]): void {
  for (const unit of units) {
    cmaf.onUnit(unit);
  }
}

/** A spool that counts writes in flight and buffers handed back. */
class CountingSpool extends SegmentSpool {
  pending = 0;
  released = 0;

  override store(data: Uint8Array, extension?: string, onReleased?: (buffer: ArrayBuffer) => void): SpooledSegment {
    this.pending++;
    const segment = super.store(data, extension, (buffer) => {
      this.released++;
      onReleased?.(buffer);
    });
    // Settles after the segment's own handler (registered first): written, or kept in memory.
    until(() => segment.heldBytes === 0, 'the write', 5_000).then(
      () => this.pending--,
      () => this.pending--,
    );
    return segment;
  }
}

describe('CMAF packager with a spool', () => {
  const tmp = suiteTempDir('cmaf-spool-');

  it('keeps the newest segments in memory, serves older ones and their parts from files with the same bytes, and removes the files', async () => {
    const units = syntheticUnits({ seconds: 20.6, gopFrames: 30 });
    const inMemory = packager();
    feed(inMemory, units);
    const spool = new CountingSpool(join(tmp.path, 'cmaf'));
    const spooled = packager({ spool, memorySegments: 2 });
    // Fed a second at a time, letting the writes complete in between: later segments are built in
    // the buffers of spooled ones handed back, and must still carry exactly their own bytes.
    const step = Math.ceil(units.length / 20);
    for (let at = 0; at < units.length; at += step) {
      feed(spooled, units.slice(at, at + step));
      await until(() => spool.pending === 0, 'the spool writes');
    }
    assert.ok(spool.released >= 4, `${spool.released} written segment buffers handed back for reuse`);
    const video = spooled.track('video');
    const reference = inMemory.track('video');
    assert.ok(video && reference);
    assert.deepEqual(
      video.segments.map((segment) => segment.spooled !== undefined),
      [true, true, true, true, false, false],
      'the newest two complete segments stay in memory',
    );
    // Files exist once the writes complete; then the older segments leave memory.
    await until(
      () => video.segments.every((segment) => !segment.spooled || segment.spooled.file.heldBytes === 0),
      'the spooled segments written',
    );
    assert.ok(
      spooled.heldBytes < (inMemory.heldBytes * 2) / 3,
      `${spooled.heldBytes} < two thirds of ${inMemory.heldBytes}`,
    );
    assert.equal(readdirSync(join(tmp.path, 'cmaf')).length, 8, 'four video and four audio segment files');
    const signal = new AbortController().signal;
    for (const track of ['video', 'audio'] as const) {
      const first = inMemory.track(track)?.segments[0];
      assert.ok(first);
      for (let msn = first.msn; msn <= (video.openSegment?.msn ?? 0); msn++) {
        const [want, got] = await Promise.all(
          [inMemory, spooled].map((cmaf) => serveCmafResource(cmaf, { type: 'segment', track, msn }, 0, signal)),
        );
        assert.ok(want && got);
        assert.equal(got.status, want.status, `${track} segment ${msn}`);
        assert.equal(got.headers['content-length'], want.headers['content-length']);
        assert.deepEqual(await bodyBytes(got.body), await bodyBytes(want.body), `${track} segment ${msn}`);
      }
      const firstPart = first.parts[0]?.sequence ?? 0;
      for (let sequence = firstPart; sequence < (inMemory.track(track)?.nextPart ?? 0); sequence++) {
        const [want, got] = await Promise.all(
          [inMemory, spooled].map((cmaf) => serveCmafResource(cmaf, { type: 'part', track, sequence }, 0, signal)),
        );
        assert.ok(want && got);
        assert.equal(got.status, 200, `${track} part ${sequence}`);
        assert.equal(got.headers['content-length'], want.headers['content-length']);
        assert.deepEqual(await bodyBytes(got.body), await bodyBytes(want.body), `${track} part ${sequence}`);
      }
    }
    // Segments leaving the window give their files to the next segments; the packager's end removes them all.
    const dir = join(tmp.path, 'cmaf');
    const later = syntheticUnits({ startSeconds: 20.6, seconds: 4, gopFrames: 30 });
    feed(inMemory, later);
    feed(spooled, later);
    assert.equal(readdirSync(dir).length, 8, 'still four segments of each track in files, written over evicted ones');
    for (const track of ['video', 'audio'] as const) {
      for (const segment of spooled.track(track)?.segments.filter((each) => each.spooled) ?? []) {
        const [want, got] = await Promise.all(
          [inMemory, spooled].map((cmaf) =>
            serveCmafResource(cmaf, { type: 'segment', track, msn: segment.msn }, 0, signal),
          ),
        );
        assert.ok(want && got);
        assert.deepEqual(await bodyBytes(got.body), await bodyBytes(want.body), `${track} segment ${segment.msn}`);
      }
    }
    spooled.dispose();
    await until(() => readdirSync(dir).length === 0, 'every file removed');
    spool.close();
  });
});
