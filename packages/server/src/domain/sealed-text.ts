/**
 * Seals short secrets at rest (push-target URIs) with AES-256-GCM (NIST SP 800-38D): a random
 * 96-bit IV per value, the 128-bit tag, and the record's ID as additional data, so a sealed value
 * copied onto another row does not open. Format: `v1.<iv>.<tag>.<ciphertext>` in base64url.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;

/** Seals and opens text with one 32-byte key. */
export class SealedText {
  private readonly key: Buffer;

  constructor(key: Uint8Array) {
    if (key.byteLength !== 32) {
      throw new RangeError('the sealing key must be 32 bytes');
    }
    this.key = Buffer.from(key);
  }

  /** Builds a sealer from a base64url key of 32 bytes (as kept in server_secrets). */
  static fromBase64Url(key: string): SealedText {
    return new SealedText(Buffer.from(key, 'base64url'));
  }

  /** A new random key, base64url. */
  static newKey(): string {
    return randomBytes(32).toString('base64url');
  }

  /** Seals `text`, bound to `context` (the record's ID). */
  seal(text: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), body]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  /** Opens a sealed value; throws when it was altered, sealed for another context or with another key. */
  open(sealed: string, context: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== VERSION || iv === undefined || tag === undefined || body === undefined) {
      throw new Error('not a sealed value');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}
