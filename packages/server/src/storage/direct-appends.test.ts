/**
 * Direct appends (ADR 0081): the file holds exactly the bytes appended, in order, after every
 * append (its padded last block cut on sync and close); a write the filesystem refuses goes on
 * buffered; the local backend appends directly only to a new file.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openDirectAppender } from './direct-appends.js';
import { LocalStorage } from './local-storage.js';

function bytes(length: number, seed: number): Uint8Array {
  return Uint8Array.from({ length }, (_, i) => (i * 31 + seed) & 0xff);
}

/** Appends of odd sizes, single and gathered, across and onto block boundaries. */
const APPENDS: readonly (readonly Uint8Array[])[] = [
  [bytes(1000, 1)],
  [bytes(3000, 2), bytes(5000, 3), bytes(7, 4)],
  [bytes(4096 - ((1000 + 3000 + 5000 + 7) % 4096), 5)],
  [bytes(4096, 6)],
  [bytes(1, 7)],
  [bytes(200_000, 8), bytes(13, 9)],
];

test('every append is in the file in order, the padding cut on close; a file with bytes is not opened', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'airwave-direct-'));
  try {
    const path = join(dir, 'pack/video-pack-0.m4s');
    const appender = await openDirectAppender(path);
    assert.ok(appender, 'the test directory takes O_DIRECT');
    let expected = Buffer.alloc(0);
    for (const pieces of APPENDS) {
      await appender.append(pieces);
      expected = Buffer.concat([expected, ...pieces]);
      const stored = readFileSync(path);
      assert.ok(stored.length >= expected.length);
      assert.deepEqual(stored.subarray(0, expected.length), expected);
    }
    assert.equal(appender.direct, true);
    await appender.sync();
    assert.equal(statSync(path).size, expected.length);
    await appender.append(bytes(10, 10));
    expected = Buffer.concat([expected, bytes(10, 10)]);
    await appender.close();
    assert.deepEqual(readFileSync(path), expected);
    writeFileSync(join(dir, 'old.m4s'), 'bytes');
    assert.equal(await openDirectAppender(join(dir, 'old.m4s')), undefined);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a direct write the filesystem refuses (misaligned) goes on buffered, the bytes in order', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'airwave-direct-'));
  try {
    const path = join(dir, 'video-pack-0.m4s');
    const appender = await openDirectAppender(path, 1);
    assert.ok(appender);
    for (const pieces of APPENDS) {
      await appender.append(pieces);
    }
    assert.equal(appender.direct, false);
    await appender.close();
    assert.deepEqual(readFileSync(path), Buffer.concat(APPENDS.flat()));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('the local backend appends recorded packs directly on a new file, buffered on one with bytes', async () => {
  const root = mkdtempSync(join(tmpdir(), 'airwave-direct-'));
  try {
    const storage = new LocalStorage(root);
    await storage.open();
    writeFileSync(join(root, 'old.m4s'), 'old ');
    for (const key of ['rec/video-pack-0.m4s', 'old.m4s']) {
      const appender = await storage.openAppender(key, { direct: true });
      for (const pieces of APPENDS) {
        await appender.append(pieces);
      }
      await appender.close();
    }
    assert.deepEqual(readFileSync(join(root, 'rec/video-pack-0.m4s')), Buffer.concat(APPENDS.flat()));
    assert.deepEqual(readFileSync(join(root, 'old.m4s')), Buffer.concat([Buffer.from('old '), ...APPENDS.flat()]));
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
