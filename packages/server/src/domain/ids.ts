/**
 * Global IDs (DESIGN §5): base64 of `Type:rawId`. Raw IDs are accepted as input too; a global
 * ID of another type is rejected.
 */
import { ValidationError } from './errors.js';

/** Encodes a global ID. */
export function toGlobalId(type: string, rawId: string): string {
  return Buffer.from(`${type}:${rawId}`, 'utf8').toString('base64');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Decodes a global or raw ID of `type`; returns the raw ID. `field` names the input for errors. */
export function fromGlobalId(type: string, id: string, field = 'id'): string {
  const trimmed = id.trim();
  if (UUID.test(trimmed)) {
    return trimmed.toLowerCase();
  }
  const decoded = Buffer.from(trimmed, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon > 0 && /^[A-Za-z]+$/.test(decoded.slice(0, colon))) {
    const actualType = decoded.slice(0, colon);
    if (actualType !== type) {
      throw new ValidationError(field, 'type', `${field} is a ${actualType} ID, expected a ${type} ID`);
    }
    return decoded.slice(colon + 1);
  }
  return trimmed;
}

/** True when `value` is a UUID (rows keyed by UUID answer NOT_FOUND for anything else). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
