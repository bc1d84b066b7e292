import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ParseError, UnsupportedError } from '../../errors.js';
import { decodeAmf0, decodeAmf0Value } from './amf0-decode.js';
import { encodeAmf0 } from './amf0-encode.js';
import { Amf0EcmaArray, type Amf0Value, amf0Object, amf0Properties } from './amf0-value.js';

describe('AMF0', () => {
  const cases: [string, Amf0Value][] = [
    ['number', 1935.5],
    ['negative zero', -0],
    ['boolean', true],
    ['string', 'connect'],
    ['utf-8 string', 'Grüße 🎥'],
    ['empty string', ''],
    ['long string', 'x'.repeat(70_000)],
    ['null', null],
    ['undefined', undefined],
    ['date', new Date(1_700_000_000_000)],
    ['object', amf0Object({ app: 'live', nested: amf0Object({ a: 1, b: [1, 'two', null] }) })],
    ['ecma array', new Amf0EcmaArray(amf0Object({ width: 640, height: 360, framerate: 30 }))],
    ['strict array', [1, true, 'x', undefined, amf0Object({})]],
  ];
  for (const [name, value] of cases) {
    it(`round-trips ${name}`, () => {
      const bytes = encodeAmf0(value);
      const { value: decoded, next } = decodeAmf0Value(bytes);
      assert.equal(next, bytes.byteLength);
      assert.deepEqual(decoded, value);
    });
  }

  it('encodes a string as marker, u16 length and UTF-8 bytes', () => {
    assert.deepEqual([...encodeAmf0('ab')], [0x02, 0x00, 0x02, 0x61, 0x62]);
    assert.deepEqual([...encodeAmf0(1)], [0x00, 0x3f, 0xf0, 0, 0, 0, 0, 0, 0]);
    assert.deepEqual([...encodeAmf0(amf0Object({}))], [0x03, 0x00, 0x00, 0x09]);
  });

  it('decodes a sequence of values such as an RTMP command', () => {
    const bytes = encodeAmf0('connect', 1, amf0Object({ app: 'live', tcUrl: 'rtmp://127.0.0.1:1935/live' }));
    const values = decodeAmf0(bytes);
    assert.equal(values[0], 'connect');
    assert.equal(values[1], 1);
    assert.equal(amf0Properties(values[2])?.app, 'live');
  });

  it('keeps __proto__ as a plain key', () => {
    const bytes = encodeAmf0(amf0Object({ ['__proto__']: 'x', constructor: 1 }));
    const decoded = amf0Properties(decodeAmf0(bytes)[0]);
    assert.equal(decoded && Object.getOwnPropertyDescriptor(decoded, '__proto__')?.value, 'x');
    assert.equal(Object.getPrototypeOf(decoded), null);
  });

  it('rejects truncated input, bad markers and stray object ends', () => {
    const full = encodeAmf0(amf0Object({ app: 'live' }));
    for (let cut = 1; cut < full.byteLength; cut++) {
      assert.throws(() => decodeAmf0(full.subarray(0, cut)), ParseError, `cut at ${cut}`);
    }
    assert.throws(() => decodeAmf0(Uint8Array.of(0x04)), ParseError);
    assert.throws(() => decodeAmf0(Uint8Array.of(0x09)), ParseError);
    assert.throws(() => decodeAmf0(Uint8Array.of(0x11, 0x01)), UnsupportedError);
    assert.throws(() => decodeAmf0(Uint8Array.of(0x07, 0x00, 0x01)), UnsupportedError);
  });

  it('enforces depth, value-count and array-count limits', () => {
    let nested: Amf0Value = 1;
    for (let i = 0; i < 20; i++) {
      nested = [nested];
    }
    const deep = encodeAmf0(nested);
    assert.throws(() => decodeAmf0(deep), /nesting deeper than 16/);
    assert.equal(decodeAmf0(deep, { maxDepth: 32 }).length, 1);
    assert.throws(() => decodeAmf0(encodeAmf0([1, 2, 3, 4]), { maxValues: 3 }), /more than 3 values/);
    assert.throws(() => decodeAmf0(Uint8Array.of(0x0a, 0xff, 0xff, 0xff, 0xff, 0x05)), /claims 4294967295/);
    assert.throws(() => decodeAmf0(new Uint8Array(100), { maxBytes: 10 }), /exceeds 10/);
  });
});
