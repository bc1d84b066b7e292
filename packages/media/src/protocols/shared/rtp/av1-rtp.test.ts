import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OBU, splitObus, writeLeb128 } from '../../../codecs/av1.js';
import { fixture } from '../../../codecs/fixtures.js';
import { Av1Depacketizer } from './av1-depacketizer.js';

/** An OBU as RTP carries it: the size field removed (obu_has_size_field = 0). */
function withoutSize(obu: Uint8Array): Uint8Array {
  const [parsed] = splitObus(obu);
  assert.ok(parsed);
  const headerBytes = (obu[0] as number) & 0x04 ? 2 : 1;
  const out = new Uint8Array(headerBytes + parsed.payload.length);
  out.set(obu.subarray(0, headerBytes), 0);
  out[0] = (obu[0] as number) & ~0x02;
  out.set(parsed.payload, headerBytes);
  return out;
}

/** Splits a key temporal unit (libaom, OBUs with size fields) into its OBUs without size fields. */
function keyObus(): Uint8Array[] {
  return splitObus(fixture('av1KeyTemporalUnit'))
    .filter((obu) => obu.type !== OBU.temporalDelimiter)
    .map((obu) => withoutSize(obu.bytes));
}

/** Elements of W = 0: each with a LEB128 length. */
function aggregate(header: number, elements: readonly Uint8Array[]): Uint8Array {
  const parts = elements.flatMap((element) => [writeLeb128(element.length), element]);
  return Uint8Array.from([header, ...parts.flatMap((part) => [...part])]);
}

describe('AV1 RTP payload format', () => {
  it('rebuilds a key temporal unit from length-prefixed elements, with size fields, without temporal delimiters', () => {
    const depacketizer = new Av1Depacketizer();
    const units = depacketizer.push(aggregate(0x08, [Uint8Array.of(0x10), ...keyObus()]), 3000, true);
    assert.equal(units.length, 1);
    assert.equal(units[0]?.key, true);
    const expected = splitObus(fixture('av1KeyTemporalUnit')).filter((obu) => obu.type !== OBU.temporalDelimiter);
    assert.deepEqual(
      splitObus(units[0]?.data ?? new Uint8Array(0)).map((obu) => [obu.type, [...obu.payload]]),
      expected.map((obu) => [obu.type, [...obu.payload]]),
    );
  });

  it('joins an OBU fragmented over packets (Y then Z) and counts W elements', () => {
    const obus = keyObus();
    const frame = obus.at(-1) as Uint8Array;
    const cut = Math.floor(frame.length / 2);
    const depacketizer = new Av1Depacketizer();
    // W = 2: the sequence header with a length, the first half of the frame without; Y set.
    const first = Uint8Array.from([
      0x40 | 0x20,
      ...writeLeb128((obus[0] as Uint8Array).length),
      ...(obus[0] as Uint8Array),
      ...frame.subarray(0, cut),
    ]);
    assert.deepEqual(depacketizer.push(first, 9, false), []);
    // W = 1, Z set: the rest of the frame.
    const units = depacketizer.push(Uint8Array.from([0x80 | 0x10, ...frame.subarray(cut)]), 9, true);
    assert.equal(units.length, 1);
    assert.equal(units[0]?.key, true);
  });

  it('drops a unit whose continuation was lost, then waits for a key frame', () => {
    const depacketizer = new Av1Depacketizer();
    assert.equal(depacketizer.push(aggregate(0x00, keyObus()), 0, true).length, 1);
    const inter = splitObus(fixture('av1InterTemporalUnit'))
      .filter((obu) => obu.type !== OBU.temporalDelimiter)
      .map((obu) => withoutSize(obu.bytes));
    assert.deepEqual(depacketizer.push(Uint8Array.from([0x80 | 0x10, 1, 2, 3]), 3000, true), []);
    assert.equal(depacketizer.stats.corrupted, 1);
    assert.deepEqual(depacketizer.push(aggregate(0x00, inter), 6000, true), []);
    assert.equal(depacketizer.waitingForKeyframe, true);
    assert.equal(depacketizer.push(aggregate(0x08, keyObus()), 9000, true).length, 1);
  });

  it('refuses an element that overruns the packet with a ParseError', () => {
    assert.throws(() => new Av1Depacketizer().push(Uint8Array.of(0x00, 50, 1, 2), 0, true), { name: 'ParseError' });
  });
});
