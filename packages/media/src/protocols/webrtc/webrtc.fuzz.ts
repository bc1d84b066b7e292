/**
 * Fuzz targets for the WebRTC parsers of network input: SDP offers, trickle-ICE fragments, the
 * H.264 depacketizer fed arbitrary RTP payloads (with loss and reordering through the reorder
 * buffer), and werift's RTP/RTCP deserializers as the sessions meet them. Accepted input must keep
 * the invariants (depacketized units are non-empty; nothing grows past its limits).
 */
import { RtcpPacketConverter, RtpHeader, RtpPacket } from 'werift';
import { ParseError } from '../../errors.js';
import { OggPacketReader } from '../../formats/ogg/ogg-packets.js';
import type { FuzzTarget } from '../../testing/fuzz.js';
import { Av1Depacketizer } from '../shared/rtp/av1-depacketizer.js';
import { H264Depacketizer } from '../shared/rtp/h264-depacketizer.js';
import { packetizeH264 } from '../shared/rtp/h264-packetizer.js';
import { ReorderBuffer } from '../shared/rtp/reorder-buffer.js';
import { Vp9Depacketizer } from '../shared/rtp/vp9-depacketizer.js';
import { summarizeOffer } from './sdp/offer-summary.js';
import { parseTrickleFragment } from './sdp/trickle-fragment.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const OFFER = [
  'v=0',
  'o=- 1 2 IN IP4 127.0.0.1',
  's=-',
  't=0 0',
  'm=video 9 UDP/TLS/RTP/SAVPF 102',
  'a=ice-ufrag:Xb3J',
  'a=ice-pwd:6ZbQ7cWcZ2Jc8h0rj0U6vJbU',
  'a=fingerprint:sha-256 12:34',
  'a=mid:0',
  'a=sendonly',
  'a=rtpmap:102 H264/90000',
  '',
].join('\r\n');
const FRAGMENT = 'a=ice-ufrag:Xb3J\r\na=mid:0\r\na=candidate:1 1 udp 2122260223 127.0.0.1 61665 typ host\r\n';

function check(condition: boolean, what: string): void {
  if (!condition) {
    throw new Error(`invariant broken: ${what}`);
  }
}

/** werift throws plain errors on short packets: the sessions treat any of them as a bad packet. */
function asParseError(run: () => void): void {
  try {
    run();
  } catch (error) {
    throw new ParseError(`werift refused the packet: ${(error as Error).message}`);
  }
}

const h264Seed = (() => {
  const nal = new Uint8Array(3000).fill(5);
  nal[0] = 0x65;
  return packetizeH264([Uint8Array.of(0x67, 0x42, 0, 0x1f), Uint8Array.of(0x68, 1), nal], 1200).map((p) => p.payload);
})();

/** The targets (`npm run fuzz` runs them longer). */
export const fuzzTargets: FuzzTarget[] = [
  {
    name: 'SDP offer summary',
    seeds: [encoder.encode(OFFER)],
    run: (input) => void summarizeOffer(decoder.decode(input)),
  },
  {
    name: 'trickle-ICE fragment',
    seeds: [encoder.encode(FRAGMENT)],
    run: (input) => void parseTrickleFragment(decoder.decode(input)),
  },
  {
    name: 'H.264 depacketizer behind the reorder buffer',
    seeds: h264Seed.map((payload, i) => Uint8Array.of(i, (i + 1) % 4 === 0 ? 1 : 0, ...payload)),
    run: (input) => {
      const depacketizer = new H264Depacketizer();
      const reorder = new ReorderBuffer<Uint8Array>(8, 10);
      // Each 64-byte slice is one packet: [sequence, marker, payload…].
      for (let offset = 0, now = 0; offset < input.length; offset += 64, now += 3) {
        const packet = input.subarray(offset, offset + 64);
        for (const event of reorder.push(packet[0] ?? 0, packet, now)) {
          if (event.kind === 'lost') {
            depacketizer.lost();
            continue;
          }
          const units = depacketizer.push(
            event.packet.subarray(2),
            (event.packet[1] ?? 0) >> 1,
            ((event.packet[1] ?? 0) & 1) === 1,
          );
          for (const unit of units) {
            check(unit.nals.length > 0 && unit.nals.every((nal) => nal.length > 0), 'units hold non-empty NALs');
          }
        }
      }
      check(reorder.heldCount <= 8, 'reorder buffer stays bounded');
    },
  },
  {
    name: 'AV1 depacketizer',
    seeds: [Uint8Array.of(0x18, 0x0a, 0x0b, 0, 0, 0, 2, 0xaf, 0xff, 0x9b, 0x5f, 0x20, 0x08, 0x32, 0x10, 1, 2, 3)],
    run: (input) => {
      const depacketizer = new Av1Depacketizer();
      // Each 48-byte slice is one packet; its first byte's low bit is the marker.
      for (let offset = 0; offset < input.length; offset += 48) {
        const packet = input.subarray(offset, offset + 48);
        for (const unit of depacketizer.push(packet.subarray(1), offset >> 7, ((packet[0] ?? 0) & 1) === 1)) {
          check(unit.data.length > 0, 'temporal units are non-empty');
        }
      }
    },
  },
  {
    name: 'VP9 depacketizer',
    seeds: [
      Uint8Array.of(
        0xaa,
        0x80,
        0x01,
        0x00,
        0x05,
        0x18,
        0x02,
        0x80,
        0x01,
        0x68,
        0x01,
        0x04,
        0x01,
        0x82,
        0x49,
        0x83,
        0x42,
        0,
        3,
      ),
    ],
    run: (input) => {
      const depacketizer = new Vp9Depacketizer();
      for (let offset = 0; offset < input.length; offset += 40) {
        const packet = input.subarray(offset, offset + 40);
        for (const frame of depacketizer.push(packet.subarray(1), offset >> 7, ((packet[0] ?? 0) & 1) === 1)) {
          check(frame.data.length > 0, 'frames are non-empty');
        }
      }
    },
  },
  {
    name: 'werift RTP packet',
    seeds: [
      new RtpPacket(
        new RtpHeader({ payloadType: 96, sequenceNumber: 1, timestamp: 2, marker: true }),
        Buffer.from([0x65, 1, 2]),
      ).serialize(),
    ],
    run: (input) => asParseError(() => void RtpPacket.deSerialize(Buffer.from(input))),
  },
  {
    name: 'werift RTCP compound packet',
    seeds: [
      Uint8Array.of(
        0x81,
        201,
        0,
        7,
        0,
        0,
        0,
        1,
        0,
        0,
        0,
        2,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
      ),
    ],
    run: (input) => asParseError(() => void RtcpPacketConverter.deSerialize(Buffer.from(input))),
  },
  {
    name: 'Ogg packet reader',
    seeds: [Uint8Array.of(0x4f, 0x67, 0x67, 0x53, 0, 2, ...new Array(20).fill(0), 1, 3, 1, 2, 3)],
    run: (input) => {
      const reader = new OggPacketReader();
      for (let offset = 0; offset < input.length; offset += 37) {
        reader.push(input.subarray(offset, offset + 37));
      }
    },
  },
];
