/**
 * Fuzz targets of the pull parsers of network input: the RTSP scanner of what a source sends
 * (split at a random point), the HLS playlist rewriter and trimmer of ended playlists, the pull-URI classifier, and the
 * in-process RTSP client's reader, SDP, authentication challenges and interleaved RTP/RTCP
 * frames through the depacketizers into units.
 */
import { ParseError, UnsupportedError } from '../../errors.js';
import type { FuzzTarget } from '../../testing/fuzz.js';
import { LatmDepacketizer, latmConfig } from '../shared/rtp/latm-depacketizer.js';
import { parseRtpPacket, senderReports } from '../shared/rtp/rtp-packet.js';
import { PullRefusedError } from './address-guard.js';
import { rewritePlaylist } from './playlist-rewrite.js';
import { trimDelivered } from './playlist-trim.js';
import { classifyPullUri } from './pull-target.js';
import { parseChallenges, RtspAuthenticator } from './rtsp/rtsp-auth.js';
import { planRtsp } from './rtsp/rtsp-plan.js';
import { RtspReader } from './rtsp/rtsp-reader.js';
import { parseSessionDescription } from './rtsp/rtsp-sdp.js';
import { RtspToStream } from './rtsp/rtsp-to-stream.js';
import { RtspScanner, rtspHeader, rtspStatus } from './rtsp-scanner.js';

const text = new TextEncoder();
const decoder = new TextDecoder();

const RTSP_SEED = Uint8Array.from([
  ...text.encode(
    'RTSP/1.0 200 OK\r\nCSeq: 2\r\nContent-Type: application/sdp\r\nContent-Length: 10\r\n\r\nv=0\r\ns=x\r\n',
  ),
  0x24,
  0x00,
  0x00,
  0x04,
  0x80,
  0x60,
  0x00,
  0x01,
  ...text.encode('RTSP/1.0 302 Found\r\nCSeq: 3\r\nLocation: rtsp://elsewhere/x\r\n\r\n'),
]);

const PLAYLIST_SEED = text.encode(
  [
    '#EXTM3U',
    '#EXT-X-VERSION:7',
    '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="en",URI="audio/en.m3u8"',
    '#EXT-X-STREAM-INF:BANDWIDTH=800000,AUDIO="a"',
    'low/index.m3u8',
    '#EXT-X-STREAM-INF:BANDWIDTH=2000000,AUDIO="a"',
    'https://cdn.example/high/index.m3u8?token=x',
    '#EXT-X-MAP:URI="init.mp4"',
    '#EXT-X-KEY:METHOD=AES-128,URI="key.bin"',
    '#EXTINF:2.0,',
    'seg1.ts',
    '#EXT-X-PART:DURATION=0.5,URI="seg2.part1.m4s"',
  ].join('\n'),
);

const ENDED_PLAYLIST_SEED = text.encode(
  [
    '#EXTM3U',
    '#EXT-X-MEDIA-SEQUENCE:7',
    '#EXT-X-DISCONTINUITY-SEQUENCE:2',
    '#EXTINF:2.0,',
    's7.ts',
    '#EXT-X-DISCONTINUITY',
    '#EXT-X-BYTERANGE:100@0',
    '#EXTINF:2.0,',
    's8.ts',
    '#EXT-X-PART:DURATION=0.5,URI="s9.p1.ts"',
    '#EXTINF:2.0,',
    's9.ts',
    '#EXT-X-ENDLIST',
  ].join('\n'),
);

const SDP_SEED = text.encode(
  [
    'v=0',
    's=cam',
    'a=control:*',
    'm=video 0 RTP/AVP 96',
    'a=rtpmap:96 H264/90000',
    'a=fmtp:96 packetization-mode=1;sprop-parameter-sets=Z0LAHtkDxWhAAAADAEAAAAwDxYuS,aMuMsg==',
    'a=control:trackID=0',
    'm=audio 0 RTP/AVP 97',
    'a=rtpmap:97 MPEG4-GENERIC/48000/2',
    'a=fmtp:97 mode=AAC-hbr;config=1190;sizelength=13;indexlength=3;indexdeltalength=3',
    'a=control:trackID=1',
    'm=video 0 RTP/AVP 98',
    'a=rtpmap:98 H265/90000',
    'm=audio 0 RTP/AVP 111',
    'a=rtpmap:111 opus/48000/2',
  ].join('\r\n'),
);

/** Interleaved frames: H.264 single NAL, FU-A start and end, two AAC frames, a sender report. */
const FRAMES_SEED = Uint8Array.from([
  ...[0x24, 0, 0, 15, 0x80, 0xe0, 0, 1, 0, 0, 0x0b, 0xb8, 0, 0, 0, 1, 0x65, 1, 2],
  ...[0x24, 0, 0, 16, 0x80, 0x60, 0, 2, 0, 0, 0x17, 0x70, 0, 0, 0, 1, 0x7c, 0x81, 1, 2],
  ...[0x24, 0, 0, 16, 0x80, 0xe0, 0, 3, 0, 0, 0x17, 0x70, 0, 0, 0, 1, 0x7c, 0x41, 3, 4],
  ...[0x24, 2, 0, 23, 0x80, 0xe1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 32, 0, 16, 0, 24, 1, 2, 3, 4, 5],
  ...[0x24, 1, 0, 28, 0x80, 200, 0, 6, 0, 0, 0, 1, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0x0b, 0xb8, 0, 0, 0, 1],
  ...[0, 0, 0, 2],
]);

