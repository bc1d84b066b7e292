import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type PlaylistSegment, renderMediaPlaylist, renderMultivariantPlaylist } from './ts-playlists.js';

const at = (seconds: number): Date => new Date(Date.UTC(2026, 10, 21, 8, 0, seconds));

const segment = (
  sequence: number,
  duration: number,
  discontinuity = false,
  discontinuitySequence = 0,
): PlaylistSegment => ({
  sequence,
  duration,
  programDateTime: at(sequence * 2),
  discontinuity,
  discontinuitySequence,
});

describe('classic HLS playlists', () => {
  it('lists one variant with codecs, resolution, bandwidth and frame rate', () => {
    const text = renderMultivariantPlaylist(
      {
        uri: 'stream.m3u8',
        bandwidth: 1_234_567.4,
        averageBandwidth: 1_000_000,
        codecs: ['avc1.64001e', 'mp4a.40.2'],
        width: 640,
        height: 360,
        frameRate: 29.97,
      },
      'jwt=abc',
    );
    assert.equal(
      text,
      [
        '#EXTM3U',
        '#EXT-X-VERSION:3',
        '#EXT-X-INDEPENDENT-SEGMENTS',
        '#EXT-X-STREAM-INF:BANDWIDTH=1234567,AVERAGE-BANDWIDTH=1000000,CODECS="avc1.64001e,mp4a.40.2",RESOLUTION=640x360,FRAME-RATE=29.970',
        'stream.m3u8?jwt=abc',
        '',
      ].join('\n'),
    );
  });

  it('leaves out what an audio-only variant does not have', () => {
    const text = renderMultivariantPlaylist({ uri: 'stream.m3u8', bandwidth: 0, codecs: ['mp4a.40.2'] });
    assert.match(text, /^#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS="mp4a.40.2"$/m);
    assert.doesNotMatch(text, /RESOLUTION|FRAME-RATE/);
  });

  it('renders a live window with sequence numbers, discontinuities and real durations', () => {
    const text = renderMediaPlaylist({
      targetDuration: 3,
      segments: [segment(4, 2.002), segment(5, 2.5, true, 1), segment(6, 1.967, false, 2)],
      ended: false,
      uriQuery: 'jwt=t',
    });
    assert.equal(
      text,
      [
        '#EXTM3U',
        '#EXT-X-VERSION:3',
        '#EXT-X-TARGETDURATION:3',
        '#EXT-X-MEDIA-SEQUENCE:4',
        '#EXT-X-DISCONTINUITY-SEQUENCE:0',
        '#EXT-X-INDEPENDENT-SEGMENTS',
        '#EXT-X-PROGRAM-DATE-TIME:2026-11-21T08:00:08.000Z',
        '#EXTINF:2.002,',
        'seg-4.ts?jwt=t',
        '#EXT-X-DISCONTINUITY',
        '#EXT-X-PROGRAM-DATE-TIME:2026-11-21T08:00:10.000Z',
        '#EXTINF:2.500,',
        'seg-5.ts?jwt=t',
        '#EXT-X-PROGRAM-DATE-TIME:2026-11-21T08:00:12.000Z',
        '#EXTINF:1.967,',
        'seg-6.ts?jwt=t',
        '',
      ].join('\n'),
    );
  });

  it('takes the discontinuity sequence from the first listed segment and ends with ENDLIST', () => {
    const text = renderMediaPlaylist({ targetDuration: 2, segments: [segment(9, 2, false, 3)], ended: true });
    assert.match(text, /^#EXT-X-DISCONTINUITY-SEQUENCE:3$/m);
    assert.match(text, /^seg-9\.ts$/m);
    assert.ok(text.endsWith('#EXT-X-ENDLIST\n'));
  });
});
