/**
 * Secret and public random identifiers from the CSPRNG: stream keys (`sk_` + 32 base62
 * characters, ~190 bits) and playback IDs (20 lowercase alphanumerics, ~103 bits).
 */
import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const LOWER36 = '0123456789abcdefghijklmnopqrstuvwxyz';

/** `length` characters drawn uniformly from `alphabet` (rejection sampling, no modulo bias). */
export function randomString(alphabet: string, length: number): string {
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < limit) {
        out += alphabet[byte % alphabet.length];
        if (out.length === length) {
          break;
        }
      }
    }
  }
  return out;
}

/** A new secret stream key. */
export function newStreamKey(): string {
  return `sk_${randomString(BASE62, 32)}`;
}

/** A new public playback ID. */
export function newPlaybackId(): string {
  return randomString(LOWER36, 20);
}
