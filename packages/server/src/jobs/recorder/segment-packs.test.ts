/**
 * Segment packs on the local backend: segments appended from pieces read back byte for byte from
 * their pack's range, a track starts a new pack after its segment count, tracks keep packs of
 * their own, and a pack cut short (a power loss) no longer holds the segments past its end.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { packKey } from '../../domain/recordings/recording-keys.js';
import { readSegment, segmentKept } from '../../domain/recordings/segment-bytes.js';
import type { IndexedSegment } from '../../domain/recordings/segment-index.js';
import { LocalStorage } from '../../storage/local-storage.js';
import { SegmentPacks } from './segment-packs.js';

function entry(
  track: 'video' | 'audio',
  msn: number,
  bytes: number,
  place: { pack: number; offset: number },
): IndexedSegment {
  return {
    track,
    msn,
    init: 0,
    timescale: 90_000,
    start: msn * 180_000,
    duration: 180_000,
    ept: msn * 180_000,
    wallMs: 0,
    offsetMs: msn * 2000,
    discontinuity: false,
    bytes,
    ...place,
  };
}

describe('segment packs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'airwave-packs-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('appends segments from pieces, reads each back from its range, and starts a new pack after the count', async () => {
    const storage = new LocalStorage(dir);
    const prefix = 'recordings/r1/';
    const packs = SegmentPacks.of(storage, prefix, 3);
    assert.ok(packs);
    const written: { segment: IndexedSegment; bytes: Buffer }[] = [];
    for (let msn = 0; msn < 5; msn++) {
      for (const track of ['video', 'audio'] as const) {
        const pieces = [Buffer.from(`${track}-${msn}:`), Buffer.alloc(1000 + msn * 7, msn), Buffer.from('end')];
        const bytes = Buffer.concat(pieces);
        const place = packs.place(track, msn, bytes.byteLength);
        await packs.write(track, place.pack, pieces);
        written.push({ segment: entry(track, msn, bytes.byteLength, place), bytes });
      }
    }
    await packs.close();
    assert.deepEqual(
      [...new Set(written.map(({ segment }) => `${segment.track}-${segment.pack}`))],
      ['video-0', 'audio-0', 'video-3', 'audio-3'],
    );
    for (const { segment, bytes } of written) {
      const read = await readSegment(storage, prefix, segment);
      assert.deepEqual(Buffer.concat(await read.body.toArray()), bytes, `${segment.track} ${segment.msn}`);
      assert.equal(await segmentKept(storage, prefix, segment), true);
    }
    const video = written.filter(({ segment }) => segment.track === 'video' && segment.pack === 0);
    const second = video[1]?.segment as IndexedSegment;
    truncateSync(storage.localFile(packKey(prefix, 'video', 0)), (second.offset ?? 0) + second.bytes - 1);
    assert.equal(await segmentKept(storage, prefix, video[0]?.segment as IndexedSegment), true);
    assert.equal(await segmentKept(storage, prefix, second), false, 'a segment past the end of its cut-short pack');
  });
});
