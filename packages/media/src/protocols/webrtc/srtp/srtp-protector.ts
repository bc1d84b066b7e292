/**
 * SRTP protection of outgoing RTP (RFC 3711 §3–4, RFC 7714 §8–9) with keys imported once per
 * session: AEAD_AES_128_GCM (IV = salt XOR 00 00 | SSRC | ROC | SEQ, the header as AAD, a 16-byte
 * tag) and AES_CM_128_HMAC_SHA1_80 (counter = salt XOR SSRC·2^64 XOR index·2^16, HMAC-SHA1 over
 * the header, the encrypted payload and the ROC, 10 bytes). werift creates a cipher from raw key
 * bytes for every packet, which imports the key each time; here the key is a KeyObject, the
 * header is never copied and the packet leaves as three pieces (header, payload, tag) that one
 * datagram carries.
 */
import { createCipheriv, createHmac, createSecretKey, type KeyObject } from 'node:crypto';

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

/** Protects the RTP packets of one sending session. */
export class SrtpProtector {
  readonly profile: number;
  private readonly key: KeyObject;
  private readonly authKey: KeyObject | undefined;
  private readonly salt: Buffer;
  private readonly iv: Buffer;
  private readonly roc = Buffer.alloc(4);

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
    if (!gcm && !keys.authKey) {
      throw new Error('AES_CM_128_HMAC_SHA1_80 needs an authentication key');
    }
    this.authKey = keys.authKey ? asKey(keys.authKey) : undefined;
    this.iv = Buffer.alloc(gcm ? 12 : 16);
  }

  /** Bytes the protection adds after the payload. */
  get tagLength(): number {
    return this.profile === SRTP_AEAD_AES_128_GCM ? 16 : 10;
  }

  /**
   * The protected packet as [header, encrypted payload, tag]: `header` is the serialized RTP
   * header (its SSRC and sequence number are read from it), `roc` the rollover counter.
   */
  protect(header: Buffer, payload: Uint8Array, roc: number): [Buffer, Buffer, Buffer] {
    const ssrc = header.readUInt32BE(8);
    const sequence = header.readUInt16BE(2);
    const iv = this.iv;
    iv.fill(0);
    if (this.profile === SRTP_AEAD_AES_128_GCM) {
      iv.writeUInt32BE(ssrc, 2);
      iv.writeUInt32BE(roc >>> 0, 6);
      iv.writeUInt16BE(sequence, 10);
      xorInto(iv, this.salt);
      const cipher = createCipheriv('aes-128-gcm', this.key, iv);
      cipher.setAAD(header);
      const encrypted = cipher.update(payload);
      cipher.final();
      return [header, encrypted, cipher.getAuthTag()];
    }
    iv.writeUInt32BE(ssrc, 4);
    iv.writeUInt32BE(roc >>> 0, 8);
    iv.writeUInt16BE(sequence, 12);
    xorInto(iv, this.salt);
    const encrypted = createCipheriv('aes-128-ctr', this.key, iv).update(payload);
    this.roc.writeUInt32BE(roc >>> 0, 0);
    const tag = createHmac('sha1', this.authKey as KeyObject)
      .update(header)
      .update(encrypted)
      .update(this.roc)
      .digest()
      .subarray(0, 10);
    return [header, encrypted, tag];
  }
}

/** An imported secret key (KeyObjects pass through). */
export function asKey(key: Buffer | KeyObject): KeyObject {
  return Buffer.isBuffer(key) ? createSecretKey(key) : key;
}

function xorInto(target: Buffer, salt: Buffer): void {
  for (let i = 0; i < salt.length; i++) {
    target[i] = (target[i] as number) ^ (salt[i] as number);
  }
}
