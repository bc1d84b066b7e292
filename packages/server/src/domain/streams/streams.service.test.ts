import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testBackends } from '../../testing/databases.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { toGlobalId } from '../ids.js';
import { PAGE_DEFAULT } from '../pagination.js';
import { MAX_ACTIVE_KEYS_PER_STREAM } from './stream-keys.service.js';
import { openStreamTestDatabase, type StreamTestDatabase } from './stream-test-support.js';

function validation(field: string, constraint?: string) {
  return (error: unknown) =>
    error instanceof ValidationError &&
    error.field === field &&
    (constraint === undefined || error.constraint === constraint);
}

const notFound = (error: unknown) => error instanceof NotFoundError;

for (const backend of testBackends()) {
  describe(`streams service on ${backend.name}`, () => {
    let t: StreamTestDatabase;
    let tenant: string;
    let other: string;
    const stopped: string[] = [];

    before(async () => {
      t = await openStreamTestDatabase(backend, {
        onDeleted: (streamId) => stopped.push(streamId),
        resolveHost: async (host) => (host === 'camera.example' ? ['93.184.216.34'] : ['10.1.1.1']),
      });
      tenant = await t.tenant('a');
      other = await t.tenant('b');
    });
    after(() => t.close());

    it('creates a PUSH stream with a trimmed name, a CSPRNG key, a playback ID and OFFLINE metrics', async () => {
      const stream = await t.streams.create(tenant, { name: '  My show  ', record: true, description: ' d ' });
      assert.equal(stream.name, 'My show');
      assert.equal(stream.description, 'd');
      assert.equal(stream.record, true);
      assert.equal(stream.ingestMode, 'PUSH');
      assert.equal(stream.pullSource, null);
      assert.match(stream.streamKey, /^sk_[0-9A-Za-z]{32}$/);
      assert.match(stream.playbackId, /^[0-9a-z]{20}$/);
      assert.match(stream.id, /^[0-9a-f-]{36}$/);
      assert.deepEqual(
        { status: stream.metrics.status, isLive: stream.metrics.isLive, viewers: stream.metrics.currentViewers },
        { status: 'OFFLINE', isLive: false, viewers: 0 },
      );
      const again = await t.streams.create(tenant, { name: 'x' });
      assert.notEqual(again.streamKey, stream.streamKey);
      assert.notEqual(again.playbackId, stream.playbackId);
    });

    it('refuses bad names and descriptions with the field named', async () => {
      await assert.rejects(t.streams.create(tenant, { name: '   ' }), validation('input.name', 'required'));
      await assert.rejects(t.streams.create(tenant, {}), validation('input.name', 'required'));
      await assert.rejects(t.streams.create(tenant, { name: 'n'.repeat(256) }), validation('input.name', 'length'));
      assert.equal((await t.streams.create(tenant, { name: 'n'.repeat(255) })).name.length, 255);
      await assert.rejects(
        t.streams.create(tenant, { name: 'a', description: 'd'.repeat(2001) }),
        validation('input.description', 'length'),
      );
    });

    it('validates pull sources: scheme, shape, and address class', async () => {
      const field = 'input.pullSource.sourceUri';
      const pull = (sourceUri?: string) =>
        t.streams.create(tenant, { name: 'p', ingestMode: 'PULL', pullSource: { sourceUri } });
      await assert.rejects(t.streams.create(tenant, { name: 'p', ingestMode: 'PULL' }), validation(field, 'required'));
      await assert.rejects(
        pull('rtmp://1.2.3.4/live/x'),
        (e: unknown) => validation(field, 'scheme')(e) && /RTMP pull/.test(String(e)),
      );
      await assert.rejects(
        pull('http://1.2.3.4/live.flv'),
        (e: unknown) => validation(field, 'scheme')(e) && /FLV/.test(String(e)),
      );
      await assert.rejects(pull('http://1.2.3.4/page.html'), validation(field, 'format'));
      await assert.rejects(pull('ftp://1.2.3.4/a.ts'), validation(field, 'scheme'));
      await assert.rejects(pull('srt://1.2.3.4'), validation(field, 'port'));
      await assert.rejects(pull('not a uri'), validation(field, 'format'));
      await assert.rejects(pull('rtsp://192.168.1.20:554/cam'), validation(field, 'public_address'));
      await assert.rejects(pull('udp://@239.1.1.1:1234'), validation(field, 'public_address'));
      await assert.rejects(pull('rtsp://[::ffff:127.0.0.1]/cam'), validation(field, 'public_address'));
      await assert.rejects(pull('rtsp://internal.example/cam'), validation(field, 'public_address'));
      await assert.rejects(
        t.streams.create(tenant, { name: 'p', pullSource: { sourceUri: 'rtsp://1.2.3.4/x' } }),
        validation('input.pullSource', 'push_mode'),
      );
      for (const uri of [
        'rtsp://user:secret@camera.example:554/live?token=abc',
        'rtsps://1.2.3.4/cam',
        'srt://1.2.3.4:9000?streamid=abc&passphrase=hunter22hunter',
        'rist://1.2.3.4:5000',
        'https://camera.example/live/index.m3u8',
        'http://1.2.3.4/a.ts',
        'https://1.2.3.4/a.mkv',
        'https://1.2.3.4/a.webm',
        'udp://8.8.8.8:1234',
      ]) {
        const stream = await pull(uri);
        assert.equal(stream.ingestMode, 'PULL', uri);
        assert.equal(stream.pullSource?.class, 'public', uri);
      }
      const secret = await pull('rtsp://user:secret@camera.example:554/live?token=abc#frag');
      assert.equal(secret.pullSource?.sourceUriRedacted, 'rtsp://***@camera.example:554/live?token=***');
    });

    it('accepts private pull sources only when the node allows them', async () => {
      const open = await openStreamTestDatabase(backend, { allowPrivatePullSources: true });
      try {
        const id = await open.tenant();
        const stream = await open.streams.create(id, {
          name: 'lan camera',
          ingestMode: 'PULL',
          pullSource: { sourceUri: 'udp://@239.1.1.1:1234' },
          sourceLocation: 'studio A',
        });
        assert.equal(stream.pullSource?.class, 'private');
        assert.equal(stream.sourceLocation, 'studio A');
      } finally {
        await open.close();
      }
    });

    it('updates fields, keeps ingestMode immutable, and accepts global or raw IDs', async () => {
      const stream = await t.streams.create(tenant, { name: 'before' });
      const updated = await t.streams.update(tenant, toGlobalId('Stream', stream.id), {
        name: ' after ',
        record: true,
        description: null,
      });
      assert.equal(updated.name, 'after');
      assert.equal(updated.record, true);
      assert.ok(updated.updatedAt.getTime() >= stream.updatedAt.getTime());
      await assert.rejects(
        t.streams.update(tenant, stream.id, { ingestMode: 'PULL' }),
        validation('input.ingestMode', 'immutable'),
      );
      assert.equal((await t.streams.update(tenant, stream.id, { ingestMode: 'PUSH' })).ingestMode, 'PUSH');
      await assert.rejects(t.streams.update(tenant, stream.id, { name: '' }), validation('input.name', 'required'));
      await assert.rejects(
        t.streams.update(tenant, stream.id, { pullSource: { sourceUri: 'rtsp://1.2.3.4/x' } }),
        validation('input.pullSource', 'push_mode'),
      );
    });

    it("answers NOT_FOUND for another tenant's stream and for malformed IDs, changing nothing", async () => {
      const stream = await t.streams.create(tenant, { name: 'mine' });
      await assert.rejects(t.streams.get(other, stream.id), notFound);
      await assert.rejects(t.streams.get(other, toGlobalId('Stream', stream.id)), notFound);
      await assert.rejects(t.streams.update(other, stream.id, { name: 'stolen' }), notFound);
      await assert.rejects(t.streams.delete(other, stream.id), notFound);
      await assert.rejects(t.streams.refreshKey(other, stream.id), notFound);
      await assert.rejects(t.keys.create(other, stream.id, { name: 'k' }), notFound);
      await assert.rejects(t.keys.list(other, stream.id, {}), notFound);
      await assert.rejects(t.streams.get(tenant, 'not-a-uuid'), notFound);
      await assert.rejects(t.streams.get(tenant, toGlobalId('StreamKey', stream.id)), validation('id', 'type'));
      const unchanged = await t.streams.get(tenant, stream.id);
      assert.equal(unchanged.name, 'mine');
      assert.equal(unchanged.streamKey, stream.streamKey);
      assert.equal(
        (await t.streams.list(other, {})).nodes.some((s) => s.id === stream.id),
        false,
      );
    });

    it('pages newest first with keyset cursors that stay stable when streams are inserted between pages', async () => {
      const own = await t.tenant('pager');
      const created: string[] = [];
      for (let i = 0; i < 5; i++) {
        created.push((await t.streams.create(own, { name: `s${i}` })).id);
      }
      const first = await t.streams.list(own, { first: 2 });
      assert.deepEqual(
        first.nodes.map((s) => s.name),
        ['s4', 's3'],
      );
      assert.equal(first.totalCount, 5);
      assert.equal(first.pageInfo.hasNextPage, true);
      assert.equal(first.pageInfo.hasPreviousPage, false);
      await t.streams.create(own, { name: 'inserted' });
      const second = await t.streams.list(own, { first: 2, after: first.pageInfo.endCursor });
      assert.deepEqual(
        second.nodes.map((s) => s.name),
        ['s2', 's1'],
      );
      assert.equal(second.totalCount, 6);
      const third = await t.streams.list(own, { first: 2, after: second.pageInfo.endCursor });
      assert.deepEqual(
        third.nodes.map((s) => s.name),
        ['s0'],
      );
      assert.equal(third.pageInfo.hasNextPage, false);
      const back = await t.streams.list(own, { last: 2, before: third.pageInfo.startCursor });
      assert.deepEqual(
        back.nodes.map((s) => s.name),
        ['s2', 's1'],
      );
      assert.equal(back.pageInfo.hasPreviousPage, true);
      assert.deepEqual(
        (await t.streams.list(own, {}, 'insert')).nodes.map((s) => s.name),
        ['inserted'],
      );
      assert.equal((await t.streams.list(own, {}, '%')).totalCount, 0);
      await assert.rejects(t.streams.list(own, { first: 501 }), validation('page.first', 'range'));
      await assert.rejects(t.streams.list(own, { after: 'garbage' }), validation('page.after', 'cursor'));
      assert.equal((await t.streams.list(own, { first: 0 })).nodes.length, 0);
    });

    it(`pages ${PAGE_DEFAULT} streams when no page is given, with hasNextPage when more exist`, async () => {
      assert.equal(PAGE_DEFAULT, 50, 'DESIGN §5: page.first defaults to 50');
      const own = await t.tenant('default page');
      for (let i = 0; i <= PAGE_DEFAULT; i++) {
        await t.streams.create(own, { name: `d${i}` });
      }
      for (const page of [undefined, null, {}]) {
        const listed = await t.streams.list(own, page);
        assert.equal(listed.nodes.length, PAGE_DEFAULT, JSON.stringify(page));
        assert.equal(listed.totalCount, PAGE_DEFAULT + 1);
        assert.equal(listed.pageInfo.hasNextPage, true);
        assert.equal(listed.nodes[0]?.name, `d${PAGE_DEFAULT}`, 'newest first');
        const rest = await t.streams.list(own, { after: listed.pageInfo.endCursor });
        assert.deepEqual(
          rest.nodes.map((s) => s.name),
          ['d0'],
        );
        assert.equal(rest.pageInfo.hasNextPage, false);
      }
    });

    it('deletes a stream with its keys and asks the media plane to stop it', async () => {
      const stream = await t.streams.create(tenant, { name: 'doomed' });
      const deleted = await t.streams.delete(tenant, toGlobalId('Stream', stream.id));
      assert.equal(deleted, stream.id);
      assert.ok(stopped.includes(stream.id));
      await assert.rejects(t.streams.get(tenant, stream.id), notFound);
      assert.equal(await t.keys.authorizeIngest(stream.streamKey), undefined);
      await assert.rejects(t.streams.delete(tenant, stream.id), notFound);
    });

    it('keeps several active keys, refuses deleting the primary, and rotates it', async () => {
      const stream = await t.streams.create(tenant, { name: 'keys' });
      const backup = await t.keys.create(tenant, toGlobalId('Stream', stream.id), { name: ' backup ' });
      assert.equal(backup.keyName, 'backup');
      assert.equal(backup.isActive, true);
      assert.equal(backup.isPrimary, false);
      assert.match(backup.keyValue, /^sk_[0-9A-Za-z]{32}$/);
      await assert.rejects(t.keys.create(tenant, stream.id, { name: '' }), validation('input.name', 'required'));
      const listed = await t.keys.list(tenant, stream.id, {});
      assert.equal(listed.totalCount, 2);
      const primary = listed.nodes.find((key) => key.isPrimary);
      assert.equal(primary?.keyValue, stream.streamKey);
      assert.ok(primary);
      await assert.rejects(t.keys.delete(tenant, stream.id, primary.id), validation('keyId', 'primary'));

      const rotated = await t.streams.refreshKey(tenant, stream.id);
      assert.notEqual(rotated.streamKey, stream.streamKey);
      assert.equal(await t.keys.authorizeIngest(stream.streamKey), undefined);
      assert.equal((await t.keys.authorizeIngest(rotated.streamKey))?.streamId, stream.id);
      assert.equal((await t.keys.authorizeIngest(backup.keyValue))?.streamId, stream.id);
      const afterRotation = await t.keys.list(tenant, stream.id, {});
      assert.equal(afterRotation.totalCount, 3);
      assert.equal(afterRotation.nodes.find((key) => key.keyValue === stream.streamKey)?.isActive, false);

      assert.equal(await t.keys.delete(tenant, stream.id, toGlobalId('StreamKey', backup.id)), backup.id);
      assert.equal(await t.keys.authorizeIngest(backup.keyValue), undefined);
      await assert.rejects(t.keys.delete(tenant, stream.id, backup.id), notFound);
      await assert.rejects(t.keys.delete(other, stream.id, backup.id), notFound);
    });

    it(`limits a stream to ${MAX_ACTIVE_KEYS_PER_STREAM} active keys`, async () => {
      const stream = await t.streams.create(tenant, { name: 'many keys' });
      for (let i = 1; i < MAX_ACTIVE_KEYS_PER_STREAM; i++) {
        await t.keys.create(tenant, stream.id, { name: `k${i}` });
      }
      await assert.rejects(t.keys.create(tenant, stream.id, { name: 'one too many' }), validation('streamId', 'limit'));
    });
  });
}
