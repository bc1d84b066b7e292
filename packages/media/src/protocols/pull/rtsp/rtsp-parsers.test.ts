/**
 * The RTSP client's parsers of what a source sends: the control-connection reader (split at
 * every byte), authentication challenges and the known answers of RFC 2617 / RFC 7616, the SDP
 * and the plan made from it, RTP-Info and sender-report timing, and the conversion to units.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildAudioSpecificConfig } from '../../../codecs/aac.js';
import { ProtocolError } from '../../../errors.js';
import type { MediaUnit } from '../../../stream/media-unit.js';
import type { StreamDescription } from '../../../stream/track.js';
import { RtpTimeline } from './rtp-timeline.js';
import { credentialsOf, parseChallenges, RtspAuthenticator } from './rtsp-auth.js';
import { planRtsp } from './rtsp-plan.js';
import { type RtspItem, RtspReader } from './rtsp-reader.js';
import { parseSessionDescription, resolveControl } from './rtsp-sdp.js';
import { RtspToStream } from './rtsp-to-stream.js';

const text = new TextEncoder();

function frame(channel: number, data: number[]): number[] {
  return [0x24, channel, data.length >> 8, data.length & 0xff, ...data];
}

describe('RTSP control-connection reader', () => {
  const wire = Uint8Array.from([
    ...text.encode(
      'RTSP/1.0 200 OK\r\nCSeq: 2\r\nContent-Base: rtsp://h/live/\r\nContent-Length: 9\r\n\r\nv=0\r\ns=x\n',
    ),
    ...frame(0, [0x80, 0x60, 0, 1, 0, 0, 0, 9, 0, 0, 0, 1, 0x65]),
    ...text.encode('GET_PARAMETER rtsp://h/live RTSP/1.0\r\nCSeq: 7\r\nX-Folded: a\r\n b\r\n\r\n'),
    ...frame(1, new Array(300).fill(7)),
  ]);
  const summary = (items: RtspItem[]) =>
    items.map((item) =>
      item.kind === 'frame'
        ? `frame ${item.channel} ${item.data.length}`
        : item.kind === 'response'
          ? `response ${item.status} ${item.headers.get('content-base')} ${new TextDecoder().decode(item.body)}`
          : `request ${item.method} ${item.headers.get('cseq')} ${item.headers.get('x-folded')}`,
    );

  it('yields responses with bodies, server requests and interleaved frames however the bytes are cut', () => {
    const whole = summary(new RtspReader().push(wire));
    assert.deepEqual(whole, [
      'response 200 rtsp://h/live/ v=0\r\ns=x\n',
      'frame 0 13',
      'request GET_PARAMETER 7 a b',
      'frame 1 300',
    ]);
    for (let cut = 1; cut < wire.length; cut++) {
      const reader = new RtspReader();
      const items = [...reader.push(wire.subarray(0, cut)), ...reader.push(wire.subarray(cut))];
      assert.deepEqual(summary(items), whole, `cut at ${cut}`);
    }
  });

  it('refuses bytes that are not RTSP and bodies past the limit', () => {
    assert.throws(() => new RtspReader().push(text.encode('HTTP/1.1 200 OK\r\n\r\n')), ProtocolError);
    assert.throws(() => new RtspReader().push(text.encode('\x00\x01garbage')), ProtocolError);
    assert.throws(
      () => new RtspReader().push(text.encode('RTSP/1.0 200 OK\r\nContent-Length: 99999999\r\n\r\n')),
      ProtocolError,
    );
    assert.throws(
      () => new RtspReader().push(text.encode('RTSP/1.0 200 OK\r\nContent-Length: -1\r\n\r\n')),
      ProtocolError,
    );
  });
});

describe('RTSP authentication', () => {
  it('parses several challenges with quoted commas', () => {
    const challenges = parseChallenges([
      'Digest realm="a, b", nonce="n1", qop="auth,auth-int", algorithm=MD5',
      'Basic realm="cam"',
    ]);
    assert.deepEqual(
      challenges.map((challenge) => [challenge.scheme, Object.fromEntries(challenge.params)]),
      [
        ['digest', { realm: 'a, b', nonce: 'n1', qop: 'auth,auth-int', algorithm: 'MD5' }],
        ['basic', { realm: 'cam' }],
      ],
    );
  });

  it('gives the RFC 2617 §3.5 answer (MD5, qop=auth)', () => {
    const auth = new RtspAuthenticator({ username: 'Mufasa', password: 'Circle Of Life' }, () => '0a4f113b');
    assert.ok(
      auth.accept(
        parseChallenges([
          'Digest realm="testrealm@host.com", qop="auth,auth-int", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41"',
        ]),
      ),
    );
    const header = auth.header('GET', '/dir/index.html') ?? '';
    assert.match(header, /response="6629fae49393a05397450978507c4ef1"/);
    assert.match(header, /nc=00000001/);
    assert.match(auth.header('GET', '/dir/index.html') ?? '', /nc=00000002/);
  });

  it('prefers SHA-256 Digest and gives the RFC 7616 §3.9.1 answer', () => {
    const auth = new RtspAuthenticator(
      { username: 'Mufasa', password: 'Circle of Life' },
      () => 'f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ',
    );
    const nonce = '7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v';
    const opaque = 'FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS';
    auth.accept(
      parseChallenges([
        `Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=MD5, nonce="${nonce}", opaque="${opaque}"`,
        `Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=SHA-256, nonce="${nonce}", opaque="${opaque}"`,
        'Basic realm="x"',
      ]),
    );
    assert.match(
      auth.header('GET', '/dir/index.html') ?? '',
      /response="753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1"/,
    );
  });

  it('answers Basic, refuses the same challenge twice, and reads percent-encoded credentials', () => {
    const credentials = credentialsOf(new URL('rtsp://us%3Aer:p%40ss@cam/live'));
    assert.deepEqual(credentials, { username: 'us:er', password: 'p@ss' });
    const auth = new RtspAuthenticator(credentials ?? { username: '', password: '' });
    assert.ok(auth.accept(parseChallenges(['Basic realm="cam"'])));
    assert.equal(auth.header('DESCRIBE', 'rtsp://cam/live'), `Basic ${Buffer.from('us:er:p@ss').toString('base64')}`);
    assert.equal(auth.accept(parseChallenges(['Basic realm="cam"'])), false);
    assert.equal(auth.accept(parseChallenges(['Negotiate abc'])), false);
    assert.equal(credentialsOf(new URL('rtsp://cam/live')), undefined);
  });
});

const SDP = [
  'v=0',
  'o=- 0 0 IN IP4 127.0.0.1',
  's=cam',
  'a=control:*',
  'm=video 0 RTP/AVP 96',
  'a=rtpmap:96 H264/90000',
  'a=fmtp:96 packetization-mode=1;profile-level-id=42c01e;sprop-parameter-sets=Z0LAHtkDxWhAAAADAEAAAAwDxYuS,aMuMsg==',
  'a=control:trackID=0',
  'm=audio 0 RTP/AVP 97',
  'a=rtpmap:97 MPEG4-GENERIC/48000/2',
  'a=fmtp:97 streamtype=5; profile-level-id=15; mode=AAC-hbr; config=1190; sizeLength=13; indexLength=3; indexDeltaLength=3',
  'a=control:rtsp://other/live/trackID=1',
  'm=audio 0 RTP/AVP 0',
  'a=control:trackID=2',
  '',
].join('\r\n');

describe('RTSP session description and plan', () => {
  it('reads each section, resolves control URLs and plans the tracks read in process', () => {
    const description = parseSessionDescription(SDP, 'rtsp://cam/live/');
    assert.equal(description.control, 'rtsp://cam/live/');
    assert.deepEqual(
      description.media.map((media) => [media.type, media.encoding, media.clockRate, media.channels, media.control]),
      [
        ['video', 'H264', 90000, 1, 'rtsp://cam/live/trackID=0'],
        ['audio', 'MPEG4-GENERIC', 48000, 2, 'rtsp://other/live/trackID=1'],
        ['audio', 'PCMU', 8000, 1, 'rtsp://cam/live/trackID=2'],
      ],
    );
    assert.equal(description.media[1]?.fmtp.get('sizelength'), '13');
    assert.equal(description.media[0]?.fmtp.get('sprop-parameter-sets')?.endsWith('aMuMsg=='), true);
    const plan = planRtsp(description);
    assert.deepEqual(
      plan.tracks.map((track) => track.codec),
      ['h264', 'aac'],
    );
    assert.equal(plan.ffmpegReads, false);
    assert.equal(plan.leftOut.length, 1);
    assert.equal(resolveControl('rtsp://cam/live', 'trackID=3'), 'rtsp://cam/live/trackID=3');
  });

  it('reads LATM with its config in the SDP; hands in-band LATM and interleaved H.264 to ffmpeg', () => {
    const latm = SDP.replace('MPEG4-GENERIC/48000/2', 'MP4A-LATM/48000/2');
    assert.equal(planRtsp(parseSessionDescription(latm, 'rtsp://cam/')).ffmpegReads, true);
    const outOfBand = latm.replace('config=1190', 'cpresent=0; config=40002320');
    assert.deepEqual(
      planRtsp(parseSessionDescription(outOfBand, 'rtsp://cam/')).tracks.map((track) => track.codec),
      ['h264', 'latm'],
    );
    const interleaved = SDP.replace('packetization-mode=1', 'packetization-mode=2');
    assert.equal(planRtsp(parseSessionDescription(interleaved, 'rtsp://cam/')).ffmpegReads, true);
  });
});

describe('RTP timeline', () => {
  it('extends timestamps across the 32-bit wrap and scales them to the track timescale', () => {
    let now = 1000;
    const timeline = new RtpTimeline([{ rate: 90000, timescale: 90000 }], () => now);
    const first = timeline.time(0, 0xffffff00);
    now = 2000;
    assert.equal(timeline.time(0, 0x00000100) - first, 0x200);
  });

  it('starts every track at the RTP-Info instant, and lines them up by sender reports', () => {
    const aligned: number[] = [];
    const timeline = new RtpTimeline(
      [
        { rate: 90000, timescale: 90000 },
        { rate: 48000, timescale: 48000 },
      ],
      () => 500,
      (_track, correction) => aligned.push(Math.round(correction)),
    );
    timeline.rtpInfo([9000, 4800]);
    assert.equal(timeline.time(0, 9000 + 9000), 45000 + 9000);
    assert.equal(timeline.time(1, 4800 + 4800), 24000 + 4800);
    // The wall clocks say audio timestamp 4800 was sampled 100 ms after video timestamp 9000.
    timeline.senderReport(0, { ssrc: 1, ntpMs: 10_000, rtpTimestamp: 9000 });
    timeline.senderReport(1, { ssrc: 2, ntpMs: 10_100, rtpTimestamp: 4800 });
    assert.deepEqual(aligned, [100]);
    assert.equal(timeline.time(1, 4800 + 4800), 24000 + 4800 + 4800);
  });
});

describe('RTP into units', () => {
  const description = parseSessionDescription(SDP, 'rtsp://cam/live/');
  const plan = planRtsp(description);

  let sequence = 0;
  function rtp(timestamp: number, payload: number[], marker = true) {
    sequence++;
    return { payloadType: 96, marker, sequence, timestamp, ssrc: 1, payload: Uint8Array.from(payload) };
  }

  it('declares H.264 from sprop-parameter-sets before any packet and AAC from config', () => {
    const described: StreamDescription[] = [];
    const units: MediaUnit[] = [];
    const stream = new RtspToStream(
      plan.tracks,
      { describe: (d) => described.push(d), unit: (u) => units.push(u) },
      () => 0,
    );
    stream.describeIfReady();
    assert.deepEqual(
      described[0]?.tracks.map((track) => track.codecString),
      ['avc1.42c01e', 'mp4a.40.2'],
    );
    assert.equal(described[0]?.tracks[1]?.kind === 'audio' && described[0].tracks[1].sampleRate, 48000);
    stream.packet(0, rtp(1000, [0x65, 1, 2, 3]));
    stream.packet(0, rtp(4000, [0x41, 4, 5]));
    // Two AAC frames in one packet: AU headers of 13-bit size and 3-bit index.
    stream.packet(1, rtp(2000, [0, 32, 0, 2 << 3, 0, 3 << 3, 0xa, 0xb, 0xc, 0xd, 0xe]));
    assert.deepEqual(
      units.map((unit) => [unit.trackId, unit.dts, unit.key, unit.data.length]),
      [
        [1, 0, true, 8],
        [1, 3000, false, 7],
        [2, 0, true, 2],
        [2, 1024, true, 3],
      ],
    );
    assert.deepEqual(described.length, 1);
    for (const unit of units) {
      assert.equal(unit.data.buffer.byteLength, unit.data.byteLength, 'no unit keeps the packet it came from alive');
    }
    assert.equal(
      Buffer.from(buildAudioSpecificConfig({ objectType: 2, sampleRate: 48000, channels: 2 })).toString('hex'),
      '1190',
      'the SDP config is AAC-LC, 48 kHz, stereo',
    );
  });

  it('a gap in sequence numbers drops video until the next key frame', () => {
    const units: MediaUnit[] = [];
    const stream = new RtspToStream(plan.tracks, { describe: () => undefined, unit: (u) => units.push(u) }, () => 0);
    stream.describeIfReady();
    stream.packet(0, rtp(3000, [0x65, 1]));
    sequence += 3;
    stream.packet(0, rtp(6000, [0x41, 1]));
    stream.packet(0, rtp(9000, [0x65, 2]));
    assert.deepEqual(
      units.map((unit) => [unit.dts, unit.key]),
      [
        [0, true],
        [6000, true],
      ],
    );
  });

  it('gives video whose times step back (B-frames) decode times, across an RTP timestamp wrap', () => {
    const units: MediaUnit[] = [];
    const reasons: string[] = [];
    const stream = new RtspToStream(
      plan.tracks,
      { describe: () => undefined, unit: (u) => units.push(u) },
      () => 1000,
      undefined,
      (_, reason) => reasons.push(reason),
    );
    stream.describeIfReady();
    // The SPS declares no reordering: the first step back sets the depth and video resumes at the next key frame.
    const base = 2 ** 32 - 7 * 3000;
    for (const [frame, key] of [[0, 1], [3], [1], [2], [6], [4], [5], [9, 1], [12], [10], [11], [15], [13], [14]]) {
      stream.packet(0, rtp((base + (frame as number) * 3000) >>> 0, [key ? 0x65 : 0x41, 1]));
    }
    assert.equal(reasons.length, 1);
    assert.match(reasons[0] ?? '', /reorder depth 1 from here/);
    const at = (frame: number) => 90_000 + frame * 3000;
    assert.deepEqual(
      units.map((unit) => [unit.pts, unit.dts]),
      [
        [at(0), at(0)],
        [at(3), at(3)],
        // The key frame's decode time is laid one frame (of the SPS's 24 fps) below it.
        [at(9), at(9) - 90_000 / 24],
        ...[12, 10, 11, 15, 13, 14].map((frame, i) => [at(frame), at(9 + i)]),
      ],
    );
  });
});
