/**
 * SRTP protection of outgoing RTP (RFC 3711 §3–4, RFC 7714 §8–9) with keys imported once per
 * session, a frame's packets at a time (ADR 0032). AES_CM_128_HMAC_SHA1_80: the AES-CM keystream
 * of every packet of the frame (counter blocks salt XOR SSRC·2^64 XOR index·2^16 XOR block, §4.1.1)
 * comes from one AES-128-ECB call on a cipher kept for the session, is XORed into the payload
 * here, and the tag is HMAC-SHA1 (RFC 2104) over the header, the encrypted payload and the ROC,
 * computed as two one-shot SHA-1 calls with the padded key blocks made once — no cipher or HMAC
 * object per packet. AEAD_AES_128_GCM (IV = salt XOR 00 00 | SSRC | ROC | SEQ, the header as
 * AAD, a 16-byte tag) still needs one GCM context per packet (Node cannot re-IV one). Either way
 * a packet comes out as one contiguous datagram.
 */
import { type Cipheriv, createCipheriv, createSecretKey, hash, type KeyObject } from 'node:crypto';

/** SRTP protection profiles werift negotiates (RFC 5764 §4.1.2, RFC 7714 §14.2). */
export const SRTP_AES128_CM_HMAC_SHA1_80 = 1;
/** AEAD_AES_128_GCM. */
export const SRTP_AEAD_AES_128_GCM = 7;

/** Session keys of one direction (what werift's SRTP context derived from the DTLS exporter). */
export interface SrtpSessionKeys {
  readonly profile: number;
  readonly key: Buffer | KeyObject;
  /** 12 bytes (GCM) or 14 bytes (CM); a longer one is cut (werift keeps 14 for both). */
  readonly salt: Buffer;
  /** HMAC-SHA1 key (CM only). */
  readonly authKey?: Buffer | KeyObject;
}

/** One RTP packet to protect: its serialized header (SSRC and sequence number are read from it), payload and rollover counter. */
export interface RtpToProtect {
  readonly header: Buffer;
  readonly payload: Uint8Array;
  readonly roc: number;
}

const SHA1_BLOCK = 64;
/** Where a datagram protected into a caller's target starts (AES-CM: the HMAC inner pad comes first). */
export const TARGET_HEAD = SHA1_BLOCK;
const CM_TAG = 10;
const GCM_TAG = 16;
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Protects the RTP packets of one sending session. */
export class SrtpProtector {
  readonly profile: number;
  private readonly key: KeyObject;
  private readonly salt: Buffer;
  private readonly iv: Buffer;
  private readonly ecb: Cipheriv | undefined;
  /** HMAC key XOR ipad, the first block of every inner hash (CM). */
  private readonly innerPad: Buffer | undefined;
  /** HMAC key XOR opad, then room for the inner digest (CM). */
  private readonly outer: Buffer | undefined;
  private counters = new Uint8Array(0);
  private counterWords = new Int32Array(0);
  private readonly block = new Uint8Array(16);
  private readonly blockWords = new Int32Array(this.block.buffer);

