import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fixture } from '../../../codecs/fixtures.js';
import { parseVp9Descriptor, Vp9Depacketizer } from './vp9-depacketizer.js';

const key = fixture('vp9KeyFrameHead');
const inter = fixture('vp9InterFrameHead');

describe('VP9 RTP payload format (RFC 9628)', () => {
  it('skips a full descriptor: 15-bit picture ID, layer indices, scalability structure', () => {
    // I L B V | M + picture ID (2 bytes) | TID/U/SID/D | TL0PICIDX | SS: 1 layer, Y, G with 1 group of 1 ref
    const descriptor = Uint8Array.of(0xaa, 0x80, 0x01, 0x00, 0x05, 0x18, 0x02, 0x80, 0x01, 0x68, 0x01, 0x04, 0x01);
    const parsed = parseVp9Descriptor(Uint8Array.of(...descriptor, 0x82));
    assert.deepEqual(parsed, { start: true, end: false, spatialId: 0, payloadOffset: descriptor.length });
    assert.throws(() => parseVp9Descriptor(Uint8Array.of(0x80)), { name: 'ParseError' });
  });

  it('joins a frame from its B to its E packet and marks key frames', () => {
    const depacketizer = new Vp9Depacketizer();
    assert.deepEqual(depacketizer.push(Uint8Array.of(0x08, ...key.subarray(0, 10)), 0, false), []);
    const frames = depacketizer.push(Uint8Array.of(0x04, ...key.subarray(10)), 0, true);
    assert.equal(frames.length, 1);
    assert.deepEqual(frames[0]?.data, key);
    assert.equal(frames[0]?.key, true);
    assert.equal(depacketizer.push(Uint8Array.of(0x4c, ...inter), 3000, true)[0]?.key, false);
  });

  it('keeps only spatial layer 0, and after a loss waits for a key frame', () => {
    const depacketizer = new Vp9Depacketizer();
    // L set, flexible off: layer byte (SID 1) and TL0PICIDX, then the frame.
    assert.deepEqual(depacketizer.push(Uint8Array.of(0x2c, 0x02, 0x00, ...key), 0, true), []);
    assert.equal(depacketizer.push(Uint8Array.of(0x0c, ...key), 3000, true).length, 1);
    assert.deepEqual(depacketizer.push(Uint8Array.of(0x04, ...inter), 6000, true), [], 'no start of frame');
    assert.equal(depacketizer.stats.corrupted, 1);
    assert.deepEqual(depacketizer.push(Uint8Array.of(0x4c, ...inter), 9000, true), []);
    assert.equal(depacketizer.waitingForKeyframe, true);
    assert.equal(depacketizer.push(Uint8Array.of(0x0c, ...key), 12_000, true).length, 1);
  });
});
