/** Unit tests of the reconnect counter on a real in-process event bus: per session, reset at offline and at a new session. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EventBus } from './event-bus.js';
import { PublisherReconnects } from './publisher-reconnects.js';

const TENANT = '00000000-0000-4000-8000-000000000001';
const STREAM = '00000000-0000-4000-8000-0000000000a1';
const OTHER = '00000000-0000-4000-8000-0000000000a2';

test('counts drops per stream and session, forgets them at offline', async () => {
  const bus = new EventBus();
  const reconnects = new PublisherReconnects(bus);
  const drop = (streamId: string, startedAt: string) =>
    bus.publish('stream.reconnecting', { tenantId: TENANT, streamId, details: { startedAt } });
  drop(STREAM, '2026-11-25T21:00:00.000Z');
  drop(STREAM, '2026-11-25T21:00:00.000Z');
  drop(OTHER, '2026-11-25T21:00:00.000Z');
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(reconnects.count(STREAM), 2);
  assert.equal(reconnects.count(OTHER), 1);
  drop(STREAM, '2026-11-25T22:00:00.000Z');
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(reconnects.count(STREAM), 1, 'a new session (its end missed) starts again');
  bus.publish('stream.offline', { tenantId: TENANT, streamId: STREAM });
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(reconnects.count(STREAM), 0);
  reconnects.close();
  drop(OTHER, '2026-11-25T21:00:00.000Z');
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(reconnects.count(OTHER), 0, 'closed: no longer counting');
  await bus.close();
});
