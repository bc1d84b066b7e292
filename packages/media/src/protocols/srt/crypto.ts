/**
 * SRT payload encryption (draft-sharabayko-srt-01 §6): the KEK from the passphrase by PBKDF2
 * (RFC 8018, HMAC-SHA1, 2048 iterations, salt = the last 8 bytes of the KM salt), stream keys
 * unwrapped with AES key wrap (RFC 3394), payloads in AES-CTR (128/192/256) with the counter
 * block = MSB(112, salt) XOR (sequence number at bytes 10..13), block counter in the last 16 bits.
 */
import { createCipheriv, createDecipheriv, pbkdf2Sync, randomBytes } from 'node:crypto';
import type { KeyMaterial } from './key-material.js';

/** PBKDF2 iterations of §6.1.3. */
const PBKDF2_ITERATIONS = 2048;
/** RFC 3394 §2.2.3 default initial value. */
const KEY_WRAP_IV = Buffer.from('a6a6a6a6a6a6a6a6', 'hex');

/** Passphrase lengths libsrt accepts (SRTO_PASSPHRASE). */
export const PASSPHRASE_MIN = 10;
/** Longest passphrase libsrt accepts. */
export const PASSPHRASE_MAX = 79;

/** The key-encrypting key of a passphrase for a KM salt and key length. */
export function deriveKek(passphrase: string, salt: Uint8Array, keyLength: number): Buffer {
  return pbkdf2Sync(passphrase, salt.subarray(salt.byteLength - 8), PBKDF2_ITERATIONS, keyLength, 'sha1');
}

function wrapAlgorithm(kekLength: number): string {
  return `id-aes${kekLength * 8}-wrap`;
}

/** RFC 3394 unwrap; undefined when the integrity check fails (wrong passphrase). */
export function unwrapKeys(kek: Buffer, wrapped: Uint8Array): Buffer | undefined {
  try {
    const decipher = createDecipheriv(wrapAlgorithm(kek.byteLength), kek, KEY_WRAP_IV);
    return Buffer.concat([decipher.update(wrapped), decipher.final()]);
  } catch {
    return undefined;
  }
}

/** RFC 3394 wrap (senders and tests). */
export function wrapKeys(kek: Buffer, keys: Uint8Array): Buffer {
  const cipher = createCipheriv(wrapAlgorithm(kek.byteLength), kek, KEY_WRAP_IV);
  return Buffer.concat([cipher.update(keys), cipher.final()]);
}

/** The stream keys of a KM message, as far as it carries them. */
export interface StreamKeys {
  readonly even: Buffer | undefined;
  readonly odd: Buffer | undefined;
  readonly salt: Buffer;
}

/** Unwraps the stream keys of `km` with `passphrase`; undefined when the passphrase is wrong. */
export function unwrapKeyMaterial(km: KeyMaterial, passphrase: string): StreamKeys | undefined {
  const keys = unwrapKeys(deriveKek(passphrase, km.salt, km.keyLength), km.wrapped);
  if (!keys) {
    return undefined;
  }
  const first = keys.subarray(0, km.keyLength);
  const second = keys.subarray(km.keyLength, 2 * km.keyLength);
  const salt = Buffer.from(km.salt);
  if (km.keys === 3) {
    return { even: first, odd: second, salt };
  }
  return km.keys === 1 ? { even: first, odd: undefined, salt } : { even: undefined, odd: first, salt };
}

/** The AES-CTR counter block of a packet. */
function counterBlock(salt: Uint8Array, sequence: number): Buffer {
  const iv = Buffer.alloc(16);
  iv.writeUInt32BE(sequence >>> 0, 10);
  for (let i = 0; i < 14; i++) {
    iv[i] = (iv[i] as number) ^ (salt[i] as number);
  }
  return iv;
}

function ctrAlgorithm(key: Buffer): string {
  return `aes-${key.byteLength * 8}-ctr`;
}

/** Decrypts (or encrypts: CTR is symmetric) one payload into a new buffer. */
export function cryptPayload(key: Buffer, salt: Uint8Array, sequence: number, payload: Uint8Array): Buffer {
  const cipher = createDecipheriv(ctrAlgorithm(key), key, counterBlock(salt, sequence));
  return Buffer.concat([cipher.update(payload), cipher.final()]);
}

/** A random stream key and salt (tests and senders). */
export function randomStreamKey(keyLength: number): { key: Buffer; salt: Buffer } {
  return { key: randomBytes(keyLength), salt: randomBytes(16) };
}
