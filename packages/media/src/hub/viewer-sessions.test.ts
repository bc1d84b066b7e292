import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type ViewerEvent, ViewerSessions } from './viewer-sessions.js';

test('a request-based session ends after going quiet, reporting how long it lasted', () => {
  const sessions = new ViewerSessions(30_000);
  const events: ViewerEvent[] = [];
  sessions.subscribe((event) => events.push(event));
  sessions.touch('a', 'hls', 1_000);
  sessions.touch('a', 'hls', 6_000);
  assert.equal(sessions.sweep(20_000), 0, 'not idle yet');
  assert.equal(sessions.sweep(36_001), 1);
  assert.deepEqual(
    events.map((event) => [event.type, event.sessionId, event.protocol, event.durationMs]),
    [
      ['connect', 'a', 'hls', undefined],
      ['disconnect', 'a', 'hls', 5_000],
    ],
  );
  sessions.clear();
});

test('a connection-bound session reports its duration on close, and on clear while still open', () => {
  const sessions = new ViewerSessions();
  const events: ViewerEvent[] = [];
  sessions.subscribe((event) => events.push(event));
  const close = sessions.open('m', 'mp4');
  sessions.open('w', 'webrtc');
  close();
  sessions.clear();
  const ends = events.filter((event) => event.type === 'disconnect');
  assert.deepEqual(
    ends.map((event) => event.sessionId),
    ['m', 'w'],
  );
  assert.ok(ends.every((event) => typeof event.durationMs === 'number' && event.durationMs >= 0));
  assert.equal(sessions.count, 0);
});
