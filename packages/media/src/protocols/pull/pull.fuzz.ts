/**
 * Fuzz targets of the pull parsers of network input: the RTSP scanner of what a source sends
 * (split at a random point), the HLS playlist rewriter and the pull-URI classifier.
 */
import type { FuzzTarget } from '../../testing/fuzz.js';
import { PullRefusedError } from './address-guard.js';
import { rewritePlaylist } from './playlist-rewrite.js';
import { classifyPullUri } from './pull-target.js';
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

/** Parsers of what sources send. */
export const fuzzTargets: FuzzTarget[] = [
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
    name: 'pull-uri',
    seeds: [text.encode('rtsp://user:pw@cam.example:554/live?x=1'), text.encode('udp://@239.1.1.1:5000')],
    run(input) {
      classifyPullUri(decoder.decode(input));
    },
  },
];
