/**
 * The behaviour every ObjectStorage backend must show, as node:test cases: call
 * `objectStorageContract` from a backend's test file with a factory of fresh, empty stores
 * (local-storage.test.ts; the S3 backend's test runs the same table against a real S3 store).
 */
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, test } from 'node:test';
import { type ObjectStorage, StorageFailedError, StorageNotFoundError } from './object-storage.js';

/** A fresh empty store and the way to dispose of it. */
export interface ContractStore {
  storage: ObjectStorage;
  cleanup(): Promise<void>;
}

async function keys(storage: ObjectStorage, prefix: string): Promise<string[]> {
  const out: string[] = [];
  for await (const info of storage.list(prefix)) {
    out.push(info.key);
  }
  return out;
}

async function withStore(make: () => Promise<ContractStore>, body: (storage: ObjectStorage) => Promise<void>) {
  const store = await make();
  try {
    await body(store.storage);
  } finally {
    await store.cleanup();
  }
}

/** Runs the shared behaviour tests (put/get/head/list/delete/ranges/streams/errors) against stores `make` returns. */
export function objectStorageContract(name: string, make: () => Promise<ContractStore>): void {
  const run = (title: string, body: (storage: ObjectStorage) => Promise<void>) =>
    test(title, () => withStore(make, body));

  describe(`ObjectStorage contract: ${name}`, () => {
    run('put bytes then get returns them whole, with size and content type', async (storage) => {
      await storage.put('rec/a/seg-1.m4s', new TextEncoder().encode('hello world'), {
        contentType: 'video/iso.segment',
      });
      const read = await storage.get('rec/a/seg-1.m4s');
      assert.equal(read.length, 11);
      assert.equal(read.totalSize, 11);
      assert.equal(read.range, undefined);
      assert.equal(read.contentType, 'video/iso.segment');
      assert.equal(await text(read.body), 'hello world');
    });

    run('put from a stream of many chunks stores every byte in order', async (storage) => {
      const chunks = Array.from({ length: 200 }, (_, i) => Buffer.alloc(4096, i % 251));
      await storage.put('big/object.bin', Readable.from(chunks));
      const info = await storage.head('big/object.bin');
      assert.equal(info?.size, 200 * 4096);
      const read = await storage.get('big/object.bin');
      const all = Buffer.concat(await read.body.toArray());
      assert.ok(all.equals(Buffer.concat(chunks)));
    });

    run('a content type other than the extension implies is kept', async (storage) => {
      await storage.put('odd/poster.jpg', Buffer.from('x'), { contentType: 'image/webp' });
      assert.equal((await storage.head('odd/poster.jpg'))?.contentType, 'image/webp');
      await storage.put('odd/poster.jpg', Buffer.from('y'), { contentType: 'image/jpeg' });
      assert.equal((await storage.head('odd/poster.jpg'))?.contentType, 'image/jpeg');
    });

    run(
      'ranged reads serve the inclusive range; an open end runs to the last byte; a long end is clamped',
      async (storage) => {
        await storage.put('r/file.mp4', Buffer.from('0123456789'));
        const middle = await storage.get('r/file.mp4', { start: 2, end: 5 });
        assert.deepEqual(middle.range, { start: 2, end: 5 });
        assert.equal(middle.length, 4);
        assert.equal(middle.totalSize, 10);
        assert.equal(await text(middle.body), '2345');
        const tail = await storage.get('r/file.mp4', { start: 7 });
        assert.deepEqual(tail.range, { start: 7, end: 9 });
        assert.equal(await text(tail.body), '789');
        const clamped = await storage.get('r/file.mp4', { start: 8, end: 100 });
        assert.deepEqual(clamped.range, { start: 8, end: 9 });
        assert.equal(await text(clamped.body), '89');
      },
    );

    run('a range starting past the end is refused', async (storage) => {
      await storage.put('r/short.bin', Buffer.from('abc'));
      await assert.rejects(storage.get('r/short.bin', { start: 3 }), StorageFailedError);
    });

    run(
      'an absent key: get rejects with StorageNotFoundError naming it, head is null, delete is no error',
      async (storage) => {
        await assert.rejects(
          storage.get('nothing/here.m4s'),
          (error: unknown) => error instanceof StorageNotFoundError && error.key === 'nothing/here.m4s',
        );
        assert.equal(await storage.head('nothing/here.m4s'), null);
        await storage.delete('nothing/here.m4s');
      },
    );

    run('a put replaces the object whole', async (storage) => {
      await storage.put('p/index.m3u8', Buffer.from('a much longer first version'));
      await storage.put('p/index.m3u8', Buffer.from('short'));
      assert.equal(await text((await storage.get('p/index.m3u8')).body), 'short');
      assert.equal((await storage.head('p/index.m3u8'))?.size, 5);
    });

    run(
      'list yields every key under a prefix in key order, with sizes; the prefix need not end at a slash',
      async (storage) => {
        for (const key of ['s/b/2.m4s', 's/a.x', 's/a/1.m4s', 's/a/10.m4s', 's/a-b', 't/other', 's/ab']) {
          await storage.put(key, Buffer.from(key));
        }
        assert.deepEqual(await keys(storage, 's/'), ['s/a-b', 's/a.x', 's/a/1.m4s', 's/a/10.m4s', 's/ab', 's/b/2.m4s']);
        assert.deepEqual(await keys(storage, 's/a'), ['s/a-b', 's/a.x', 's/a/1.m4s', 's/a/10.m4s', 's/ab']);
        assert.deepEqual(await keys(storage, 's/a/'), ['s/a/1.m4s', 's/a/10.m4s']);
        assert.deepEqual(await keys(storage, 'none/'), []);
        for await (const info of storage.list('s/a/1')) {
          assert.equal(info.size, info.key.length);
          assert.ok(info.modifiedAt instanceof Date);
        }
      },
    );

    run('deletePrefix removes exactly the objects under the prefix and counts them', async (storage) => {
      for (const key of ['d/x/1', 'd/x/2', 'd/x/sub/3', 'd/y/1']) {
        await storage.put(key, Buffer.from('1'));
      }
      assert.equal(await storage.deletePrefix('d/x/'), 3);
      assert.deepEqual(await keys(storage, 'd/'), ['d/y/1']);
      assert.equal(await storage.deletePrefix('d/x/'), 0);
      await storage.delete('d/y/1');
      assert.deepEqual(await keys(storage, ''), []);
    });

    run('keys that could escape the store are refused', async (storage) => {
      for (const key of ['../x', '/abs', 'a/../b', '.hidden', 'a//b', '']) {
        await assert.rejects(storage.put(key, Buffer.from('x')), /invalid storage key/);
      }
    });

    run('concurrent puts of one key leave one whole version', async (storage) => {
      const versions = Array.from({ length: 8 }, (_, i) => Buffer.alloc(64 * 1024, 65 + i));
      await Promise.all(versions.map((body) => storage.put('c/seg.m4s', body)));
      const stored = Buffer.concat(await (await storage.get('c/seg.m4s')).body.toArray());
      assert.ok(versions.some((body) => body.equals(stored)));
    });

    run('a stream that fails mid-way stores nothing', async (storage) => {
      async function* broken() {
        yield Buffer.from('part one');
        throw new Error('source broke');
      }
      await assert.rejects(storage.put('f/partial.m4s', Readable.from(broken())));
      assert.equal(await storage.head('f/partial.m4s'), null);
    });
  });
}
