import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Hub, type StreamDescription, silentLogger } from '@airwave/media';
import { until } from '@airwave/media/testing/until';
import { testVideoTrack } from '../testing/tracks.js';
import { EventBus } from './event-bus.js';
import type { AnyBusEvent } from './event-map.js';
import { attachHubEvents } from './hub-events.js';

const description: StreamDescription = { tracks: [testVideoTrack] };

function setup(reconnectWindowMs = 0) {
  const bus = new EventBus();
  const hub = new Hub({ log: silentLogger, reconnectWindowMs });
  let egress = 0;
  attachHubEvents({
    hub,
    bus,
    log: silentLogger,
    nodeId: 'node-1',
    metricsIntervalMs: 20,
    egressBytes: () => egress,
  });
  const seen: AnyBusEvent[] = [];
  bus.subscribe({ tenantId: 't-1', streamId: 's-1' }, (event) => seen.push(event));
  return {
    bus,
    hub,
    seen,
    addEgress(bytes: number) {
      egress += bytes;
    },
  };
}

describe('attachHubEvents', () => {
  it('publishes viewer connects and disconnects, holding early ones until the tenant is known', () => {
    const { bus, hub, seen } = setup();
    const publisher = hub.publish({ streamId: 's-1', playbackId: 'p-1' }, 'rtmp');
    publisher.setDescription(description);
    const close = publisher.stream.viewers.open('session-early', 'mp4');
    assert.equal(seen.length, 0, 'nothing is published before the tenant is known');
    bus.publish('stream.live', { tenantId: 't-1', streamId: 's-1' });
    publisher.stream.viewers.touch('session-hls', 'llhls');
    close();
    const connections = seen.filter((e) => e.name.startsWith('viewer.'));
    assert.deepEqual(
      connections.map((e) => [
        e.name,
        (e.data as { sessionId: string }).sessionId,
        (e.data as { protocol: string }).protocol,
      ]),
      [
        ['viewer.connected', 'session-early', 'mp4'],
        ['viewer.connected', 'session-hls', 'llhls'],
        ['viewer.disconnected', 'session-early', 'mp4'],
      ],
    );
    assert.equal(connections[0]?.data.tenantId, 't-1');
    publisher.close('done');
    const last = seen.at(-1);
    assert.equal(last?.name, 'viewer.disconnected', 'ending the stream disconnects the remaining viewer');
  });

  it('publishes viewer.metrics at its interval while live, with viewers, bytes in and egress rate', async () => {
    const { bus, hub, seen, addEgress } = setup();
    const publisher = hub.publish({ streamId: 's-1', playbackId: 'p-1' }, 'rtmp');
    publisher.setDescription(description);
    bus.publish('stream.live', { tenantId: 't-1', streamId: 's-1' });
    publisher.write({ trackId: 1, dts: 0, pts: 0, key: true, data: new Uint8Array(500) });
    publisher.stream.viewers.open('v1', 'webrtc');
    addEgress(10_000);
    await until(() => seen.filter((e) => e.name === 'viewer.metrics').length >= 3, 'three metrics events', 5000);
    const metrics = seen.flatMap((e) => (e.name === 'viewer.metrics' ? [e.data] : []));
    assert.equal(metrics[0]?.currentViewers, 1);
    assert.equal(metrics[0]?.bytesIn, 500);
    assert.equal(metrics[0]?.egressBytesPerSecond, null, 'no rate before a second sample');
    assert.equal(typeof metrics[1]?.egressBytesPerSecond, 'number');
    publisher.close('done');
    const count = seen.filter((e) => e.name === 'viewer.metrics').length;
    await new Promise((resolve) => setTimeout(resolve, 80));
    assert.equal(seen.filter((e) => e.name === 'viewer.metrics').length, count, 'no metrics after the end');
  });

  it('sends no metrics while the stream is reconnecting', async () => {
    const { bus, hub, seen } = setup(60_000);
    const publisher = hub.publish({ streamId: 's-1', playbackId: 'p-1' }, 'rtmp');
    publisher.setDescription(description);
    bus.publish('stream.live', { tenantId: 't-1', streamId: 's-1' });
    await until(() => seen.some((e) => e.name === 'viewer.metrics'), 'a metrics event', 5000);
    publisher.close('dropped');
    await new Promise((resolve) => setTimeout(resolve, 30));
    const count = seen.filter((e) => e.name === 'viewer.metrics').length;
    await new Promise((resolve) => setTimeout(resolve, 80));
    assert.equal(seen.filter((e) => e.name === 'viewer.metrics').length, count);
    hub.close();
  });
});