  constructor(keys: SrtpSessionKeys) {
    if (keys.profile !== SRTP_AEAD_AES_128_GCM && keys.profile !== SRTP_AES128_CM_HMAC_SHA1_80) {
      throw new Error(`unsupported SRTP profile ${keys.profile}`);
    }
    this.profile = keys.profile;
    this.key = asKey(keys.key);
    const gcm = keys.profile === SRTP_AEAD_AES_128_GCM;
    const saltLength = gcm ? 12 : 14;
    if (keys.salt.length < saltLength) {
      throw new Error(`an SRTP salt of ${saltLength} bytes is needed, not ${keys.salt.length}`);
    }
    this.salt = Buffer.from(keys.salt.subarray(0, saltLength));
    this.iv = Buffer.alloc(12);
    if (gcm) {
      return;
    }
    if (!keys.authKey) {
      throw new Error('AES_CM_128_HMAC_SHA1_80 needs an authentication key');
    }
    const authKey = rawKey(keys.authKey);
    if (authKey.length > SHA1_BLOCK) {
      throw new Error(`an SRTP authentication key of ${authKey.length} bytes is longer than a SHA-1 block`);
    }
    this.innerPad = Buffer.alloc(SHA1_BLOCK, 0x36);
    this.outer = Buffer.alloc(SHA1_BLOCK + 20);
    this.outer.fill(0x5c, 0, SHA1_BLOCK);
    for (let i = 0; i < authKey.length; i++) {
      this.innerPad[i] = (authKey[i] as number) ^ 0x36;
      this.outer[i] = (authKey[i] as number) ^ 0x5c;
    }
    this.ecb = createCipheriv('aes-128-ecb', this.key, null);
    this.ecb.setAutoPadding(false);
  }

  /** Bytes the protection adds after the payload. */
  get tagLength(): number {
    return this.profile === SRTP_AEAD_AES_128_GCM ? GCM_TAG : CM_TAG;
  }

  /** One protected packet (header, encrypted payload, tag) as one datagram. */
  protect(header: Buffer, payload: Uint8Array, roc: number): Buffer {
    return this.protectAll([{ header, payload, roc }])[0] as Buffer;
  }

  /**
   * The protected datagrams of a frame's packets, in order. With AES-CM, a packet whose
   * `targets[i]` has room (`roomNeeded`) is written into it (the datagram is a view of it from
   * byte `TARGET_HEAD`), so a caller can keep datagrams in memory of its own instead of a new
   * buffer per packet; the others get a buffer of their own.
   */
  protectAll(packets: readonly RtpToProtect[], targets?: readonly (Buffer | undefined)[]): Buffer[] {
    if (this.profile === SRTP_AEAD_AES_128_GCM) {
      return packets.map((packet) => this.protectGcm(packet));
    }
    const keystream = this.keystream(packets);
    const out: Buffer[] = new Array(packets.length);
    let offset = 0;
    for (let i = 0; i < packets.length; i++) {
      const packet = packets[i] as RtpToProtect;
      out[i] = this.protectCm(packet, keystream, offset, targets?.[i]);
      offset += blocksOf(packet.payload.length) * 16;
    }
    return out;
  }

  /** Bytes a target must have for a packet of this header and payload length (AES-CM). */
  roomNeeded(headerLength: number, payloadLength: number): number {
    return TARGET_HEAD + headerLength + payloadLength + CM_TAG;
  }

  /** The AES-CM keystream of every packet, each from a 16-byte boundary, in one ECB call. */
  private keystream(packets: readonly RtpToProtect[]): Buffer {
    let blocks = 0;
    for (const packet of packets) {
      blocks += blocksOf(packet.payload.length);
    }
    if (this.counters.length < blocks * 16) {
      this.counters = new Uint8Array(Math.max(blocks * 16, this.counters.length * 2));
      this.counterWords = new Int32Array(this.counters.buffer);
    }
    const words = this.counterWords;
    const block = this.block;
    let word = 0;
    for (const { header, payload, roc } of packets) {
      block.fill(0);
      block.set(this.salt);
      xorUint32(block, 4, header.readUInt32BE(8));
      xorUint32(block, 8, roc >>> 0);
      block[12] = (block[12] as number) ^ (header[2] as number);
      block[13] = (block[13] as number) ^ (header[3] as number);
      const [w0, w1, w2, w3] = this.blockWords as unknown as [number, number, number, number];
      const count = blocksOf(payload.length);
      for (let b = 0; b < count; b++) {
        words[word++] = w0;
        words[word++] = w1;
        words[word++] = w2;
        words[word++] = w3 | counterWord(b);
      }
    }
    return (this.ecb as Cipheriv).update(this.counters.subarray(0, blocks * 16));
  }

