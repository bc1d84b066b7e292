import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SealedText } from './sealed-text.js';

describe('sealed text (AES-256-GCM)', () => {
  const sealer = SealedText.fromBase64Url(SealedText.newKey());

  it('opens what it sealed, with a fresh IV each time, and never shows the text', () => {
    const secret = 'rtmp://live.example/app/live_123456_SECRETKEY';
    const a = sealer.seal(secret, 'id-1');
    const b = sealer.seal(secret, 'id-1');
    assert.notEqual(a, b);
    assert.ok(!a.includes('SECRETKEY'));
    assert.match(a, /^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    assert.equal(sealer.open(a, 'id-1'), secret);
  });

  it('refuses another context, another key, an altered value and garbage', () => {
    const sealed = sealer.seal('key', 'id-1');
    assert.throws(() => sealer.open(sealed, 'id-2'));
    assert.throws(() => SealedText.fromBase64Url(SealedText.newKey()).open(sealed, 'id-1'));
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3] ?? '', 'base64url');
    body[0] = (body[0] ?? 0) ^ 1;
    assert.throws(() => sealer.open([parts[0], parts[1], parts[2], body.toString('base64url')].join('.'), 'id-1'));
    assert.throws(() => sealer.open('nonsense', 'id-1'));
    assert.throws(() => new SealedText(new Uint8Array(16)));
  });
});
