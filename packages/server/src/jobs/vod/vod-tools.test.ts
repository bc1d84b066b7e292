/**
 * storeDirectory: every file of a processed VOD goes to storage under the asset's prefix, index
 * files last, and the byte count returned is the sum of all of them however the parallel stores
 * interleave.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { LocalStorage } from '../../storage/local-storage.js';
import { storeDirectory } from './vod-tools.js';

const root = mkdtempSync(join(tmpdir(), 'airwave-vod-tools-'));

after(() => {
  rmSync(root, { recursive: true, force: true });
});

test('the stored byte count is the sum of every file stored in parallel', async () => {
  const dir = join(root, 'outputs');
  mkdirSync(join(dir, 'cmaf'), { recursive: true });
  let expected = 0;
  for (let index = 0; index < 30; index++) {
    const size = 1000 + index * 7919;
    writeFileSync(join(dir, 'cmaf', `segment-${index}.m4s`), Buffer.alloc(size, index));
    expected += size;
  }
  writeFileSync(join(dir, 'cmaf', 'index.m3u8'), '#EXTM3U\n');
  expected += 8;
  const storage = new LocalStorage(join(root, 'storage'));
  await storage.open();
  assert.equal(await storeDirectory(storage, dir, 'vod/asset/'), expected);
  assert.equal(readFileSync(join(root, 'storage', 'vod/asset/cmaf/index.m3u8'), 'utf8'), '#EXTM3U\n');
  assert.equal(readFileSync(join(root, 'storage', 'vod/asset/cmaf/segment-29.m4s')).length, 1000 + 29 * 7919);
});
