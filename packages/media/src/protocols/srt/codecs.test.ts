import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ParseError } from '../../errors.js';
import { Refusal, readConclusion } from './conclusion.js';
import { cryptPayload, deriveKek, unwrapKeyMaterial, wrapKeys } from './crypto.js';
import {
  parseHandshake,
  parseStreamIdExtension,
  RejectReason,
  rejectionHandshakeType,
  writeStreamIdExtension,
} from './handshake.js';
import { parseKeyMaterial } from './key-material.js';
import { parseLossList, parsePacket, writeDataPacket, writeLossList } from './packet.js';
import { conclusionSeed, keyMaterialSeed } from './srt.fuzz.js';
import { parseStreamId } from './stream-id.js';
import { SynCookies } from './syn-cookie.js';

describe('SRT codecs', () => {
  it('round-trips a data packet header', () => {
    const packet = parsePacket(
      writeDataPacket({
        sequence: 0x7fffffff,
        messageNumber: 5,
        timestamp: 0xffffffff,
        destinationSocket: 42,
        payload: Uint8Array.of(1, 2),
        keySlot: 2,
        retransmitted: true,
      }),
    );
    assert.equal(packet.control, false);
    if (!packet.control) {
      assert.deepEqual(
        [
          packet.sequence,
          packet.messageNumber,
          packet.timestamp,
          packet.destinationSocket,
          packet.keySlot,
          packet.retransmitted,
          packet.position,
        ],
        [0x7fffffff, 5, 0xffffffff, 42, 2, true, 3],
      );
    }
    assert.throws(() => parsePacket(new Uint8Array(15)), ParseError);
  });

  it('encodes loss lists with single numbers and ranges (Appendix A)', () => {
    const ranges = [
      { from: 3, to: 3 },
      { from: 7, to: 9 },
    ];
    const bytes = writeLossList(ranges);
    assert.equal(bytes.byteLength, 12);
    assert.deepEqual(parseLossList(bytes), ranges);
    assert.throws(() => parseLossList(bytes.subarray(0, 8)), ParseError);
  });

  it('stores the Stream ID as little-endian words', () => {
    const content = writeStreamIdExtension('abcde');
    assert.deepEqual([...content], [0x64, 0x63, 0x62, 0x61, 0, 0, 0, 0x65]);
    assert.equal(parseStreamIdExtension(content), 'abcde');
  });

  it('reads both Stream ID syntaxes and refuses other modes', () => {
    assert.deepEqual(parseStreamId('key1'), { ok: true, key: 'key1', mode: 'publish' });
    assert.deepEqual(parseStreamId('#!::r=key2,m=publish'), { ok: true, key: 'key2', mode: 'publish' });
    assert.deepEqual(parseStreamId('%23%21%3A%3Ar%3Dkey3'), { ok: true, key: 'key3', mode: 'publish' });
    assert.equal(parseStreamId('#!::m=publish').ok, false);
    assert.equal(parseStreamId('#!::r=a,r=b').ok, false);
  });

  it('accepts libsrt-shaped conclusions and refuses what it cannot serve, with the reason code', () => {
    const hs = parseHandshake(
      parsePacket(conclusionSeed()).control
        ? (parsePacket(conclusionSeed()) as { cif: Uint8Array }).cif
        : new Uint8Array(),
    );
    const conclusion = readConclusion(hs, 120, 0);
    assert.ok(!(conclusion instanceof Refusal));
    assert.equal(conclusion.key, 'stream-key');
    assert.equal(conclusion.latencyMs, 200);
    const noSid = readConclusion({ ...hs, extensions: hs.extensions.filter((e) => e.type !== 5) }, 120, 0);
    assert.ok(noSid instanceof Refusal && noSid.reason === RejectReason.badRequest);
    const v4 = readConclusion({ ...hs, version: 4 }, 120, 0);
    assert.ok(v4 instanceof Refusal && v4.reason === RejectReason.version);
    assert.equal(rejectionHandshakeType(RejectReason.badSecret), 1010);
    assert.equal(rejectionHandshakeType(RejectReason.forbidden), 2403);
  });

  it('unwraps key material with the right passphrase only, and AES-CTR round-trips', () => {
    const km = parseKeyMaterial(keyMaterialSeed());
    const keys = unwrapKeyMaterial(km, 'fuzzing-passphrase');
    assert.deepEqual(keys?.even, Buffer.alloc(16, 3));
    assert.equal(unwrapKeyMaterial(km, 'another-passphrase'), undefined);
    const payload = Buffer.from('188 bytes of transport stream');
    const encrypted = cryptPayload(Buffer.alloc(16, 3), km.salt, 77, payload);
    assert.notDeepEqual(encrypted, payload);
    assert.deepEqual(cryptPayload(Buffer.alloc(16, 3), km.salt, 77, encrypted), payload);
    assert.equal(wrapKeys(deriveKek('x'.repeat(10), km.salt, 32), Buffer.alloc(32)).byteLength, 40);
  });

  it('makes SYN cookies that hold for this and the previous minute only', () => {
    let now = 0;
    const cookies = new SynCookies(() => now);
    const cookie = cookies.make('10.0.0.1', 5000);
    assert.ok(cookies.check('10.0.0.1', 5000, cookie));
    assert.ok(!cookies.check('10.0.0.1', 5001, cookie));
    now = 90_000;
    assert.ok(cookies.check('10.0.0.1', 5000, cookie));
    now = 150_000;
    assert.ok(!cookies.check('10.0.0.1', 5000, cookie));
  });
});
