import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ParseError, ProtocolError } from '../../errors.js';
import { DTMI_MAX_DEPTH, decodeDtmi, dtmi, encodeDtmi } from './dtmi.js';
import {
  DtscPacketReader,
  decodeDtscPacket,
  encodeDtscCommand,
  encodeDtscData,
  encodeDtscHeader,
} from './dtsc-packet.js';

const hex = (text: string): Uint8Array => Uint8Array.from(Buffer.from(text.replaceAll(' ', ''), 'hex'));

describe('DTMI', () => {
  it('encodes the byte layout MistServer writes (type bytes, 0x0000EE ends)', () => {
    assert.deepEqual(encodeDtmi(7), hex('01 0000000000000007'));
    assert.deepEqual(encodeDtmi('ab'), hex('02 00000002 6162'));
    assert.deepEqual(encodeDtmi(null), hex('03'));
    assert.deepEqual(encodeDtmi(0.5), hex('04 3fe0000000000000'));
    assert.deepEqual(encodeDtmi({ cmd: 'ok' }), hex('e0 0003 636d64 02 00000002 6f6b 0000ee'));
    assert.deepEqual(encodeDtmi([1, 'x']), hex('0a 01 0000000000000001 02 00000001 78 0000ee'));
  });

  it('decodes what it encodes, negative integers and containers (0xFF) included', () => {
    const { value, end } = decodeDtmi(encodeDtmi({ a: -5, b: [null, 2.25, 'z'], c: { d: Uint8Array.of(0, 1) } }));
    assert.ok(value instanceof Map);
    assert.equal(dtmi.number(value, 'a'), -5);
    assert.deepEqual(value.get('b'), [null, 2.25, Uint8Array.of(0x7a)]);
    assert.deepEqual(dtmi.bytes(dtmi.object(value, 'c'), 'd'), Uint8Array.of(0, 1));
    assert.ok(end > 0);
    const container = hex('ff 0001 78 01 0000000000000009 0000ee');
    assert.equal(dtmi.number(decodeDtmi(container).value ?? undefined, 'x'), 9);
  });

  it('rejects truncation, unknown types, bad end markers and deep nesting with ParseError', () => {
    assert.throws(() => decodeDtmi(hex('02 00000005 6162')), ParseError);
    assert.throws(() => decodeDtmi(hex('09')), /unknown value type 0x9/);
    assert.throws(() => decodeDtmi(hex('e0 0000 ff')), /end marker/);
    let nested: unknown = 1;
    for (let i = 0; i <= DTMI_MAX_DEPTH; i++) {
      nested = [nested];
    }
    assert.throws(() => decodeDtmi(encodeDtmi(nested as number[])), /nested deeper/);
  });
});

describe('DTSC packets', () => {
  it('frames DTP2 media packets: track id, millisecond time, offset, keyframe and data', () => {
    const bytes = encodeDtscData({ trackId: 3, time: 1234, offset: 40, keyframe: true, data: Uint8Array.of(9, 8, 7) });
    assert.equal(Buffer.from(bytes.subarray(0, 4)).toString(), 'DTP2');
    assert.equal(new DataView(bytes.buffer).getUint32(4), bytes.byteLength - 8);
    const packet = decodeDtscPacket(bytes);
    assert.deepEqual(packet, {
      kind: 'data',
      trackId: 3,
      time: 1234,
      offset: 40,
      keyframe: true,
      data: Uint8Array.of(9, 8, 7),
    });
  });

  it('reads version-1 DTPD packets with trackid and time inside the object', () => {
    const body = encodeDtmi({ trackid: 2, time: 99, data: Uint8Array.of(1) });
    const bytes = new Uint8Array(8 + body.byteLength);
    bytes.set(Buffer.from('DTPD'));
    new DataView(bytes.buffer).setUint32(4, body.byteLength);
    bytes.set(body, 8);
    const packet = decodeDtscPacket(bytes);
    assert.equal(packet.kind, 'data');
    assert.equal(packet.kind === 'data' && packet.trackId, 2);
    assert.equal(packet.kind === 'data' && packet.time, 99);
  });

  it('splits a byte stream delivered one byte at a time, and refuses an out-of-sync or oversized one', () => {
    const stream = [
      encodeDtscCommand({ cmd: 'hi' }),
      encodeDtscHeader({ live: 1, tracks: {} }),
      encodeDtscData({ trackId: 1, time: 0, data: Uint8Array.of(1) }),
    ];
    const reader = new DtscPacketReader();
    const kinds: string[] = [];
    for (const packet of stream) {
      for (const byte of packet) {
        kinds.push(...reader.push(Uint8Array.of(byte)).map((p) => p.kind));
      }
    }
    assert.deepEqual(kinds, ['command', 'header', 'data']);
    assert.equal(reader.buffered, 0);
    assert.throws(() => new DtscPacketReader().push(hex('4142434400000000')), ProtocolError);
    assert.throws(() => new DtscPacketReader(16).push(hex('4454503200001000')), /exceeds the 16-byte limit/);
  });
});
