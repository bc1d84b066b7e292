/**
 * SRT key material messages (draft-sharabayko-srt-01 §3.2.2): the KM message a sender puts in
 * its conclusion handshake (KMREQ) or in a user-defined control packet on key refresh, and the
 * receiver echoes back (KMRSP) — or answers with a one-word KM state when it cannot use it.
 */
import { ParseError } from '../../errors.js';

/** KM states of a one-word KMRSP (§3.2.1.2). */
export const KmState = { unsecured: 0, noSecret: 3, badSecret: 4, badCryptoMode: 5 } as const;

/** Cipher field values (§3.2.2). */
export const KmCipher = { none: 0, aesCtr: 2, aesGcm: 4 } as const;

/** A key material message. */
export interface KeyMaterial {
  /** KK: 1 even key, 2 odd key, 3 both (even first). */
  readonly keys: 1 | 2 | 3;
  readonly keki: number;
  readonly cipher: number;
  readonly auth: number;
  readonly streamEncapsulation: number;
  /** 16 bytes. */
  readonly salt: Uint8Array;
  /** Bytes of one key: 16, 24 or 32. */
  readonly keyLength: number;
  /** RFC 3394 wrap of the key(s): 8 + keys × keyLength bytes. */
  readonly wrapped: Uint8Array;
}

const SIGNATURE = 0x2029;
const HEADER = 16;

/** Parses a KM message; throws ParseError when a fixed field is wrong or the lengths do not add up. */
export function parseKeyMaterial(bytes: Uint8Array): KeyMaterial {
  if (bytes.byteLength < HEADER) {
    throw new ParseError(`SRT key material of ${bytes.byteLength} bytes (need at least ${HEADER})`);
  }
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const b0 = bytes[0] as number;
  if (b0 >>> 7 !== 0 || ((b0 >>> 4) & 7) !== 1 || (b0 & 0xf) !== 2) {
    throw new ParseError(`SRT key material: S/V/PT byte 0x${b0.toString(16)} (expected 0x12)`);
  }
  if (v.getUint16(1) !== SIGNATURE) {
    throw new ParseError('SRT key material: signature is not 0x2029');
  }
  const keys = (bytes[3] as number) & 3;
  if (keys === 0) {
    throw new ParseError('SRT key material carries no key (KK=0)');
  }
  const saltLength = (bytes[14] as number) * 4;
  const keyLength = (bytes[15] as number) * 4;
  if (saltLength !== 16) {
    throw new ParseError(`SRT key material: salt of ${saltLength} bytes (16 expected)`);
  }
  if (keyLength !== 16 && keyLength !== 24 && keyLength !== 32) {
    throw new ParseError(`SRT key material: key of ${keyLength} bytes (16, 24 or 32)`);
  }
  const count = keys === 3 ? 2 : 1;
  const wrappedLength = 8 + count * keyLength;
  if (bytes.byteLength < HEADER + saltLength + wrappedLength) {
    throw new ParseError(`SRT key material of ${bytes.byteLength} bytes is shorter than its keys`);
  }
  return {
    keys: keys as 1 | 2 | 3,
    keki: v.getUint32(4),
    cipher: bytes[8] as number,
    auth: bytes[9] as number,
    streamEncapsulation: bytes[10] as number,
    salt: bytes.subarray(HEADER, HEADER + saltLength),
    keyLength,
    wrapped: bytes.subarray(HEADER + saltLength, HEADER + saltLength + wrappedLength),
  };
}

/** Writes a KM message (senders and tests). */
export function writeKeyMaterial(km: KeyMaterial): Uint8Array {
  const out = new Uint8Array(HEADER + km.salt.byteLength + km.wrapped.byteLength);
  const v = new DataView(out.buffer);
  out[0] = 0x12;
  v.setUint16(1, SIGNATURE);
  out[3] = km.keys;
  v.setUint32(4, km.keki >>> 0);
  out[8] = km.cipher;
  out[9] = km.auth;
  out[10] = km.streamEncapsulation;
  out[14] = km.salt.byteLength / 4;
  out[15] = km.keyLength / 4;
  out.set(km.salt, HEADER);
  out.set(km.wrapped, HEADER + km.salt.byteLength);
  return out;
}

/** A one-word KMRSP carrying a KM state (a refusal). */
export function writeKmState(state: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, state >>> 0);
  return out;
}
