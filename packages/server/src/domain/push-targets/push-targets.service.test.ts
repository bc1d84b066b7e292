import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testBackends } from '../../testing/databases.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { toGlobalId } from '../ids.js';
import { SealedText } from '../sealed-text.js';
import { openStreamTestDatabase, type StreamTestDatabase } from '../streams/stream-test-support.js';
import { StreamsStore } from '../streams/streams.store.js';
import { PushTargetsService } from './push-targets.service.js';
import { PushTargetsStore } from './push-targets.store.js';

const validation = (field: string, constraint?: string) => (error: unknown) =>
  error instanceof ValidationError &&
  error.field === field &&
  (constraint === undefined || error.constraint === constraint);
const notFound = (error: unknown) => error instanceof NotFoundError;
const KEY = 'live_987654321_SuperSecretKey';

for (const backend of testBackends()) {
  describe(`push targets service on ${backend.name}`, () => {
    let t: StreamTestDatabase;
    let service: PushTargetsService;
    let privateAllowed: PushTargetsService;
    let store: PushTargetsStore;
    let tenant: string;
    let other: string;
    let streamId: string;
    const changed: string[] = [];

    before(async () => {
      t = await openStreamTestDatabase(backend);
      store = new PushTargetsStore(t.database.db);
      const deps = {
        store,
        streams: new StreamsStore(t.database.db),
        sealer: SealedText.fromBase64Url(SealedText.newKey()),
        resolveHost: async (host: string) => (host === 'live.example' ? ['93.184.216.34'] : ['10.1.1.1']),
        onChanged: (_tenantId: string, id: string) => changed.push(id),
      };
      service = new PushTargetsService({ ...deps, allowPrivate: false });
      privateAllowed = new PushTargetsService({ ...deps, allowPrivate: true });
      tenant = await t.tenant('a');
      other = await t.tenant('b');
      streamId = (await t.streams.create(tenant, { name: 'show' })).id;
    });
    after(() => t.close());

    it('creates an idle, enabled target with the URI masked on read and sealed at rest', async () => {
      const target = await service.create(tenant, toGlobalId('Stream', streamId), {
        platform: 'twitch',
        name: 'Twitch',
        targetUri: `rtmp://live.example/app/${KEY}`,
      });
      assert.equal(target.status, 'idle');
      assert.equal(target.isEnabled, true);
      assert.equal(target.platform, 'twitch');
      assert.equal(target.streamId, streamId);
      assert.equal(target.targetUri, 'rtmp://live.example/app/live****');
      assert.deepEqual(changed.at(-1), streamId);
      const raw = await t.database.db.execute(`SELECT * FROM push_targets WHERE id = '${target.id}'`);
      assert.ok(!JSON.stringify(raw).includes(KEY), 'the key is stored in the clear');
      const secrets = await service.secretsForStream(streamId);
      assert.deepEqual(secrets, [{ id: target.id, streamId, targetUri: `rtmp://live.example/app/${KEY}` }]);
      const listed = await service.listForStream(tenant, streamId);
      assert.deepEqual(
        listed.map((item) => item.id),
        [target.id],
      );
      assert.deepEqual(await service.listForStream(other, streamId), []);
    });

    it('refuses bad platforms, names, schemes and private hosts with the input field named', async () => {
      const id = streamId;
      const uri = 'rtmp://live.example/app/key';
      await assert.rejects(
        service.create(tenant, id, { name: 'x', platform: 'myspace', targetUri: uri }),
        validation('input.platform'),
      );
      await assert.rejects(
        service.create(tenant, id, { name: ' ', targetUri: uri }),
        validation('input.name', 'required'),
      );
      await assert.rejects(
        service.create(tenant, id, { name: 'x', targetUri: 'http://live.example/a/b' }),
        validation('input.targetUri', 'scheme'),
      );
      await assert.rejects(
        service.create(tenant, id, { name: 'x', targetUri: '' }),
        validation('input.targetUri', 'required'),
      );
      await assert.rejects(
        service.create(tenant, id, { name: 'x', targetUri: 'rtmp://10.0.0.1/app/key' }),
        validation('input.targetUri', 'public_address'),
      );
      await assert.rejects(
        service.create(tenant, id, { name: 'x', targetUri: 'rtmp://intranet/app/key' }),
        validation('input.targetUri', 'public_address'),
      );
      const allowed = await privateAllowed.create(tenant, id, { name: 'lan', targetUri: 'rtmp://10.0.0.1/app/key' });
      assert.equal(allowed.platform, 'custom');
      await service.delete(tenant, allowed.id);
    });

    it('updates name, URI and enabled state; deletes; other tenants and unknown IDs answer NOT_FOUND', async () => {
      const target = await service.create(tenant, streamId, {
        name: 'YT',
        targetUri: 'srt://live.example:9000?streamid=abc',
      });
      assert.equal(target.targetUri, 'srt://live.example:9000');
      const updated = await service.update(tenant, toGlobalId('PushTarget', target.id), {
        name: 'YouTube',
        isEnabled: false,
        targetUri: 'rtmps://live.example/live2/abcd-efgh-ijkl',
      });
      assert.deepEqual(
        { name: updated.name, isEnabled: updated.isEnabled, uri: updated.targetUri },
        { name: 'YouTube', isEnabled: false, uri: 'rtmps://live.example/live2/abc****' },
      );
      assert.ok(
        !(await service.secretsForStream(streamId)).some((secret) => secret.id === target.id),
        'disabled listed',
      );
      await assert.rejects(service.update(other, target.id, { name: 'x' }), notFound);
      await assert.rejects(service.delete(other, target.id), notFound);
      await assert.rejects(
        service.create(other, streamId, { name: 'x', targetUri: 'rtmp://live.example/a/b' }),
        notFound,
      );
      await assert.rejects(service.update(tenant, 'nope', { name: 'x' }), notFound);
      await assert.rejects(
        service.update(tenant, target.id, { targetUri: 'udp://live.example:1' }),
        validation('input.targetUri', 'scheme'),
      );
      assert.equal(await service.delete(tenant, target.id), target.id);
      await assert.rejects(service.delete(tenant, target.id), notFound);
    });

    it('answers every stream of one page with one batched lookup, and overlays live counters', async () => {
      const second = (await t.streams.create(tenant, { name: 'second' })).id;
      const made = await service.create(tenant, second, { name: 'b', targetUri: 'rtmp://live.example/a/k2' });
      const [a, b] = await Promise.all([
        service.listForStream(tenant, streamId),
        service.listForStream(tenant, second),
      ]);
      assert.equal(a?.length, 1);
      assert.deepEqual(
        b?.map((target) => target.id),
        [made.id],
      );
      service.showLive((id) =>
        id === made.id
          ? {
              status: 'pushing',
              lastError: null,
              lastPushedAt: new Date(),
              bytesSent: 10,
              bitrateBps: 8000,
              droppedUnits: 0,
            }
          : undefined,
      );
      const [live] = await service.listForStream(tenant, second);
      assert.deepEqual({ status: live?.status, bytes: live?.bytesSent }, { status: 'pushing', bytes: 10 });
    });

    it('writes the counters of many targets in one statement, skipping targets that are gone', async () => {
      const third = (await t.streams.create(tenant, { name: 'third' })).id;
      const one = await service.create(tenant, third, { name: 'one', targetUri: 'rtmp://live.example/a/k3' });
      const two = await service.create(tenant, third, { name: 'two', targetUri: 'rtmp://live.example/a/k4' });
      const at = new Date('2026-11-25T22:00:00.000Z');
      await service.reportCounters('node-7', [
        { id: one.id, lastPushedAt: at, bytesSent: 5_000_000_000, bitrateBps: 3_000_000, droppedUnits: 12 },
        { id: two.id, lastPushedAt: null, bytesSent: 0, bitrateBps: 0, droppedUnits: 0 },
        { id: '00000000-0000-4000-8000-000000000000', lastPushedAt: at, bytesSent: 1, bitrateBps: 1, droppedUnits: 1 },
      ]);
      await service.reportCounters('node-7', []);
      service.showLive(() => undefined);
      const read = new Map((await service.listForStream(tenant, third)).map((target) => [target.id, target]));
      const view = (id: string) => {
        const target = read.get(id);
        return [
          target?.bytesSent,
          target?.bitrateBps,
          target?.droppedUnits,
          target?.lastPushedAt?.toISOString() ?? null,
        ];
      };
      assert.deepEqual(view(one.id), [5_000_000_000, 3_000_000, 12, at.toISOString()]);
      assert.deepEqual(view(two.id), [0, 0, 0, null]);
      assert.equal(read.get(one.id)?.status, 'idle', 'counters do not touch the status');
    });
  });
}
