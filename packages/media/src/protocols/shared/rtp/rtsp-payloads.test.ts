/**
 * The RTP payload formats and packet parsers RTSP pull adds: H.265 (RFC 7798 single, AP, FU),
 * MPEG-4 generic AAC (RFC 3640 AU headers, fragments, constant size), AAC in LATM (RFC 6416),
 * RTP headers with CSRCs,
 * extension and padding (RFC 3550 §5.1), and sender reports in compound RTCP (§6.4.1).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ParseError } from '../../../errors.js';
import { H265Depacketizer } from './h265-depacketizer.js';
import { LatmDepacketizer, latmConfig } from './latm-depacketizer.js';
import { Mpeg4GenericDepacketizer, mpeg4GenericFormat } from './mpeg4-generic-depacketizer.js';
import { parseRtpPacket, senderReports } from './rtp-packet.js';

/** An H.265 NAL unit of `type` (layer 0, temporal id 1) and `size` bytes. */
const nal = (type: number, size: number, fill = 5) => {
  const out = new Uint8Array(size).fill(fill);
  out[0] = type << 1;
  out[1] = 1;
  return out;
};

describe('H.265 RTP (RFC 7798)', () => {
  it('joins an aggregation packet of parameter sets and a fragmented IDR into one key access unit', () => {
    const vps = nal(32, 10);
    const sps = nal(33, 20);
    const pps = nal(34, 6);
    const idr = nal(19, 3000, 9);
    const ap = Uint8Array.from([
      48 << 1,
      1,
      ...[0, vps.length, ...vps],
      ...[0, sps.length, ...sps],
      ...[0, pps.length, ...pps],
    ]);
    const fu = (start: boolean, end: boolean, body: Uint8Array) =>
      Uint8Array.from([49 << 1, 1, (start ? 0x80 : 0) | (end ? 0x40 : 0) | 19, ...body]);
    const depacketizer = new H265Depacketizer();
    const units = [
      ...depacketizer.push(ap, 100, false),
      ...depacketizer.push(fu(true, false, idr.subarray(2, 1000)), 100, false),
      ...depacketizer.push(fu(false, false, idr.subarray(1000, 2000)), 100, false),
      ...depacketizer.push(fu(false, true, idr.subarray(2000)), 100, true),
    ];
    assert.equal(units.length, 1);
    assert.equal(units[0]?.key, true);
    assert.deepEqual(units[0]?.nals, [vps, sps, pps, idr]);
  });

  it('drops a unit whose fragment start was lost and waits for the next key frame', () => {
    const depacketizer = new H265Depacketizer();
    const trail = nal(1, 50);
    assert.deepEqual(depacketizer.push(Uint8Array.from([49 << 1, 1, 0x40 | 1, 1, 2, 3]), 10, true), []);
    assert.deepEqual(depacketizer.push(trail, 20, true), [], 'not a key frame: skipped');
    const key = depacketizer.push(nal(21, 40), 30, true);
    assert.equal(key[0]?.key, true);
    assert.equal(depacketizer.stats.corrupted, 1);
  });

  it('refuses reserved and PACI payload types and aggregation sizes past the packet', () => {
    assert.throws(() => new H265Depacketizer().push(Uint8Array.from([55 << 1, 1, 0]), 1, true), ParseError);
    assert.throws(() => new H265Depacketizer().push(Uint8Array.from([50 << 1, 1, 0]), 1, true), /PACI/);
    assert.throws(() => new H265Depacketizer().push(Uint8Array.from([48 << 1, 1, 0, 9, 2, 1]), 1, true), ParseError);
  });
});

