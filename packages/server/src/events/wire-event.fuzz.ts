/**
 * Fuzz target of the cross-process event decoder (NOTIFY payloads arrive from any session that
 * can reach the database). Seeds are real encoded events.
 */
import type { FuzzTarget } from '@airwave/media/testing/fuzz';
import type { AnyBusEvent } from './event-map.js';
import { decodeWireEvent, encodeWireEvent } from './wire-event.js';

const seedEvents: AnyBusEvent[] = [
  {
    id: '6f1c2a4e-8d0b-4a53-9a51-0c3f7e2d9b11',
    name: 'stream.live',
    occurredAt: '2026-11-21T08:00:00.000Z',
    origin: '0b9a3c7e-1f24-4d8e-b6a5-3e2f1d0c9b8a',
    data: {
      tenantId: 'a5d1f3b2-7c4e-4f6a-8b9d-0e1f2a3b4c5d',
      streamId: 'c3e5a7b9-1d2f-4a6c-8e0b-2d4f6a8c0e1f',
      nodeId: 'node-1',
      details: { protocol: 'rtmp', tracks: ['h264', 'aac'] },
    },
  },
  {
    id: '7a2d3b5f-9e1c-4b64-8b62-1d4a8f3e0c22',
    name: 'viewer.metrics',
    occurredAt: '2026-11-21T08:00:02.000Z',
    origin: '0b9a3c7e-1f24-4d8e-b6a5-3e2f1d0c9b8a',
    data: {
      tenantId: 'a5d1f3b2-7c4e-4f6a-8b9d-0e1f2a3b4c5d',
      streamId: 'c3e5a7b9-1d2f-4a6c-8e0b-2d4f6a8c0e1f',
      nodeId: 'node-1',
      currentViewers: 3,
      egressBytesPerSecond: null,
      bytesIn: 123_456,
    },
  },
];

/** Fuzz targets of this module. */
export const fuzzTargets: FuzzTarget[] = [
  {
    name: 'events/wire-event decode',
    seeds: seedEvents.map((event) => new TextEncoder().encode(encodeWireEvent(event, 7999) ?? '')),
    run(input) {
      const event = decodeWireEvent(new TextDecoder().decode(input));
      if (event && encodeWireEvent(event, 1_000_000) === undefined) {
        throw new Error('a decoded event could not be encoded again');
      }
    },
  },
];
