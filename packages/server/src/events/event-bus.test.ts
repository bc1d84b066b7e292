import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EventBus } from './event-bus.js';
import type { AnyBusEvent } from './event-map.js';

const TENANT = 't-1';
const OTHER = 't-2';

describe('EventBus', () => {
  it('delivers a stream event to subscribers of that stream and of its tenant, with id, time and origin', () => {
    const bus = new EventBus({ instanceId: 'node-a' });
    const byStream: AnyBusEvent[] = [];
    const byTenant: AnyBusEvent[] = [];
    const otherStream: AnyBusEvent[] = [];
    bus.subscribe({ tenantId: TENANT, streamId: 's-1' }, (e) => byStream.push(e));
    bus.subscribe({ tenantId: TENANT }, (e) => byTenant.push(e));
    bus.subscribe({ tenantId: TENANT, streamId: 's-2' }, (e) => otherStream.push(e));
    const event = bus.publish('stream.live', { tenantId: TENANT, streamId: 's-1' });
    assert.deepEqual(byStream, [event]);
    assert.deepEqual(byTenant, [event]);
    assert.deepEqual(otherStream, []);
    assert.equal(event.origin, 'node-a');
    assert.match(event.id, /^[0-9a-f-]{36}$/);
    assert.ok(Date.parse(event.occurredAt) > 0);
  });

  it('never delivers an event to another tenant, even for the same stream id', () => {
    const bus = new EventBus();
    const seen: AnyBusEvent[] = [];
    bus.subscribe({ tenantId: OTHER, streamId: 's-1' }, (e) => seen.push(e));
    bus.subscribe({ tenantId: OTHER }, (e) => seen.push(e));
    bus.publish('stream.live', { tenantId: TENANT, streamId: 's-1' });
    assert.deepEqual(seen, []);
  });

  it('filters by event name and stops after unsubscribe', () => {
    const bus = new EventBus();
    const seen: string[] = [];
    const stop = bus.subscribe({ tenantId: TENANT, streamId: 's-1', names: ['stream.offline'] }, (e) =>
      seen.push(e.name),
    );
    bus.publish('stream.live', { tenantId: TENANT, streamId: 's-1' });
    bus.publish('stream.offline', { tenantId: TENANT, streamId: 's-1' });
    stop();
    bus.publish('stream.offline', { tenantId: TENANT, streamId: 's-1' });
    assert.deepEqual(seen, ['stream.offline']);
    assert.equal(bus.subscriberCount, 0);
  });

  it('tells a demand watcher when the first subscription or tap receiving an event name opens and the last closes', () => {
    const bus = new EventBus();
    const stopAll = bus.subscribe({ tenantId: TENANT }, () => undefined);
    const seen: boolean[] = [];
    bus.watchDemand('viewer.metrics', (wanted) => seen.push(wanted));
    assert.deepEqual(seen, [true], 'a tenant-wide subscription receives every name');
    stopAll();
    const other = bus.subscribe({ tenantId: TENANT, names: ['stream.live'] }, () => undefined);
    const metrics = bus.subscribe({ tenantId: TENANT, streamId: 's-1', names: ['viewer.metrics'] }, () => undefined);
    const untap = bus.tap(['viewer.metrics'], () => undefined);
    metrics();
    metrics();
    untap();
    other();
    assert.deepEqual(seen, [true, false, true, false]);
  });

  it('delivers received (remote) events once, ignoring duplicates', () => {
    const a = new EventBus();
    const b = new EventBus();
    const seen: AnyBusEvent[] = [];
    b.subscribe({ tenantId: TENANT, streamId: 's-1' }, (e) => seen.push(e));
    const event = a.publish('stream.live', { tenantId: TENANT, streamId: 's-1' }) as AnyBusEvent;
    b.receive(event);
    b.receive(event);
    assert.deepEqual(seen, [event]);
  });

  it('keeps delivering to other listeners when one throws', () => {
    const bus = new EventBus();
    const seen: string[] = [];
    bus.subscribe({ tenantId: TENANT }, () => {
      throw new Error('boom');
    });
    bus.subscribe({ tenantId: TENANT }, (e) => seen.push(e.name));
    bus.publish('vod.requested', { tenantId: TENANT, vodHash: 'v1' });
    assert.deepEqual(seen, ['vod.requested']);
  });

  it('taps every tenant for internal consumers', () => {
    const bus = new EventBus();
    const seen: string[] = [];
    const untap = bus.tap(['stream.live'], (e) => seen.push(e.data.tenantId));
    bus.publish('stream.live', { tenantId: TENANT, streamId: 's-1' });
    bus.publish('stream.offline', { tenantId: TENANT, streamId: 's-1' });
    bus.publish('stream.live', { tenantId: OTHER, streamId: 's-2' });
    untap();
    bus.publish('stream.live', { tenantId: OTHER, streamId: 's-3' });
    assert.deepEqual(seen, [TENANT, OTHER]);
  });

  it('refuses an event without a tenant', () => {
    const bus = new EventBus();
    assert.throws(() => bus.publish('stream.live', { tenantId: '', streamId: 's' }), /needs a tenantId/);
  });
});
