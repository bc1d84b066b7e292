/** Transport packets, adaptation fields and continuity counters (ISO/IEC 13818-1 §2.4.3.2–§2.4.3.5). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TS_PACKET_SIZE, TsPacketWriter } from './packet-writer.js';

interface Packet {
  pid: number;
  start: boolean;
  counter: number;
  adaptation?: Uint8Array;
  payload: Uint8Array;
}

function parsePackets(data: Uint8Array): Packet[] {
  assert.equal(data.length % TS_PACKET_SIZE, 0);
  const packets: Packet[] = [];
  for (let at = 0; at < data.length; at += TS_PACKET_SIZE) {
    const packet = data.subarray(at, at + TS_PACKET_SIZE);
    assert.equal(packet[0], 0x47);
    const b1 = packet[1] ?? 0;
    const b3 = packet[3] ?? 0;
    const control = (b3 >> 4) & 3;
    let offset = 4;
    let adaptation: Uint8Array | undefined;
    if (control === 3) {
      const length = packet[4] ?? 0;
      adaptation = packet.subarray(5, 5 + length);
      offset = 5 + length;
    } else {
      assert.equal(control, 1);
    }
    packets.push({
      pid: ((b1 & 0x1f) << 8) | (packet[2] ?? 0),
      start: (b1 & 0x40) !== 0,
      counter: b3 & 0x0f,
      adaptation,
      payload: packet.subarray(offset),
    });
  }
  return packets;
}

const payloadOf = (length: number): Uint8Array => Uint8Array.from({ length }, (_, i) => i & 0xff);

describe('TsPacketWriter', () => {
  it('splits a unit into packets that carry it whole, stuffing only the last', () => {
    const writer = new TsPacketWriter();
    const data = payloadOf(500);
    writer.writeUnit(0x100, [data.subarray(0, 7), data.subarray(7)]);
    const packets = parsePackets(writer.take());
    assert.equal(packets.length, 3);
    assert.deepEqual(
      packets.map((p) => [p.pid, p.start, p.counter]),
      [
        [0x100, true, 0],
        [0x100, false, 1],
        [0x100, false, 2],
      ],
    );
    assert.deepEqual(Buffer.concat(packets.map((p) => p.payload)), Buffer.from(data));
    const stuffing = packets[2]?.adaptation ?? new Uint8Array(0);
    assert.equal(stuffing[0], 0);
    assert.ok(stuffing.subarray(1).every((byte) => byte === 0xff));
    assert.equal(writer.take().length, 0, 'take() clears');
  });

  it('uses a zero-length adaptation field for a 183-byte remainder', () => {
    const writer = new TsPacketWriter();
    writer.writeUnit(0x101, [payloadOf(183)]);
    const [packet] = parsePackets(writer.take());
    assert.equal(packet?.adaptation?.length, 0);
    assert.equal(packet?.payload.length, 183);
  });

  it('writes PCR and random_access_indicator in the first packet only', () => {
    const writer = new TsPacketWriter();
    const pcr = 2 ** 33 - 2;
    writer.writeUnit(0x100, [payloadOf(400)], { pcr, randomAccess: true });
    const [first, second] = parsePackets(writer.take());
    const field = first?.adaptation ?? new Uint8Array(0);
    assert.equal(field[0], 0x50);
    const base = ((field[1] ?? 0) * 2 ** 24 + ((field[2] ?? 0) << 16) + ((field[3] ?? 0) << 8) + (field[4] ?? 0)) * 2;
    assert.equal(base + ((field[5] ?? 0) >> 7), pcr);
    assert.equal((field[5] ?? 0) & 0x7e, 0x7e);
    assert.equal(second?.adaptation, undefined);
  });

  it('keeps one continuity counter per PID, wrapping at 16', () => {
    const writer = new TsPacketWriter();
    for (let i = 0; i < 17; i++) {
      writer.writeUnit(0x100, [payloadOf(10)]);
      writer.writeUnit(0x200, [payloadOf(10)]);
    }
    const packets = parsePackets(writer.take());
    const counters = (pid: number): number[] => packets.filter((p) => p.pid === pid).map((p) => p.counter);
    const expected = Array.from({ length: 17 }, (_, i) => i % 16);
    assert.deepEqual(counters(0x100), expected);
    assert.deepEqual(counters(0x200), expected);
  });
});
