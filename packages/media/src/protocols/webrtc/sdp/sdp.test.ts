import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { summarizeOffer } from './offer-summary.js';
import { parseTrickleFragment } from './trickle-fragment.js';

/** A WHIP offer as Chromium sends it (trimmed). */
export const CHROMIUM_OFFER = [
  'v=0',
  'o=- 4611731400430051336 2 IN IP4 127.0.0.1',
  's=-',
  't=0 0',
  'a=group:BUNDLE 0 1',
  'a=msid-semantic: WMS',
  'm=audio 9 UDP/TLS/RTP/SAVPF 111 63',
  'c=IN IP4 0.0.0.0',
  'a=ice-ufrag:Xb3J',
  'a=ice-pwd:6ZbQ7cWcZ2Jc8h0rj0U6vJbU',
  'a=fingerprint:sha-256 12:34:56:78:9A:BC:DE:F0:12:34:56:78:9A:BC:DE:F0:12:34:56:78:9A:BC:DE:F0:12:34:56:78:9A:BC:DE:F0',
  'a=setup:actpass',
  'a=mid:0',
  'a=sendonly',
  'a=rtpmap:111 opus/48000/2',
  'a=rtpmap:63 red/48000/2',
  'm=video 9 UDP/TLS/RTP/SAVPF 96 102',
  'c=IN IP4 0.0.0.0',
  'a=ice-ufrag:Xb3J',
  'a=ice-pwd:6ZbQ7cWcZ2Jc8h0rj0U6vJbU',
  'a=fingerprint:sha-256 12:34:56:78:9A:BC:DE:F0:12:34:56:78:9A:BC:DE:F0:12:34:56:78:9A:BC:DE:F0:12:34:56:78:9A:BC:DE:F0',
  'a=setup:actpass',
  'a=mid:1',
  'a=sendonly',
  'a=rtpmap:96 VP8/90000',
  'a=rtpmap:102 H264/90000',
  'a=fmtp:102 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f',
  '',
].join('\r\n');

describe('SDP offers (RFC 8866) and trickle fragments (RFC 8840)', () => {
  it('summarises media sections: kind, direction, mid, codecs', () => {
    assert.deepEqual(summarizeOffer(CHROMIUM_OFFER).media, [
      { kind: 'audio', direction: 'sendonly', mid: '0', codecs: ['opus', 'red'] },
      { kind: 'video', direction: 'sendonly', mid: '1', codecs: ['vp8', 'h264'] },
    ]);
  });

  it('refuses what werift could not negotiate, with the reason', () => {
    assert.throws(() => summarizeOffer('hello'), /letter/);
    assert.throws(() => summarizeOffer('v=0\r\ns=-\r\n'), /no media section/);
    assert.throws(() => summarizeOffer(CHROMIUM_OFFER.replaceAll(/a=fingerprint:[^\r]*\r\n/g, '')), /fingerprint/);
    assert.throws(() => summarizeOffer(`v=1\r\n${CHROMIUM_OFFER.slice(5)}`), /v=0/);
    assert.throws(() => summarizeOffer(CHROMIUM_OFFER.replace('a=mid:0', 'a=mid:\u0000')), /letter/);
    assert.throws(() => summarizeOffer(`v=0\r\n${'m=audio 9 X 0\r\n'.repeat(17)}`), /media sections/);
  });

  it('parses candidates per MID, credentials and end-of-candidates', () => {
    const fragment = parseTrickleFragment(
      [
        'a=ice-ufrag:Xb3J',
        'a=ice-pwd:6ZbQ7cWcZ2Jc8h0rj0U6vJbU',
        'm=audio 9 UDP/TLS/RTP/SAVPF 0',
        'a=mid:0',
        'a=candidate:1 1 udp 2122260223 192.0.2.10 61665 typ host generation 0',
        'a=end-of-candidates',
        '',
      ].join('\r\n'),
    );
    assert.equal(fragment.iceUfrag, 'Xb3J');
    assert.equal(fragment.endOfCandidates, true);
    assert.deepEqual(fragment.candidates, [
      { mid: '0', candidate: 'candidate:1 1 udp 2122260223 192.0.2.10 61665 typ host generation 0' },
    ]);
    assert.throws(() => parseTrickleFragment('a=candidate:1 1 udp x 1.2.3.4 5 typ host\r\n'), /malformed/);
  });
});
