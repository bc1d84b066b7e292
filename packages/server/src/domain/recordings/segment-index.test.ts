/**
 * The recording index on a local directory (a journal of JSON lines) and on a store that cannot
 * append (chunks): both read back what was appended; a journal line cut short by a kill is not
 * an entry; entries appended without flush reach storage with the next flush or close; recovery
 * cuts the index before the first segment whose stored size is not the indexed one (power loss).
 * Packed segments (ADR 0062), appended from pieces, read back from their pack's range, a track
 * starts a new pack after its count, and recovery cuts before a segment past a short pack's end.
 */
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { verifiedSegments } from '../../jobs/recorder/recovery.js';
import { SegmentPacks } from '../../jobs/recorder/segment-packs.js';
import { LocalStorage } from '../../storage/local-storage.js';
import type { ObjectStorage } from '../../storage/object-storage.js';
import { indexJournalKey, packKey, segmentKey, sharedPackKey } from './recording-keys.js';
import { readSegment } from './segment-bytes.js';
import { type IndexedSegment, readRecordingIndex, rewriteRecordingIndex, SegmentIndexWriter } from './segment-index.js';

function entry(msn: number, bytes = 100): IndexedSegment {
  return {
    track: 'video',
    msn,
    init: 0,
    timescale: 90_000,
    start: msn * 180_000,
    duration: 180_000,
    ept: msn * 180_000,
    wallMs: 1_700_000_000_000 + msn * 2000,
    offsetMs: msn * 2000,
    discontinuity: false,
    bytes,
  };
}

/** The local store without its append support: indexes are written as chunks, as on S3. */
function chunkedStore(storage: LocalStorage): ObjectStorage {
  return {
    kind: storage.kind,
    put: (key, body, options) => storage.put(key, body, options),
    get: (key, range) => storage.get(key, range),
    head: (key) => storage.head(key),
    list: (prefix) => storage.list(prefix),
    delete: (key) => storage.delete(key),
    deletePrefix: (prefix) => storage.deletePrefix(prefix),
  };
}

describe('segment index', () => {
  let dir: string;
  let storage: LocalStorage;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'airwave-index-'));
    storage = new LocalStorage(dir);
    await storage.open();
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a journal reads back every appended entry in order, unflushed ones once closed', async () => {
    const writer = new SegmentIndexWriter(storage, 'recordings/a/');
    await writer.append([entry(0), entry(1)]);
    await writer.append([entry(2)], false);
    assert.deepEqual(
      (await readRecordingIndex(storage, 'recordings/a/')).segments.map((segment) => segment.msn),
      [0, 1],
    );
    await writer.append([entry(3)], false);
    await writer.close();
    assert.deepEqual(
      (await readRecordingIndex(storage, 'recordings/a/')).segments.map((segment) => segment.msn),
      [0, 1, 2, 3],
    );
  });

  it('a journal line cut short by a kill is not an entry', async () => {
    const writer = new SegmentIndexWriter(storage, 'recordings/b/');
    await writer.append([entry(0)]);
    await writer.close();
    appendFileSync(storage.localFile(indexJournalKey('recordings/b/')), '{"track":"video","msn":1,"ini');
    assert.deepEqual(
      (await readRecordingIndex(storage, 'recordings/b/')).segments.map((segment) => segment.msn),
      [0],
    );
  });

  it('a store that cannot append keeps chunks and reads them back', async () => {
    const chunked = chunkedStore(storage);
    const writer = new SegmentIndexWriter(chunked, 'recordings/c/');
    for (let msn = 0; msn < 205; msn++) {
      await writer.append([entry(msn)], msn % 3 === 0);
    }
    await writer.close();
    assert.equal(await storage.head(indexJournalKey('recordings/c/')), null);
    const read = await readRecordingIndex(chunked, 'recordings/c/');
    assert.deepEqual(
      read.segments.map((segment) => segment.msn),
      Array.from({ length: 205 }, (_, msn) => msn),
    );
  });

  it('recovery cuts the index before the first segment the disk did not keep', async () => {
    const prefix = 'recordings/d/';
    const writer = new SegmentIndexWriter(storage, prefix);
    for (let msn = 0; msn < 4; msn++) {
      await storage.put(segmentKey(prefix, 'video', msn), new Uint8Array(100), { durability: 'written' });
      await writer.append([entry(msn)]);
    }
    await writer.close();
    const listed = (await readRecordingIndex(storage, prefix)).segments;
    assert.equal((await verifiedSegments(storage, prefix, listed)).length, 4);
    truncateSync(storage.localFile(segmentKey(prefix, 'video', 2)), 40);
    const kept = await verifiedSegments(storage, prefix, listed);
    assert.deepEqual(
      kept.map((segment) => segment.msn),
      [0, 1],
    );
    await rewriteRecordingIndex(storage, prefix, kept);
    assert.deepEqual(
      (await readRecordingIndex(storage, prefix)).segments.map((segment) => segment.msn),
      [0, 1],
    );
  });

  it('packed segments read back from their range; a new pack after the count; recovery cuts at a short pack', async () => {
    const prefix = 'recordings/p/';
    const packs = SegmentPacks.of(storage, prefix, 3);
    assert.ok(packs);
    const written: { segment: IndexedSegment; bytes: Buffer }[] = [];
    for (let msn = 0; msn < 5; msn++) {
      const batch = (['video', 'audio'] as const).map((track) => {
        const pieces = [Buffer.from(`${track}-${msn}:`), Buffer.alloc(1000 + msn * 7, msn), Buffer.from('end')];
        return { track, pieces, bytes: Buffer.concat(pieces) };
      });
      const places = packs.place(batch.map(({ bytes }) => bytes.byteLength));
      await packs.write(
        places[0]?.pack ?? -1,
        batch.flatMap(({ pieces }) => pieces),
      );
      batch.forEach(({ track, bytes }, i) => {
        written.push({ segment: { ...entry(msn, bytes.byteLength), track, ...places[i] }, bytes });
      });
    }
    await packs.close();
    assert.deepEqual([...new Set(written.map(({ segment }) => segment.pack))], [0, 4, 8]);
    for (const { segment, bytes } of written) {
      const read = await readSegment(storage, prefix, segment);
      assert.deepEqual(Buffer.concat(await read.body.toArray()), bytes, `${segment.track} ${segment.msn}`);
    }
    const video = written.filter(({ segment }) => segment.track === 'video').map(({ segment }) => segment);
    assert.equal((await verifiedSegments(storage, prefix, video)).length, 5);
    const second = video[1] as IndexedSegment;
    truncateSync(storage.localFile(sharedPackKey(prefix, 0)), (second.offset ?? 0) + second.bytes - 1);
    assert.deepEqual(
      (await verifiedSegments(storage, prefix, video)).map((segment) => segment.msn),
      [0],
    );
  });

  it('segments of a track pack (recordings made before ADR 0089) read back from their range', async () => {
    const prefix = 'recordings/t/';
    const bytes = Buffer.alloc(300, 7);
    const appender = await storage.openAppender(packKey(prefix, 'audio', 0));
    await appender.append([Buffer.alloc(100), bytes]);
    await appender.close();
    const read = await readSegment(storage, prefix, { ...entry(1, 300), track: 'audio', pack: 0, offset: 100 });
    assert.deepEqual(Buffer.concat(await read.body.toArray()), bytes);
  });
});
