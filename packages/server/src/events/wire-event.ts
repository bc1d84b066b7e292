/**
 * The JSON form of a bus event between processes (a NOTIFY payload): `{v: 1, id, name,
 * occurredAt, origin, data}`. Decoding checks the envelope and the tenant/stream fields every
 * subscriber relies on; anything else answers undefined.
 */
import { type AnyBusEvent, EVENT_NAMES, type EventName } from './event-map.js';

const WIRE_VERSION = 1;
const KNOWN_NAMES: ReadonlySet<string> = new Set<EventName>(EVENT_NAMES);
const MAX_ID_LENGTH = 128;

/** Serializes an event in at most `maxBytes` UTF-8 bytes; drops `details` if needed; else undefined. */
export function encodeWireEvent(event: AnyBusEvent, maxBytes: number): string | undefined {
  const full = JSON.stringify({ v: WIRE_VERSION, ...event });
  if (Buffer.byteLength(full, 'utf8') <= maxBytes) {
    return full;
  }
  if ('details' in event.data && event.data.details !== undefined) {
    const slim = JSON.stringify({
      v: WIRE_VERSION,
      ...event,
      data: { ...event.data, details: { truncated: true } },
    });
    if (Buffer.byteLength(slim, 'utf8') <= maxBytes) {
      return slim;
    }
  }
  return undefined;
}

/** Parses a payload from another process; undefined when it is not a valid event. */
export function decodeWireEvent(payload: string): AnyBusEvent | undefined {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (!isRecord(value) || value.v !== WIRE_VERSION) {
    return undefined;
  }
  const { id, name, occurredAt, origin, data } = value;
  if (!isShortString(id) || !isShortString(origin) || typeof name !== 'string' || !KNOWN_NAMES.has(name)) {
    return undefined;
  }
  if (typeof occurredAt !== 'string' || Number.isNaN(Date.parse(occurredAt))) {
    return undefined;
  }
  if (!isRecord(data) || !isShortString(data.tenantId)) {
    return undefined;
  }
  if (data.streamId !== undefined && !isShortString(data.streamId)) {
    return undefined;
  }
  return { id, name, occurredAt, origin, data } as unknown as AnyBusEvent;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isShortString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_ID_LENGTH;
}