  private protectCm(packet: RtpToProtect, keystream: Buffer, keystreamOffset: number, target?: Buffer): Buffer {
    const { header, payload, roc } = packet;
    const start = SHA1_BLOCK + header.length;
    const end = start + payload.length;
    // The ROC is written at `end` for the inner hash, then the tag over it.
    const buffer = target && target.length >= end + CM_TAG ? target : Buffer.allocUnsafe(end + CM_TAG);
    buffer.set(this.innerPad as Buffer, 0);
    buffer.set(header, SHA1_BLOCK);
    buffer.set(payload, start);
    xorInPlace(buffer, start, keystream, keystreamOffset, payload.length);
    buffer.writeUInt32BE(roc >>> 0, end);
    const outer = this.outer as Buffer;
    hash('sha1', buffer.subarray(0, end + 4), 'buffer').copy(outer, SHA1_BLOCK);
    hash('sha1', outer, 'buffer').copy(buffer, end, 0, CM_TAG);
    return buffer.subarray(SHA1_BLOCK, end + CM_TAG);
  }

  private protectGcm({ header, payload, roc }: RtpToProtect): Buffer {
    const iv = this.iv;
    iv.fill(0);
    iv.writeUInt32BE(header.readUInt32BE(8), 2);
    iv.writeUInt32BE(roc >>> 0, 6);
    iv[10] = header[2] as number;
    iv[11] = header[3] as number;
    for (let i = 0; i < 12; i++) {
      iv[i] = (iv[i] as number) ^ (this.salt[i] as number);
    }
    const cipher = createCipheriv('aes-128-gcm', this.key, iv);
    cipher.setAAD(header);
    const encrypted = cipher.update(payload);
    cipher.final();
    const buffer = Buffer.allocUnsafe(header.length + encrypted.length + GCM_TAG);
    header.copy(buffer, 0);
    encrypted.copy(buffer, header.length);
    cipher.getAuthTag().copy(buffer, header.length + encrypted.length);
    return buffer;
  }
}

/** An imported secret key (KeyObjects pass through). */
export function asKey(key: Buffer | KeyObject): KeyObject {
  return Buffer.isBuffer(key) ? createSecretKey(key) : key;
}

function rawKey(key: Buffer | KeyObject): Buffer {
  return Buffer.isBuffer(key) ? key : key.export();
}

function blocksOf(length: number): number {
  return Math.ceil(length / 16);
}

/** The block counter `b` in bytes 14–15 of a counter block, as the native-endian last word. */
function counterWord(b: number): number {
  return LITTLE_ENDIAN ? ((b & 0xff) << 24) | (((b >> 8) & 0xff) << 16) : b & 0xffff;
}

function xorUint32(target: Uint8Array, at: number, value: number): void {
  target[at] = (target[at] as number) ^ (value >>> 24);
  target[at + 1] = (target[at + 1] as number) ^ ((value >>> 16) & 0xff);
  target[at + 2] = (target[at + 2] as number) ^ ((value >>> 8) & 0xff);
  target[at + 3] = (target[at + 3] as number) ^ (value & 0xff);
}

/** target[at…at+length) ^= source[from…from+length), a word at a time when both are aligned. */
function xorInPlace(target: Buffer, at: number, source: Buffer, from: number, length: number): void {
  let i = 0;
  const targetOffset = target.byteOffset + at;
  const sourceOffset = source.byteOffset + from;
  if (targetOffset % 4 === 0 && sourceOffset % 4 === 0) {
    const words = length >>> 2;
    const t = new Int32Array(target.buffer, targetOffset, words);
    const s = new Int32Array(source.buffer, sourceOffset, words);
    for (let w = 0; w < words; w++) {
      t[w] = (t[w] as number) ^ (s[w] as number);
    }
    i = words * 4;
  }
  for (; i < length; i++) {
    target[at + i] = (target[at + i] as number) ^ (source[from + i] as number);
  }
}
