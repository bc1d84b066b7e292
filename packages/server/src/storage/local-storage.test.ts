/**
 * The local-directory backend: the shared ObjectStorage contract, then what is local — a killed
 * write's temporary file is cleared on open and never shows as an object, objects are plain files
 * under the root, and a write the disk refuses is a StorageFailedError naming the reason.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { LocalStorage } from './local-storage.js';
import { objectStorageContract } from './object-storage.contract.js';
import { StorageFailedError } from './object-storage.js';

async function fresh() {
  const root = mkdtempSync(join(tmpdir(), 'airwave-storage-'));
  const storage = new LocalStorage(root);
  await storage.open();
  return { storage, root, cleanup: () => rm(root, { recursive: true, force: true }) };
}

objectStorageContract('local directory', fresh);

test('objects are plain files under the root; a leftover temporary file is cleared on open and never listed', async () => {
  const { storage, root, cleanup } = await fresh();
  try {
    await storage.put('rec/s1/init.mp4', Buffer.from('init'));
    assert.equal(readFileSync(join(root, 'rec/s1/init.mp4'), 'utf8'), 'init');
    writeFileSync(join(root, '.tmp', 'deadbeef.part'), 'half a segment');
    const listed = [];
    for await (const info of storage.list('')) {
      listed.push(info.key);
    }
    assert.deepEqual(listed, ['rec/s1/init.mp4']);
    await new LocalStorage(root).open();
    assert.deepEqual(readdirSync(join(root, '.tmp')), []);
  } finally {
    await cleanup();
  }
});

test('delete prunes the directories it emptied', async () => {
  const { storage, root, cleanup } = await fresh();
  try {
    await storage.put('a/b/c/1.m4s', Buffer.from('1'));
    await storage.delete('a/b/c/1.m4s');
    assert.equal(existsSync(join(root, 'a')), false);
  } finally {
    await cleanup();
  }
});

test('a write the file system refuses is a StorageFailedError with the reason, and no object appears', async () => {
  const { storage, root, cleanup } = await fresh();
  try {
    await storage.put('blocker', Buffer.from('a file where a directory must go'));
    await assert.rejects(
      storage.put('blocker/seg.m4s', Buffer.from('x')),
      (error: unknown) =>
        error instanceof StorageFailedError &&
        /^(EEXIST|ENOTDIR)$/.test(error.reason) &&
        error.key === 'blocker/seg.m4s',
    );
    assert.equal(await storage.head('blocker/seg.m4s'), null);
    assert.deepEqual(readdirSync(join(root, '.tmp')), []);
  } finally {
    await cleanup();
  }
});
