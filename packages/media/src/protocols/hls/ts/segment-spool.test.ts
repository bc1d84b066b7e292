import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { bodyBytes } from '../../../testing/play-request.js';
import { suiteTempDir } from '../../../testing/temp-dir.js';
import { until } from '../../../testing/until.js';
import { SegmentSpool } from './segment-spool.js';

function bytes(length: number, value: number): Uint8Array {
  return new Uint8Array(length).fill(value);
}

describe('SegmentSpool', () => {
  const tmp = suiteTempDir('segment-spool-');

  it('empties its directory when created and serves a stored segment, whole or a range, from its file', async () => {
    const dir = join(tmp.path, 'ring');
    new SegmentSpool(dir).store(bytes(1, 9));
    assert.equal(readdirSync(dir).length, 1, 'written when store returns');
    const spool = new SegmentSpool(dir);
    assert.deepEqual(readdirSync(dir), [], 'a new spool starts empty');
    const data = new Uint8Array(188 * 10).map((_, i) => i & 0xff);
    const segment = spool.store(data);
    assert.equal(segment.byteLength, data.byteLength);
    assert.equal(segment.heldBytes, 0, 'nothing held in memory once written');
    const body = segment.body();
    assert.ok(!(body instanceof Uint8Array), 'served from the file');
    assert.deepEqual(await bodyBytes(body), Buffer.from(data));
    assert.deepEqual(await bodyBytes(segment.body(100, 300)), Buffer.from(data.subarray(100, 300)));
  });

  it('hands the written buffer back once written, before store returns', () => {
    const spool = new SegmentSpool(join(tmp.path, 'release'));
    const data = bytes(1000, 1);
    let released: ArrayBuffer | undefined;
    const segment = spool.store(data, 'ts', (buffer) => {
      released = buffer;
    });
    assert.equal(released, data.buffer);
    assert.equal(segment.heldBytes, 0);
  });

  it('writes a later segment over a dropped one in its file, longer or shorter, with exactly its own bytes', async () => {
    const dir = join(tmp.path, 'reuse');
    const spool = new SegmentSpool(dir);
    const keep = spool.store(bytes(500, 7));
    const first = spool.store(bytes(3000, 1));
    first.drop();
    const shorter = spool.store(bytes(1000, 2));
    assert.equal(readdirSync(dir).length, 2, 'the dropped file was reused');
    assert.deepEqual(await bodyBytes(shorter.body()), Buffer.from(bytes(1000, 2)));
    assert.deepEqual(
      await bodyBytes(shorter.body(900, 1000)),
      Buffer.from(bytes(100, 2)),
      'its last range ends at its own end',
    );
    shorter.drop();
    const longer = spool.store(bytes(5000, 3));
    assert.equal(readdirSync(dir).length, 2);
    assert.deepEqual(await bodyBytes(longer.body()), Buffer.from(bytes(5000, 3)));
    assert.deepEqual(await bodyBytes(keep.body()), Buffer.from(bytes(500, 7)), 'the other file untouched');
  });

  it('never reuses a file a request is reading: it is removed, the reader keeps its bytes', async () => {
    const dir = join(tmp.path, 'busy');
    const spool = new SegmentSpool(dir);
    spool.store(bytes(10, 0));
    const read = spool.store(bytes(200_000, 5));
    const body = read.body();
    assert.ok(!(body instanceof Uint8Array));
    await new Promise((resolve) => body.once('readable', resolve));
    read.drop();
    const next = spool.store(bytes(200_000, 6));
    assert.deepEqual(await bodyBytes(body), Buffer.from(bytes(200_000, 5)), 'the reader got the dropped segment');
    assert.deepEqual(await bodyBytes(next.body()), Buffer.from(bytes(200_000, 6)));
    assert.equal(spool.reusableFiles, 0);
    await until(() => readdirSync(dir).length === 2, 'the busy file removed');
  });

  it('keeps no more unused files than files holding segments: all go once every segment is dropped, and on close', async () => {
    const dir = join(tmp.path, 'drops');
    const spool = new SegmentSpool(dir);
    const segments = Array.from({ length: 6 }, (_, i) => spool.store(bytes(100 * (i + 1), i)));
    for (const segment of segments.slice(0, 4)) {
      segment.drop();
    }
    assert.equal(spool.reusableFiles, 2, 'two files kept for the two live segments');
    await until(() => readdirSync(dir).length === 4, 'the other two removed');
    for (const segment of segments.slice(4)) {
      segment.drop();
    }
    await until(() => readdirSync(dir).length === 0, 'every file removed');
    spool.store(bytes(10, 1));
    spool.close();
    assert.equal(existsSync(dir), false);
  });

  it('keeps a segment in memory when its file cannot be written', async () => {
    const dir = join(tmp.path, 'unwritable');
    const spool = new SegmentSpool(dir);
    // The first file's name is taken by a directory: opening it for writing fails.
    mkdirSync(join(dir, '0.ts'));
    const data = bytes(300, 4);
    let released = false;
    const segment = spool.store(data, 'ts', () => {
      released = true;
    });
    assert.equal(segment.heldBytes, 300);
    assert.deepEqual(await bodyBytes(segment.body()), Buffer.from(data));
    await Promise.resolve();
    assert.equal(released, false, 'a buffer still served is not handed back');
    segment.drop();
    assert.equal(segment.heldBytes, 0);
  });
});