describe('MPEG-4 generic AAC over RTP (RFC 3640)', () => {
  const hbr = mpeg4GenericFormat(
    new Map([
      ['sizelength', '13'],
      ['indexlength', '3'],
      ['indexdeltalength', '3'],
    ]),
  );

  /** An AAC-hbr AU-header section for these sizes (index deltas 0). */
  const headers = (sizes: number[]) => {
    const bits = sizes.length * 16;
    const out = [bits >> 8, bits & 0xff];
    for (const size of sizes) {
      out.push(size >> 5, (size & 0x1f) << 3);
    }
    return out;
  };

  it('splits several access units and times them one frame apart', () => {
    const depacketizer = new Mpeg4GenericDepacketizer(hbr, 1024);
    const units = depacketizer.push(Uint8Array.from([...headers([2, 3]), 1, 2, 3, 4, 5]), 0xfffffc00);
    assert.deepEqual(
      units.map((unit) => [unit.timestamp, [...unit.data]]),
      [
        [0xfffffc00, [1, 2]],
        [0, [3, 4, 5]],
      ],
    );
  });

  it('joins an access unit fragmented over packets of one timestamp', () => {
    const depacketizer = new Mpeg4GenericDepacketizer(hbr, 1024);
    const frame = Array.from({ length: 3000 }, (_, i) => i & 0xff);
    const first = depacketizer.push(Uint8Array.from([...headers([3000]), ...frame.slice(0, 1400)]), 7);
    const second = depacketizer.push(Uint8Array.from([...headers([3000]), ...frame.slice(1400)]), 7);
    assert.deepEqual(first, []);
    assert.deepEqual([...(second[0]?.data ?? [])], frame);
  });

  it('reads constant-size units without headers, and refuses sizes past the packet', () => {
    const constant = new Mpeg4GenericDepacketizer(mpeg4GenericFormat(new Map([['constantsize', '2']])), 960);
    assert.deepEqual(
      constant.push(Uint8Array.of(1, 2, 3, 4), 0).map((unit) => unit.timestamp),
      [0, 960],
    );
    const depacketizer = new Mpeg4GenericDepacketizer(hbr, 1024);
    assert.throws(() => depacketizer.push(Uint8Array.from([...headers([2, 9]), 1, 2, 3]), 0), ParseError);
    assert.throws(() => depacketizer.push(Uint8Array.from([0xff, 0xff, 1]), 0), ParseError);
    assert.throws(() => mpeg4GenericFormat(new Map([['sizelength', '40']])), /0\.\.32/);
  });
});

describe('AAC in LATM over RTP (RFC 6416)', () => {
  it('reads the SDP config, whole or cut after the AudioSpecificConfig', () => {
    for (const hex of ['400023203fc0', '40002320']) {
      const config = latmConfig(hex);
      assert.deepEqual(
        [config.sampleRate, config.channels, config.objectType, Buffer.from(config.asc).toString('hex')],
        [48000, 2, 2, '1190'],
        hex,
      );
    }
    assert.throws(() => latmConfig('4x'), ParseError);
  });

  it('splits elements, times them a frame apart, and joins one continued in the next packet', () => {
    const depacketizer = new LatmDepacketizer(1024);
    const big = Array.from({ length: 300 }, (_, i) => i & 0xff);
    const units = depacketizer.push(Uint8Array.from([2, 7, 8, 3, 1, 2, 3]), 100);
    assert.deepEqual(
      units.map((unit) => [unit.timestamp, [...unit.data]]),
      [
        [100, [7, 8]],
        [1124, [1, 2, 3]],
      ],
    );
    assert.deepEqual(depacketizer.push(Uint8Array.from([255, 45, ...big.slice(0, 100)]), 200), []);
    const joined = depacketizer.push(Uint8Array.from(big.slice(100)), 200);
    assert.deepEqual([...(joined[0]?.data ?? [])], big);
    assert.throws(() => depacketizer.push(Uint8Array.from([0, 1]), 300), ParseError);
  });
});

describe('RTP and RTCP packets (RFC 3550)', () => {
  it('finds the payload past CSRCs and a header extension, without padding', () => {
    const packet = Uint8Array.from([
      0xb1, // V=2, P=1, X=1, CC=1
      0xe0, // M=1, PT=96
      0x12,
      0x34,
      0,
      0,
      0x10,
      0,
      0,
      0,
      0,
      7,
      ...[0, 0, 0, 9],
      ...[0xbe, 0xde, 0, 1, 1, 2, 3, 4],
      ...[0xaa, 0xbb],
      ...[0, 0, 3],
    ]);
    const rtp = parseRtpPacket(packet);
    assert.deepEqual(
      [rtp.payloadType, rtp.marker, rtp.sequence, rtp.timestamp, rtp.ssrc, [...rtp.payload]],
      [96, true, 0x1234, 0x1000, 7, [0xaa, 0xbb]],
    );
    assert.throws(() => parseRtpPacket(Uint8Array.from([0x40, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])), ParseError);
    assert.throws(() => parseRtpPacket(Uint8Array.from([0x8f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])), ParseError);
  });

  it('reads the sender report of a compound packet and skips the rest', () => {
    const sr = [0x80, 200, 0, 6, 0, 0, 0, 5, 0, 0, 0, 10, 0x80, 0, 0, 0, 0, 0, 0x30, 0x39, 0, 0, 0, 1, 0, 0, 0, 2];
    const sdes = [0x81, 202, 0, 1, 0, 0, 0, 5];
    const reports = senderReports(Uint8Array.from([...sr, ...sdes]));
    assert.deepEqual(reports, [{ ssrc: 5, ntpMs: 10_500, rtpTimestamp: 12345 }]);
    assert.throws(() => senderReports(Uint8Array.from([0x80, 200, 0, 9, 0, 0, 0, 0])), ParseError);
  });
});
