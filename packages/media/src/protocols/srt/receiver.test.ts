import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LossRange } from './packet.js';
import { SrtReceiver } from './receiver.js';
import { SEQUENCE_MODULO } from './sequence.js';

function receiver(initialSequence = 10, latencyUs = 100_000) {
  const delivered: number[] = [];
  const naks: LossRange[][] = [];
  const acks: number[] = [];
  const r = new SrtReceiver(
    { initialSequence, latencyUs, timeBaseUs: 0, bufferPackets: 256 },
    {
      deliver: (payload) => delivered.push(payload[0] as number),
      ack: (_, info) => acks.push(info.lastAcknowledged),
      nak: (ranges) => naks.push([...ranges]),
    },
  );
  return { r, delivered, naks, acks };
}

const byte = (n: number) => Uint8Array.of(n & 0xff);

describe('SrtReceiver', () => {
  it('delivers each packet at timestamp + latency, in sequence order', () => {
    const { r, delivered } = receiver();
    r.receive(11, 1000, false, byte(11), 0);
    r.receive(10, 0, false, byte(10), 0);
    r.tick(99_999);
    assert.deepEqual(delivered, []);
    r.tick(100_000);
    assert.deepEqual(delivered, [10]);
    r.tick(101_000);
    assert.deepEqual(delivered, [10, 11]);
  });

  it('reports a gap at once, again periodically, and fills it from a retransmission', () => {
    const { r, delivered, naks, acks } = receiver(10, 1_000_000);
    r.receive(10, 0, false, byte(10), 0);
    r.receive(13, 3000, false, byte(13), 1000);
    assert.deepEqual(naks, [[{ from: 11, to: 12 }]]);
    assert.equal(r.stats.packetsLost, 2);
    r.tick(30_000);
    assert.deepEqual(acks, [11]);
    r.tick(160_000);
    assert.deepEqual(naks[1], [{ from: 11, to: 12 }], 'periodic NAK');
    r.receive(11, 1000, true, byte(11), 170_000);
    r.receive(12, 2000, true, byte(12), 170_000);
    r.tick(1_100_000);
    assert.deepEqual(delivered, [10, 11, 12, 13]);
    assert.equal(r.stats.packetsRetransmitted, 2);
    assert.equal(r.stats.packetsDropped, 0);
  });

  it('gives up a hole when the packet after it is due (too-late drop) and acks past it', () => {
    const { r, delivered, acks } = receiver();
    r.receive(10, 0, false, byte(10), 0);
    r.receive(12, 2000, false, byte(12), 0);
    r.tick(101_000);
    assert.deepEqual(delivered, [10]);
    r.tick(102_000);
    assert.deepEqual(delivered, [10, 12]);
    assert.equal(r.stats.packetsDropped, 1);
    r.receive(11, 1000, true, byte(11), 103_000);
    assert.equal(r.stats.packetsBelated, 1);
    r.tick(200_000);
    assert.equal(acks.at(-1), 13);
  });

  it('follows sequence numbers and timestamps across their wraps', () => {
    const { r, delivered } = receiver(SEQUENCE_MODULO - 1);
    r.receive(SEQUENCE_MODULO - 1, 2 ** 32 - 500, false, byte(1), 0);
    r.receive(0, 500, false, byte(2), 0);
    r.tick(2 ** 32 - 500 + 100_000);
    assert.deepEqual(delivered, [1]);
    r.tick(2 ** 32 + 500 + 100_000);
    assert.deepEqual(delivered, [1, 2]);
  });

  it('refuses packets beyond its buffer and flushes what it holds', () => {
    const { r, delivered } = receiver();
    r.receive(10 + 256, 0, false, byte(1), 0);
    assert.equal(r.stats.packetsOverflow, 1);
    r.receive(11, 0, false, byte(11), 0);
    r.flush();
    assert.deepEqual(delivered, [11]);
    assert.equal(r.stats.packetsDropped, 1);
  });

  it('measures the round trip from ACK to ACKACK', () => {
    const { r } = receiver();
    r.receive(10, 0, false, byte(10), 0);
    r.tick(20_000);
    r.ackAcknowledged(1, 30_000);
    assert.equal(r.stats.rttUs, Math.round((7 * 100_000 + 10_000) / 8));
  });
});
