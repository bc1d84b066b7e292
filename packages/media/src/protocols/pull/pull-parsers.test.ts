/** The pull parsers on chosen inputs: URI classification, playlist rewriting, RTSP splitting, redaction, backoff. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProtocolError } from '../../errors.js';
import { retryDelayMs } from '../shared/retry-delay.js';
import { PullRefusedError } from './address-guard.js';
import { HlsHistory } from './hls-history.js';
import { rewritePlaylist } from './playlist-rewrite.js';
import { trimDelivered } from './playlist-trim.js';
import { classifyPullUri, isPullTarget } from './pull-target.js';
import { redactText, redactUri } from './redact.js';
import { RtspScanner, rtspHeader, rtspStatus } from './rtsp-scanner.js';

describe('pull URIs', () => {
  it('classifies every supported kind', () => {
    const kinds = Object.fromEntries(
      [
        'rtsp://cam.example/live',
        'rtsps://cam.example/live',
        'srt://src.example:9000?streamid=x',
        'rist://src.example:5000',
        'https://cdn.example/live/index.m3u8?token=1',
        'http://cdn.example/live.ts',
        'https://cdn.example/file.mkv',
        'https://cdn.example/file.webm',
        'udp://239.1.1.1:5000',
        'dtsc://mist.example/live+cam',
      ].map((uri) => {
        const target = classifyPullUri(uri);
        return [uri, isPullTarget(target) ? target.kind : target.constraint];
      }),
    );
    assert.deepEqual(Object.values(kinds), [
      'rtsp',
      'rtsps',
      'srt',
      'rist',
      'hls',
      'http-file',
      'http-file',
      'http-file',
      'udp',
      'dtsc',
    ]);
  });

  it('refuses RTMP, FLV over HTTP, other schemes, missing ports and low UDP ports by constraint', () => {
    const problem = (uri: string) => {
      const target = classifyPullUri(uri);
      return isPullTarget(target) ? 'accepted' : `${target.constraint}: ${target.message}`;
    };
    assert.match(problem('rtmp://a.example/live/x'), /^scheme: RTMP pull input is unsupported/);
    assert.match(problem('http://a.example/live.flv'), /^scheme: FLV-over-HTTP pull input is unsupported/);
    assert.match(problem('ftp://a.example/x.ts'), /^scheme: scheme ftp is unsupported/);
    assert.match(problem('srt://a.example'), /^port/);
    assert.match(problem('udp://239.1.1.1:53'), /^port: udp sources listen on a port of at least 1024/);
    assert.match(problem('https://a.example/page.html'), /^format/);
    assert.match(problem('dtsc://a.example'), /^format: dtsc sources name the stream/);
    assert.match(problem(' '), /^required/);
    assert.match(problem(`rtsp://a.example/${'x'.repeat(2100)}`), /^length/);
  });
});

describe('playlist rewriting', () => {
  const base = new URL('https://origin.example/live/index.m3u8');
  const relay = (url: URL) => `relay:${url.href}`;

  it('points every URI at the relay, resolved against the playlist URL', () => {
    const rewritten = rewritePlaylist(
      [
        '#EXTM3U',
        '#EXT-X-MAP:URI="init.mp4"',
        '#EXT-X-KEY:METHOD=AES-128,URI="/keys/k1"',
        '#EXTINF:2.0,',
        'seg1.m4s',
        '#EXT-X-PART:DURATION=0.5,URI="seg2.p1.m4s"',
        '#EXT-X-PRELOAD-HINT:TYPE=PART,URI="seg2.p2.m4s"',
        '#EXTINF:2.0,',
        'https://cdn.example/seg3.m4s',
      ].join('\n'),
      base,
      relay,
    );
    assert.deepEqual(rewritten.text.split('\n'), [
      '#EXTM3U',
      '#EXT-X-MAP:URI="relay:https://origin.example/live/init.mp4"',
      '#EXT-X-KEY:METHOD=AES-128,URI="relay:https://origin.example/keys/k1"',
      '#EXTINF:2.0,',
      'relay:https://origin.example/live/seg1.m4s',
      '#EXT-X-PART:DURATION=0.5,URI="relay:https://origin.example/live/seg2.p1.m4s"',
      '#EXT-X-PRELOAD-HINT:TYPE=PART,URI="relay:https://origin.example/live/seg2.p2.m4s"',
      '#EXTINF:2.0,',
      'relay:https://cdn.example/seg3.m4s',
    ]);
    assert.deepEqual([...rewritten.hosts].sort(), ['cdn.example', 'origin.example']);
  });

  it('keeps only the highest-bandwidth variant of a multivariant playlist', () => {
    const rewritten = rewritePlaylist(
      [
        '#EXTM3U',
        '#EXT-X-STREAM-INF:BANDWIDTH=500000',
        'low.m3u8',
        '#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=100000,URI="iframes.m3u8"',
        '#EXT-X-STREAM-INF:BANDWIDTH=3000000,RESOLUTION=1280x720',
        'high.m3u8',
        '#EXT-X-STREAM-INF:BANDWIDTH=1000000',
        'mid.m3u8',
      ].join('\n'),
      base,
      relay,
    );
    assert.equal(rewritten.multivariant, true);
    assert.deepEqual(
      rewritten.text.split('\n').filter((line) => !line.startsWith('#')),
      ['relay:https://origin.example/live/high.m3u8'],
    );
  });

  it('refuses non-playlists and URIs of other schemes', () => {
    assert.throws(() => rewritePlaylist('<html>', base, relay), PullRefusedError);
    assert.throws(
      () => rewritePlaylist('#EXTM3U\n#EXT-X-KEY:METHOD=AES-128,URI="data:text/plain,abc"\n', base, relay),
      /names a data URI/,
    );
    assert.throws(() => rewritePlaylist('#EXTM3U\nfile:///etc/passwd\n', base, relay), /names a file URI/);
  });
});

describe('ended playlists without what was delivered', () => {
  const base = new URL('https://origin.example/live/index.m3u8');
  const playlist = (ended: boolean) =>
    [
      '#EXTM3U',
      '#EXT-X-TARGETDURATION:2',
      '#EXT-X-MEDIA-SEQUENCE:7',
      '#EXT-X-MAP:URI="init.mp4"',
      '#EXTINF:2.0,',
      's7.m4s',
      '#EXT-X-DISCONTINUITY',
      '#EXTINF:2.0,',
      's8.m4s',
      '#EXTINF:2.0,',
      's9.m4s',
      ...(ended ? ['#EXT-X-ENDLIST'] : []),
    ].join('\n');
  const at = (name: string, sequence: number) => ({ uri: `https://origin.example/live/${name}`, sequence });

  it('leaves out the segments up to the last delivered one and moves the sequence numbers on', () => {
    const trimmed = trimDelivered(playlist(true), base, at('s8.m4s', 8));
    assert.deepEqual(trimmed.text.split('\n'), [
      '#EXTM3U',
      '#EXT-X-DISCONTINUITY-SEQUENCE:1',
      '#EXT-X-TARGETDURATION:2',
      '#EXT-X-MEDIA-SEQUENCE:9',
      '#EXT-X-MAP:URI="init.mp4"',
      '#EXTINF:2.0,',
      's9.m4s',
      '#EXT-X-ENDLIST',
    ]);
    assert.deepEqual(trimmed.segments, [at('s9.m4s', 9)]);
    assert.equal(trimmed.drained, false);
  });

  it('is drained when everything was delivered; finds the segment by sequence when its URI changed', () => {
    assert.equal(trimDelivered(playlist(true), base, at('s9.m4s', 9)).drained, true);
    const bySequence = trimDelivered(playlist(true), base, at('s9.m4s?token=old', 9));
    assert.equal(bySequence.drained, true);
    assert.deepEqual(bySequence.segments, []);
  });

  it('passes live playlists, first pulls and newer streams unchanged', () => {
    for (const [text, delivered] of [
      [playlist(false), at('s9.m4s', 9)],
      [playlist(true), undefined],
      [playlist(true), at('old.m4s', 3)],
    ] as const) {
      const trimmed = trimDelivered(text, base, delivered);
      assert.equal(trimmed.text, text);
      assert.equal(trimmed.drained, false);
      assert.deepEqual(
        trimmed.segments.map((segment) => segment.sequence),
        [7, 8, 9],
      );
    }
  });

  it('remembers per playlist the segment fetched last, as it was when asked', () => {
    const history = new HlsHistory();
    history.list('p', [at('s7.m4s', 7), at('s8.m4s', 8)]);
    history.fetched(at('s7.m4s', 7).uri);
    const before = history.snapshot();
    history.fetched(at('s8.m4s', 8).uri);
    history.fetched('https://origin.example/unlisted.ts');
    assert.deepEqual(before.get('p'), at('s7.m4s', 7));
    assert.deepEqual(history.snapshot().get('p'), at('s8.m4s', 8));
  });
});

describe('RTSP scanning', () => {
  const bytes = Buffer.concat([
    Buffer.from('RTSP/1.0 200 OK\r\nCSeq: 1\r\nContent-Length: 4\r\n\r\nv=0\n'),
    Buffer.from([0x24, 1, 0, 3, 9, 9, 9]),
    Buffer.from('RTSP/1.0 302 Moved\r\nCSeq: 2\r\nLocation: rtsp://b.example/x\r\n\r\n'),
    Buffer.from([0x24, 0, 0, 1, 7]),
  ]);
  const redirectAt = bytes.indexOf('RTSP/1.0 302');

  it('passes everything before a stopping head on, however the chunks cut it, and nothing after', () => {
    for (const size of [1, 2, 3, 5, 7, 64]) {
      const scanner = new RtspScanner((head) => rtspStatus(head) === 302);
      const forwarded: Uint8Array[] = [];
      let stopped: string | undefined;
      for (let at = 0; at < bytes.byteLength && stopped === undefined; at += size) {
        const scan = scanner.push(bytes.subarray(at, at + size));
        forwarded.push(scan.forward);
        stopped = scan.stoppedAt;
      }
      assert.equal(Buffer.concat(forwarded).compare(bytes.subarray(0, redirectAt)), 0, `chunks of ${size}`);
      assert.equal(rtspHeader(stopped ?? '', 'location'), 'rtsp://b.example/x');
    }
  });

  it('passes whole chunks on when nothing stops it (one write per chunk)', () => {
    const scanner = new RtspScanner();
    const first = scanner.push(bytes.subarray(0, 40));
    const rest = scanner.push(bytes.subarray(40));
    assert.equal(Buffer.concat([first.forward, rest.forward]).compare(bytes), 0);
    assert.equal(rest.stoppedAt, undefined);
  });

  it('refuses non-RTSP text and oversized heads', () => {
    assert.throws(() => new RtspScanner().push(Buffer.from('HTTP/1.1 200 OK\r\n\r\n')), ProtocolError);
    assert.throws(() => new RtspScanner().push(Buffer.alloc(70_000, 0x41)), /head longer/);
  });
});

describe('redaction and backoff', () => {
  it('redacts credentials and query values, also inside ffmpeg messages', () => {
    assert.equal(
      redactUri('srt://h.example:9000?passphrase=secret&streamid=k'),
      'srt://h.example:9000?passphrase=***&streamid=***',
    );
    assert.equal(redactUri('rtsp://user:pw@cam.example/live'), 'rtsp://***@cam.example/live');
    assert.equal(
      redactText('rtsp://admin:hunter2@10.0.0.5/stream: 401 Unauthorized'),
      'rtsp://***@10.0.0.5/stream: 401 Unauthorized',
    );
  });

  it('waits between half and all of the capped doubling delay', () => {
    const policy = { baseMs: 1000, maxMs: 30_000 };
    assert.equal(
      retryDelayMs(0, policy, () => 0),
      500,
    );
    assert.equal(
      retryDelayMs(0, policy, () => 0.999_999),
      1000,
    );
    assert.equal(
      retryDelayMs(3, policy, () => 0),
      4000,
    );
    assert.equal(
      retryDelayMs(10, policy, () => 0),
      15_000,
    );
    assert.equal(
      retryDelayMs(50, policy, () => 0.999_999),
      30_000,
    );
  });
});
