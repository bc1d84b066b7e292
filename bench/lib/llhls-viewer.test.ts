import assert from 'node:assert/strict';
import { test } from 'node:test';
import { listedParts } from './llhls-viewer.js';

test('listedParts numbers parts by segment, across complete segments and the open one', () => {
  const playlist = [
    '#EXTM3U',
    '#EXT-X-MEDIA-SEQUENCE:4',
    '#EXTINF:2.0,',
    'video-4.m4s',
    '#EXT-X-PART:DURATION=0.5,URI="video-part-20.m4s",INDEPENDENT=YES',
    '#EXT-X-PART:DURATION=0.5,URI="video-part-21.m4s"',
    '#EXTINF:1.0,',
    'video-5.m4s',
    '#EXT-X-PART:DURATION=0.5,URI="video-part-22.m4s",INDEPENDENT=YES',
    '#EXT-X-PRELOAD-HINT:TYPE=PART,URI="video-part-23.m4s"',
  ].join('\n');
  assert.deepEqual(listedParts(playlist), [
    { msn: 5, index: 0, uri: 'video-part-20.m4s' },
    { msn: 5, index: 1, uri: 'video-part-21.m4s' },
    { msn: 6, index: 0, uri: 'video-part-22.m4s' },
  ]);
});

test('listedParts counts the segments an EXT-X-SKIP left out', () => {
  const playlist = [
    '#EXT-X-MEDIA-SEQUENCE:10',
    '#EXT-X-SKIP:SKIPPED-SEGMENTS=3',
    '#EXT-X-PART:DURATION=0.5,URI="video-part-90.m4s"',
  ].join('\n');
  assert.deepEqual(listedParts(playlist), [{ msn: 13, index: 0, uri: 'video-part-90.m4s' }]);
});