/** An interleaved H.264 single-NAL RTP packet (marker set) of track 0. */
function h264Frame(sequence: number, timestamp: number, nalHeader: number): number[] {
  const ts = [timestamp >>> 24, (timestamp >>> 16) & 0xff, (timestamp >>> 8) & 0xff, timestamp & 0xff];
  return [0x24, 0, 0, 15, 0x80, 0xe0, 0, sequence, ...ts, 0, 0, 0, 1, nalHeader, 1, 2];
}

/** Video whose times step back (B-frames in decode order I P B B, then a key frame). */
const BFRAMES_SEED = Uint8Array.from(
  [
    [3000, 0x65],
    [12_000, 0x41],
    [6000, 0x01],
    [9000, 0x01],
    [21_000, 0x41],
    [15_000, 0x01],
    [18_000, 0x01],
    [24_000, 0x65],
  ].flatMap(([timestamp, nal], i) => h264Frame(i + 1, timestamp as number, nal as number)),
);

/** Parsers of what sources send. */
export const fuzzTargets: FuzzTarget[] = [
  {
    name: 'pull-rtsp-reader',
    seeds: [RTSP_SEED, FRAMES_SEED],
    run(input) {
      const reader = new RtspReader();
      const split = input.byteLength >> 1;
      reader.push(input.subarray(0, split));
      reader.push(input.subarray(split));
    },
  },
  {
    name: 'pull-rtsp-sdp',
    seeds: [SDP_SEED],
    run(input) {
      const plan = planRtsp(parseSessionDescription(decoder.decode(input), 'rtsp://cam.example/live/'));
      new RtspToStream(plan.tracks, { describe: () => undefined, unit: () => undefined }, () => 0).describeIfReady();
    },
  },
  {
    name: 'pull-rtp-latm',
    seeds: [Uint8Array.from([2, 7, 8, 255, 3, ...new Array(258).fill(1)]), text.encode('400023203fc0')],
    run(input) {
      const depacketizer = new LatmDepacketizer(1024);
      const split = input.byteLength >> 1;
      depacketizer.push(input.subarray(0, split), 5);
      depacketizer.push(input.subarray(split), 5);
      latmConfig(decoder.decode(input.subarray(0, 32)));
    },
  },
  {
    name: 'pull-rtsp-auth',
    seeds: [text.encode('Digest realm="cam", nonce="abc", qop="auth", algorithm=SHA-256, opaque="x", Basic realm="y"')],
    run(input) {
      const auth = new RtspAuthenticator({ username: 'u', password: 'p' }, () => '00');
      if (auth.accept(parseChallenges([decoder.decode(input)]))) {
        auth.header('DESCRIBE', 'rtsp://cam.example/live');
      }
    },
  },
  {
    name: 'pull-rtsp-interleaved-rtp',
    seeds: [FRAMES_SEED, BFRAMES_SEED],
    run(input) {
      const plan = planRtsp(parseSessionDescription(decoder.decode(SDP_SEED), 'rtsp://cam.example/live/'));
      const stream = new RtspToStream(plan.tracks, { describe: () => undefined, unit: () => undefined }, () => 0);
      let rejected: Error | undefined;
      for (const item of new RtspReader().push(input)) {
        if (item.kind !== 'frame') {
          continue;
        }
        try {
          const track = item.channel >> 1;
          if (item.channel & 1) {
            for (const report of senderReports(item.data)) {
              stream.senderReport(track, report);
            }
          } else {
            stream.packet(track, parseRtpPacket(item.data));
          }
        } catch (error) {
          if (!(error instanceof ParseError || error instanceof UnsupportedError)) {
            throw error;
          }
          rejected = error;
        }
      }
      if (rejected) {
        throw rejected;
      }
    },
  },
  {
    name: 'pull-rtsp-scanner',
    seeds: [RTSP_SEED],
    run(input) {
      const scanner = new RtspScanner(
        (head) => (rtspStatus(head) ?? 0) >= 300 && rtspHeader(head, 'location') !== undefined,
      );
      const split = input.byteLength >> 1;
      if (scanner.push(input.subarray(0, split)).stoppedAt === undefined) {
        scanner.push(input.subarray(split));
      }
    },
  },
  {
    name: 'pull-playlist-rewrite',
    seeds: [PLAYLIST_SEED],
    run(input) {
      try {
        rewritePlaylist(decoder.decode(input), new URL('https://origin.example/live/index.m3u8'), (url) => url.href);
      } catch (error) {
        if (!(error instanceof PullRefusedError)) {
          throw error;
        }
      }
    },
  },
  {
    name: 'pull-playlist-trim',
    seeds: [ENDED_PLAYLIST_SEED, PLAYLIST_SEED],
    run(input) {
      const base = new URL('https://origin.example/live/index.m3u8');
      for (const delivered of [
        { uri: 'https://origin.example/live/s8.ts', sequence: 8 },
        { uri: 'x', sequence: 3 },
      ]) {
        const trimmed = trimDelivered(decoder.decode(input), base, delivered);
        if (trimmed.drained && trimmed.segments.length > 0) {
          throw new Error('a drained playlist still lists segments');
        }
      }
    },
  },
  {
    name: 'pull-uri',
    seeds: [text.encode('rtsp://user:pw@cam.example:554/live?x=1'), text.encode('udp://@239.1.1.1:5000')],
    run(input) {
      classifyPullUri(decoder.decode(input));
    },
  },
];
