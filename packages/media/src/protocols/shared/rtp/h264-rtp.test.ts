import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { H264Depacketizer } from './h264-depacketizer.js';
import { packetizeH264 } from './h264-packetizer.js';
import { ReorderBuffer, type ReorderEvent } from './reorder-buffer.js';
import { sequenceDelta, TimestampUnwrapper } from './rtp-clock.js';

const nal = (type: number, size: number, fill = 7) => {
  const out = new Uint8Array(size).fill(fill);
  out[0] = 0x60 | type;
  return out;
};

describe('H.264 RTP (RFC 6184)', () => {
  it('round-trips an IDR access unit split into single NAL and FU-A packets', () => {
    const nals = [nal(7, 20), nal(8, 6), nal(5, 5000, 3), nal(5, 100, 9)];
    const payloads = packetizeH264(nals, 1200);
    assert.ok(payloads.length > 5);
    assert.deepEqual(
      payloads.map((p) => p.marker),
      payloads.map((_, i) => i === payloads.length - 1),
    );
    const depacketizer = new H264Depacketizer();
    const units = payloads.flatMap((p) => depacketizer.push(p.payload, 1000, p.marker));
    assert.equal(units.length, 1);
    assert.equal(units[0]?.key, true);
    assert.deepEqual(units[0]?.nals, nals);
  });

  it('reads STAP-A aggregates', () => {
    const sps = nal(7, 10);
    const pps = nal(8, 4);
    const stap = new Uint8Array([0x78, 0, 10, ...sps, 0, 4, ...pps]);
    const depacketizer = new H264Depacketizer();
    assert.deepEqual(depacketizer.push(stap, 5, false), []);
    const units = depacketizer.push(nal(5, 30), 5, true);
    assert.deepEqual(units[0]?.nals, [sps, pps, nal(5, 30)]);
  });

  it('drops a unit that lost a fragment and every frame until the next IDR', () => {
    const depacketizer = new H264Depacketizer();
    const key = packetizeH264([nal(5, 3000)]);
    assert.equal(key.flatMap((p) => depacketizer.push(p.payload, 0, p.marker)).length, 1);
    const delta = packetizeH264([nal(1, 3000)]);
    depacketizer.push((delta[0] as { payload: Uint8Array }).payload, 3000, false);
    depacketizer.lost();
    assert.deepEqual(depacketizer.push((delta[2] as { payload: Uint8Array }).payload, 3000, true), []);
    assert.equal(depacketizer.stats.corrupted, 1);
    assert.deepEqual(depacketizer.push(nal(1, 50), 6000, true), []);
    assert.equal(depacketizer.waitingForKeyframe, true);
    assert.equal(depacketizer.push(nal(5, 50), 9000, true).length, 1);
    assert.equal(depacketizer.waitingForKeyframe, false);
  });

  it('refuses interleaved-mode payloads and malformed STAP-A with typed errors', () => {
    const depacketizer = new H264Depacketizer();
    assert.throws(() => depacketizer.push(new Uint8Array([0x19, 0, 0]), 0, true), { name: 'UnsupportedError' });
    assert.throws(() => depacketizer.push(new Uint8Array([0x78, 0, 50, 1]), 1, true), { name: 'ParseError' });
    assert.throws(() => depacketizer.push(new Uint8Array([0x80]), 2, true), { name: 'ParseError' });
    assert.deepEqual(depacketizer.push(new Uint8Array(0), 3, true), []);
  });
});

describe('RTP clocks and reordering', () => {
  it('unwraps 32-bit timestamps and measures sequence distance across the wrap', () => {
    const unwrapper = new TimestampUnwrapper();
    assert.equal(unwrapper.unwrap(0xffff_ff00), 0xffff_ff00);
    assert.equal(unwrapper.unwrap(0x100), 2 ** 32 + 0x100);
    assert.equal(unwrapper.unwrap(0xffff_ff80), 0xffff_ff80);
    assert.equal(sequenceDelta(65_535, 1), 2);
    assert.equal(sequenceDelta(1, 65_535), -2);
  });

  it('puts swapped packets back in order, drops duplicates, declares a gap lost after the wait', () => {
    const buffer = new ReorderBuffer<number>(16, 50);
    const { delivered, take } = deliveryLog();
    take(buffer.push(65_534, 1, 0));
    take(buffer.push(0, 3, 1));
    take(buffer.push(65_535, 2, 2));
    take(buffer.push(65_535, 2, 3));
    take(buffer.push(3, 5, 4));
    take(buffer.push(3, 5, 5));
    assert.deepEqual(delivered, [1, 2, 3]);
    take(buffer.poll(100));
    assert.deepEqual(delivered, [1, 2, 3, 'lost 2', 5]);
    assert.equal(buffer.stats.duplicates, 1);
    take(buffer.push(1, 99, 101));
    assert.deepEqual(delivered.at(-1), 5, 'a packet older than what was delivered is dropped');
    assert.equal(buffer.stats.late, 2, 'the repeat of a delivered packet and the packet behind the gap');
  });

  it('gives up a gap only when polled, so a retransmission read after a stall still fills it', () => {
    const buffer = new ReorderBuffer<number>(16, 50);
    const { delivered, take } = deliveryLog();
    take(buffer.push(1, 1, 0));
    take(buffer.push(3, 3, 0));
    // The process stalled 500 ms; the packets queued meanwhile are read in arrival order.
    take(buffer.push(4, 4, 500));
    assert.deepEqual(delivered, [1], 'packets read after the stall wait behind the gap');
    take(buffer.push(2, 2, 500));
    assert.deepEqual(delivered, [1, 2, 3, 4]);
    take(buffer.push(6, 6, 501));
    take(buffer.poll(600));
    assert.deepEqual(delivered, [1, 2, 3, 4, 'lost 1', 6], 'a poll after the wait gives the gap up');
  });
});

/** What a reorder buffer delivered, in order: packets as themselves, gaps as `lost N`. */
function deliveryLog() {
  const delivered: (number | string)[] = [];
  const take = (events: readonly ReorderEvent<number>[]) => {
    for (const e of events) {
      delivered.push(e.kind === 'packet' ? e.packet : `lost ${e.count}`);
    }
  };
  return { delivered, take };
}
