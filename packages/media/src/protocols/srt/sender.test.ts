/** The SRT sending half, driven by hand: retransmission, acknowledgement, too-late drop. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cryptPayload, randomStreamKey } from './crypto.js';
import { ControlType, type DataPacket, parsePacket, writeAckCif, writeLossList } from './packet.js';
import { SrtSender } from './sender.js';

function sender(options: { key?: { key: Buffer; salt: Uint8Array }; bufferPackets?: number } = {}) {
  const sent: Uint8Array[] = [];
  const srt = new SrtSender({
    initialSequence: 0x7ffffffe,
    peerSocketId: 77,
    dropDelayUs: 1_000_000,
    bufferPackets: options.bufferPackets ?? 100,
    timestamp: (now) => now >>> 0,
    send: (bytes) => sent.push(bytes),
    ...(options.key ? { key: options.key } : {}),
  });
  return { srt, sent, packets: () => sent.map((bytes) => parsePacket(bytes)) };
}

const ack = (next: number) =>
  writeAckCif({
    lastAcknowledged: next,
    rttUs: 0,
    rttVarianceUs: 0,
    availableBuffer: 0,
    packetsPerSecond: 0,
    linkCapacity: 0,
    bytesPerSecond: 0,
  });

describe('SrtSender', () => {
  it('numbers packets across the 31-bit wrap and sends a NAKed one again, flagged retransmitted', () => {
    const { srt, packets } = sender();
    for (let i = 0; i < 4; i++) {
      srt.send(Uint8Array.of(i), 1000 + i);
    }
    srt.nak(writeLossList([{ from: 0x7fffffff, to: 0 }]));
    const data = packets() as DataPacket[];
    assert.deepEqual(
      data.map((packet) => [packet.sequence, packet.retransmitted, packet.payload[0]]),
      [
        [0x7ffffffe, false, 0],
        [0x7fffffff, false, 1],
        [0, false, 2],
        [1, false, 3],
        [0x7fffffff, true, 1],
        [0, true, 2],
      ],
    );
    assert.ok(data.every((packet) => packet.destinationSocket === 77 && packet.keySlot === 0));
  });

  it('forgets what an ACK acknowledges and answers a full ACK with ACKACK of its number', () => {
    const { srt, sent, packets } = sender();
    for (let i = 0; i < 4; i++) {
      srt.send(Uint8Array.of(i), i);
    }
    srt.ack(9, ack(0), 10);
    assert.equal(srt.unacknowledged, 2);
    const ackack = packets().at(-1);
    assert.ok(ackack?.control && ackack.type === ControlType.ackack && ackack.info === 9);
    const before = sent.length;
    srt.nak(writeLossList([{ from: 0x7ffffffe, to: 0x7ffffffe }]));
    assert.equal(sent.length, before, 'an acknowledged packet is not sent again');
  });

  it('gives up packets older than the drop delay with a DROPREQ of their range', () => {
    const { srt, packets } = sender();
    srt.send(Uint8Array.of(1), 0);
    srt.send(Uint8Array.of(2), 10);
    srt.send(Uint8Array.of(3), 900_000);
    srt.tick(1_000_020);
    assert.equal(srt.unacknowledged, 1);
    assert.equal(srt.stats.packetsDropped, 2);
    const drop = packets().at(-1);
    assert.ok(drop?.control && drop.type === ControlType.dropRequest);
    const view = new DataView(drop.cif.buffer, drop.cif.byteOffset);
    assert.deepEqual([view.getUint32(0), view.getUint32(4)], [0x7ffffffe, 0x7fffffff]);
  });

  it('encrypts with the even key (KK=1): the same payload decrypts back with the sequence number', () => {
    const { key, salt } = randomStreamKey(16);
    const { srt, packets } = sender({ key: { key, salt } });
    srt.send(Uint8Array.of(0x47, 1, 2, 3), 0);
    const [packet] = packets() as DataPacket[];
    assert.ok(packet);
    assert.equal(packet.keySlot, 1);
    assert.notDeepEqual([...packet.payload], [0x47, 1, 2, 3]);
    assert.deepEqual([...cryptPayload(key, salt, packet.sequence, packet.payload)], [0x47, 1, 2, 3]);
  });
});
