/** Unit tests of the sprite cue parser: both timestamp forms, relative image URLs, malformed cues skipped, lookup by time. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseSpriteVtt, tileAt } from './sprite-vtt.js';

const VTT = [
  'WEBVTT',
  '',
  '00:00:00.000 --> 00:00:02.500',
  'sprite.jpg#xywh=0,0,160,90',
  '',
  '00:02.500 --> 00:05.000',
  'sprite.jpg#xywh=160,0,160,90',
  '',
  '00:00:05.000 --> 00:00:07.500',
  'no fragment here',
  '',
  '1:00:07.500 --> 1:00:10.000',
  '/elsewhere/sheet.jpg#xywh=0,90,160,90',
].join('\r\n');

test('parses cues of both timestamp forms and resolves the image against the cue file', () => {
  const tiles = parseSpriteVtt(VTT, 'http://127.0.0.1:8080/play/abc/thumbnails/sprite.vtt');
  assert.equal(tiles.length, 3, 'the cue without #xywh is skipped');
  assert.deepEqual(tiles[0], {
    start: 0,
    end: 2.5,
    image: 'http://127.0.0.1:8080/play/abc/thumbnails/sprite.jpg',
    x: 0,
    y: 0,
    width: 160,
    height: 90,
  });
  assert.equal(tiles[1]?.x, 160);
  assert.equal(tiles[1]?.start, 2.5);
  assert.equal(tiles[2]?.start, 3607.5);
  assert.equal(tiles[2]?.image, 'http://127.0.0.1:8080/elsewhere/sheet.jpg');
});

test('finds the tile covering a time, clamping before the first and after the last', () => {
  const tiles = parseSpriteVtt(VTT, 'http://h/t/sprite.vtt');
  assert.equal(tileAt(tiles, 1)?.x, 0);
  assert.equal(tileAt(tiles, 2.5)?.x, 160, 'a cue starts at its start time');
  assert.equal(tileAt(tiles, -3)?.x, 0);
  assert.equal(tileAt(tiles, 99_999)?.y, 90);
  assert.equal(tileAt([], 1), undefined);
});
