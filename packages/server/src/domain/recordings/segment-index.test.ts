/**
 * The recording index on a local directory (a journal of JSON lines) and on a store that cannot
 * append (chunks): both read back what was appended; a journal line cut short by a kill is not
 * an entry; entries appended without flush reach storage with the next flush or close; recovery
 * cuts the index before the first segment whose stored size is not the indexed one (power loss).
 */
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { verifiedSegments } from '../../jobs/recorder/recovery.js';
import { LocalStorage } from '../../storage/local-storage.js';
import type { ObjectStorage } from '../../storage/object-storage.js';
import { indexJournalKey, segmentKey } from './recording-keys.js';
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
});
