import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { bodyBytes } from '../../../testing/play-request.js';
import { suiteTempDir } from '../../../testing/temp-dir.js';
import { until } from '../../../testing/until.js';
import { SegmentSpool } from './segment-spool.js';

describe('SegmentSpool', () => {
  const tmp = suiteTempDir('segment-spool-');

  it('empties its directory when created, serves a segment from memory until written, then from its file', async () => {
    const dir = join(tmp.path, 'ring');
    new SegmentSpool(dir).store(new Uint8Array([9]));
    await until(() => readdirSync(dir).length === 1, 'the first file');
    const spool = new SegmentSpool(dir);
    assert.deepEqual(readdirSync(dir), [], 'a new spool starts empty');
    const data = new Uint8Array(188 * 10).fill(0x47);
    const segment = spool.store(data);
    assert.equal(segment.byteLength, data.byteLength);
    assert.equal(segment.heldBytes, data.byteLength, 'held in memory until the write completes');
    assert.deepEqual(await bodyBytes(segment.body()), Buffer.from(data));
    await until(() => segment.heldBytes === 0, 'the write');
    const body = segment.body();
    assert.ok(!(body instanceof Uint8Array), 'served from the file once written');
    assert.deepEqual(await bodyBytes(body), Buffer.from(data));
  });

  it('removes the file of a dropped segment, also when dropped before its write completed, and everything on close', async () => {
    const dir = join(tmp.path, 'drops');
    const spool = new SegmentSpool(dir);
    const early = spool.store(new Uint8Array(1000));
    early.drop();
    const late = spool.store(new Uint8Array(1000));
    await until(() => late.heldBytes === 0, 'the write');
    // The early file is removed once its own write completed, which may finish after the late one's.
    await until(() => readdirSync(dir).length === 1, 'the early segment gone once its write completed');
    late.drop();
    await until(() => readdirSync(dir).length === 0, 'the file removed');
    spool.store(new Uint8Array(10));
    spool.close();
    assert.equal(existsSync(dir), false);
  });
});
