/**
 * ISO 8601 timestamps in API input (the `Time` scalar is a string): one parser, so every field
 * refuses "soon" or "5" (which `new Date` reads as the year 2005) with the same format error.
 */
import { ValidationError } from './errors.js';

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** Parses `value` as an ISO 8601 date or timestamp, or throws a ValidationError naming `field`. */
export function parseTimestamp(value: string, field: string): Date {
  const trimmed = value.trim();
  const ms = ISO_TIMESTAMP.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  if (!Number.isFinite(ms)) {
    throw new ValidationError(field, 'format', `${field} must be an ISO 8601 timestamp, e.g. 2026-11-21T00:00:00Z`);
  }
  return new Date(ms);
}

/** Parses `value` as a timestamp after `now`, or throws a ValidationError naming `field`. */
export function futureTimestamp(value: string, field: string, now: Date): Date {
  const time = parseTimestamp(value, field);
  if (time <= now) {
    throw new ValidationError(field, 'future', `${field} must be a time in the future`);
  }
  return time;
}
