/**
 * Identifiers of recordings and artifacts (frameworks.md §1.0): hashes are `YYYYMMDDhhmmss` (UTC)
 * followed by 16 hex digits; playback IDs are those of streams.
 */
import { randomBytes } from 'node:crypto';

/** A new DVR, chapter or clip hash for something made at `at`. */
export function newArtifactHash(at: Date): string {
  const stamp = at.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return `${stamp}${randomBytes(8).toString('hex')}`;
}

/** True when `value` has the shape of an artifact hash. */
export function isArtifactHash(value: string): boolean {
  return /^\d{14}[0-9a-f]{16}$/.test(value);
}
