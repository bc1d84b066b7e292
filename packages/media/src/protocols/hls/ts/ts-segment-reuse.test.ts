import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { MediaUnit } from '../../../stream/media-unit.js';
import { bodyBytes } from '../../../testing/play-request.js';
import { SYNTHETIC_AUDIO, SYNTHETIC_VIDEO, syntheticUnits } from '../../../testing/synthetic-av.js';
import { suiteTempDir } from '../../../testing/temp-dir.js';
import { until } from '../../../testing/until.js';
import { SegmentSpool } from '../../shared/segment-spool.js';
import { TsSegmenter } from './ts-segmenter.js';

/** Synthetic units whose video payloads are one length-prefixed NAL unit each (frame-numbered bytes). */
function units(): MediaUnit[] {
  return syntheticUnits({ seconds: 20.6, gopFrames: 30, frameBytes: 700 }).map((unit) => {
    if (unit.trackId !== SYNTHETIC_VIDEO.id) {
      return unit;
    }
    const data = new Uint8Array(unit.data.byteLength + 4);
    new DataView(data.buffer).setUint32(0, unit.data.byteLength);
    data.set(unit.data, 4);
    data[4] = unit.key ? 0x65 : 0x41;
    return { ...unit, data };
  });
}

describe('TsSegmenter with a spool', () => {
  const tmp = suiteTempDir('ts-reuse-');

  it('builds each later segment in the buffer of the one just written, and every segment keeps exactly its own bytes', async () => {
    const all = units();
    const reference = new TsSegmenter({ now: () => 0, windowSegments: 6 });
    reference.onDescription({ tracks: [SYNTHETIC_VIDEO, SYNTHETIC_AUDIO] });
    for (const unit of all) {
      reference.onUnit(unit);
    }
    let released = 0;
    const buffers: ArrayBuffer[] = [];
    const spool = new SegmentSpool(join(tmp.path, 'ring'));
    const store = spool.store.bind(spool);
    spool.store = (data, extension, onReleased) =>
      store(data, extension, (buffer) => {
        released++;
        buffers.push(buffer);
        onReleased?.(buffer);
      });
    const spooled = new TsSegmenter({ now: () => 0, windowSegments: 6, spool });
    spooled.onDescription({ tracks: [SYNTHETIC_VIDEO, SYNTHETIC_AUDIO] });
    const step = Math.ceil(all.length / 20);
    for (let at = 0; at < all.length; at += step) {
      for (const unit of all.slice(at, at + step)) {
        spooled.onUnit(unit);
      }
      await until(() => spooled.window.every((segment) => segment.spooled?.heldBytes === 0), 'the spool writes');
    }
    assert.ok(released >= 5, `${released} written segment buffers handed back for reuse`);
    // Written before the next segment starts, a segment's block is the next one's: one buffer in turn.
    assert.equal(new Set(buffers.slice(-6)).size, 1, 'the last segments were all built in one buffer');
    assert.equal(spooled.stats.badUnits, 0);
    assert.deepEqual(
      spooled.window.map((segment) => segment.sequence),
      reference.window.map((segment) => segment.sequence),
    );
    for (const segment of reference.window) {
      const got = spooled.segment(segment.sequence)?.spooled?.body();
      assert.ok(got, `segment ${segment.sequence} is in the spool`);
      assert.deepEqual(await bodyBytes(got), Buffer.from(segment.data), `segment ${segment.sequence}`);
    }
    spooled.dispose();
    spool.close();
  });
});
