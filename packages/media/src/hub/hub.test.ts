import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { silentLogger } from '../ports.js';
import type { MediaUnit } from '../stream/media-unit.js';
import type { StreamDescription } from '../stream/track.js';
import { CapturingLogger } from '../testing/capturing-logger.js';
import { AlreadyPublishingError, Hub } from './hub.js';

const description: StreamDescription = {
  tracks: [
    {
      kind: 'video',
      id: 1,
      codec: 'h264',
      timescale: 90_000,
      config: new Uint8Array([1]),
      codecString: 'avc1.64001f',
      width: 1280,
      height: 720,
      fps: 30,
    },
    {
      kind: 'audio',
      id: 2,
      codec: 'aac',
      timescale: 48_000,
      config: new Uint8Array([0x11, 0x90]),
      codecString: 'mp4a.40.2',
      sampleRate: 48_000,
      channels: 2,
    },
  ],
};

const video = (dts: number, key = false, size = 100): MediaUnit => ({
  trackId: 1,
  dts,
  pts: dts,
  key,
  data: new Uint8Array(size),
});

const grant = { streamId: 's1', playbackId: 'p1' };

describe('Hub', () => {
  it('refuses a second publisher and resumes inside the reconnect window', () => {
    const statuses: string[] = [];
    const hub = new Hub({
      log: silentLogger,
      reconnectWindowMs: 10_000,
      lifecycle: { onStatus: (_id, status) => statuses.push(status) },
    });
    const first = hub.publish(grant, 'rtmp');
    first.setDescription(description);
    assert.throws(() => hub.publish(grant, 'rtmp'), AlreadyPublishingError);
    first.write(video(0, true));
    first.write(video(3000));
    first.close('socket closed');
    assert.equal(hub.getByPlaybackId('p1')?.isInterrupted, true);
    const second = hub.publish(grant, 'rtmp');
    assert.equal(second.resumed, true);
    const seen: MediaUnit[] = [];
    second.stream.attach({ onUnit: (u) => seen.push(u) }, false);
    second.setDescription(description);
    second.write(video(0, true));
    assert.equal(seen[0]?.dts, 6000, 'timestamps continue one frame after the last');
    assert.equal(seen[0]?.discontinuity, true);
    hub.stop('s1', 'test over');
    assert.deepEqual(statuses, ['LIVE', 'RECONNECTING', 'LIVE', 'OFFLINE']);
    assert.equal(hub.getByPlaybackId('p1'), undefined);
  });

  it('ends the stream when the reconnect window elapses', async () => {
    const statuses: string[] = [];
    const hub = new Hub({
      log: silentLogger,
      reconnectWindowMs: 20,
      lifecycle: { onStatus: (_id, status) => statuses.push(status) },
    });
    const publisher = hub.publish(grant, 'rtmp');
    publisher.setDescription(description);
    publisher.close('gone');
    await new Promise((resolve) => setTimeout(resolve, 60));
    assert.deepEqual(statuses, ['LIVE', 'RECONNECTING', 'OFFLINE']);
    assert.equal(hub.getByStreamId('s1'), undefined);
  });

  it('drops a slow reader to the next keyframe without slowing the publisher', () => {
    const hub = new Hub({ log: silentLogger });
    const publisher = hub.publish(grant, 'rtmp');
    publisher.setDescription(description);
    publisher.write(video(0, true));
    const reader = publisher.stream.openReader({ maxUnits: 4 });
    assert.equal(reader.length, 1, 'a new reader starts with the cached GOP');
    for (let i = 1; i <= 10; i++) {
      publisher.write(video(i * 3000));
    }
    assert.equal(reader.length, 0, 'queue was dropped while waiting for a keyframe');
    assert.ok(reader.stats.dropped >= 5);
    assert.equal(reader.stats.dropEvents, 1);
    publisher.write(video(33_000, true));
    assert.equal(reader.shift()?.key, true);
    hub.close();
  });

  it('drops backward timestamps and re-bases huge forward jumps', () => {
    const hub = new Hub({ log: silentLogger });
    const publisher = hub.publish(grant, 'rtmp');
    publisher.setDescription(description);
    const seen: number[] = [];
    publisher.stream.attach({ onUnit: (u) => seen.push(u.dts) });
    publisher.write(video(90_000, true));
    publisher.write(video(93_000));
    publisher.write(video(92_000));
    publisher.write(video(93_000 + 90_000 * 60));
    assert.deepEqual(seen, [90_000, 93_000, 96_000]);
    assert.equal(publisher.stream.stats.droppedTimestamps, 1);
    assert.equal(publisher.stream.stats.rebased, 1);
    hub.close();
  });

  it('logs each dropped backward timestamp (first of every 100) and each re-base with its reason, per stream', () => {
    const log = new CapturingLogger();
    const hub = new Hub({ log });
    const publisher = hub.publish(grant, 'rtmp');
    publisher.setDescription(description);
    const other = hub.publish({ streamId: 's2', playbackId: 'p2' }, 'rtmp');
    other.setDescription(description);
    const otherSeen: number[] = [];
    other.stream.attach({ onUnit: (u) => otherSeen.push(u.dts) });
    publisher.write(video(90_000, true));
    publisher.write(video(93_000));
    other.write(video(0, true));
    const mark = log.records.length;
    publisher.write(video(92_000));
    other.write(video(3000));
    const dropped = log.since(mark);
    assert.equal(dropped.length, 1, JSON.stringify(dropped));
    assert.deepEqual(dropped[0], {
      level: 'warn',
      msg: 'dts 92000 is before previous 93000',
      fields: { streamId: 's1', trackId: 1, dropped: 1 },
    });
    for (let i = 0; i < 99; i++) {
      publisher.write(video(92_500));
    }
    assert.equal(log.since(mark).length, 1, 'drops 2..100 are counted, not logged');
    publisher.write(video(92_500));
    assert.equal(publisher.stream.stats.droppedTimestamps, 101);
    assert.deepEqual(log.since(mark)[1]?.fields, { streamId: 's1', trackId: 1, dropped: 101 });

    const jump = log.records.length;
    publisher.write(video(93_000 + 90_000 * 60));
    const rebased = log.since(jump);
    assert.equal(rebased.length, 1, JSON.stringify(rebased));
    assert.deepEqual(rebased[0], {
      level: 'info',
      msg: 're-based timestamps: timestamp jumped 60.000 s ahead',
      fields: { streamId: 's1', trackId: 1 },
    });
    assert.equal(publisher.stream.stats.rebased, 1);
    other.write(video(6000));
    assert.deepEqual(otherSeen, [0, 3000, 6000], 'the other stream goes on untouched');
    assert.equal(other.stream.stats.droppedTimestamps, 0);
    hub.close();
  });

  it('lets a queued reader drain what it holds when the stream ends', async () => {
    const hub = new Hub({ log: silentLogger });
    const publisher = hub.publish(grant, 'rtmp');
    publisher.setDescription(description);
    publisher.write(video(0, true));
    const reader = publisher.stream.openReader();
    publisher.write(video(3000));
    hub.stop('s1', 'publisher finished');
    assert.equal((await reader.next())?.dts, 0);
    assert.equal((await reader.next())?.dts, 3000);
    assert.equal(await reader.next(), null);
    assert.equal(publisher.stream.readerCount, 0);
  });

  it('re-bases every track by the same amount after a reconnect, so audio stays in sync with video', () => {
    const hub = new Hub({ log: silentLogger, reconnectWindowMs: 10_000 });
    const audio = (dts: number): MediaUnit => ({ trackId: 2, dts, pts: dts, key: true, data: new Uint8Array(10) });
    const first = hub.publish(grant, 'rtmp');
    first.setDescription(description);
    first.write(video(0, true));
    first.write(audio(0));
    first.write(video(90_000));
    first.write(audio(24_000));
    first.close('dropped');
    const second = hub.publish(grant, 'rtmp');
    const seen: MediaUnit[] = [];
    second.stream.attach({ onUnit: (u) => seen.push(u) }, false);
    second.write(audio(4_800));
    second.write(video(9_000, true));
    const [a, v] = seen;
    assert.equal(a?.discontinuity, true);
    assert.equal(v?.discontinuity, true);
    const audioSeconds = (a?.dts ?? 0) / 48_000;
    const videoSeconds = (v?.dts ?? 0) / 90_000;
    assert.ok(
      Math.abs(audioSeconds - videoSeconds) < 1e-3,
      `audio ${audioSeconds} s and video ${videoSeconds} s coincide`,
    );
    assert.ok(videoSeconds > 1 + 1 / 30, 'the timeline continues after the last video frame');
    hub.close();
  });
  it('keeps audio in sync when the returning publisher sends it at another sample rate (Opus 48 kHz, then AAC 44.1 kHz)', () => {
    const hub = new Hub({ log: silentLogger, reconnectWindowMs: 10_000 });
    const audio = (dts: number): MediaUnit => ({ trackId: 2, dts, pts: dts, key: true, data: new Uint8Array(10) });
    const aac44: StreamDescription = {
      tracks: description.tracks.map((track) =>
        track.kind === 'audio' ? { ...track, timescale: 44_100, sampleRate: 44_100 } : track,
      ),
    };
    const first = hub.publish(grant, 'rtmp');
    first.setDescription(description);
    for (let second = 0; second <= 40; second++) {
      first.write(video(second * 90_000, true));
      first.write(audio(second * 48_000));
    }
    first.close('dropped');
    const second = hub.publish(grant, 'rtmp');
    second.setDescription(aac44);
    const seen: MediaUnit[] = [];
    second.stream.attach({ onUnit: (u) => seen.push(u) }, false);
    second.write(video(0, true));
    second.write(audio(0));
    const [v, a] = seen;
    const videoSeconds = (v?.dts ?? 0) / 90_000;
    const audioSeconds = (a?.dts ?? 0) / 44_100;
    assert.ok(videoSeconds > 40, `video continues after 40 s (${videoSeconds})`);
    assert.ok(
      Math.abs(audioSeconds - videoSeconds) < 1e-3,
      `the 44.1 kHz audio (${audioSeconds} s) continues with the video (${videoSeconds} s)`,
    );
    hub.close();
  });
  for (const declared of ['before', 'after'] as const) {
    it(`puts a track the returning publisher adds on the shared timeline (declared ${declared} its first unit)`, () => {
      const hub = new Hub({ log: silentLogger, reconnectWindowMs: 10_000 });
      const audio = (dts: number): MediaUnit => ({ trackId: 2, dts, pts: dts, key: true, data: new Uint8Array(10) });
      const videoOnly: StreamDescription = { tracks: description.tracks.filter((track) => track.kind === 'video') };
      const first = hub.publish(grant, 'rtmp');
      first.setDescription(videoOnly);
      for (let second = 0; second <= 50; second++) {
        first.write(video(second * 90_000, true));
      }
      first.close('dropped');
      const second = hub.publish(grant, 'rtmp');
      second.setDescription(declared === 'before' ? description : videoOnly);
      const seen: MediaUnit[] = [];
      second.stream.attach({ onUnit: (u) => seen.push(u) }, false);
      second.write(video(0, true));
      if (declared === 'after') {
        second.setDescription(description);
      }
      second.write(audio(0));
      const [v, a] = seen;
      const videoSeconds = (v?.dts ?? 0) / 90_000;
      const audioSeconds = (a?.dts ?? 0) / 48_000;
      assert.ok(videoSeconds > 50, `video continues after 50 s (${videoSeconds})`);
      assert.ok(
        Math.abs(audioSeconds - videoSeconds) < 1e-3,
        `the new audio track (${audioSeconds} s) starts with the video (${videoSeconds} s)`,
      );
      hub.close();
    });
  }
  it('is watched while a playback session or a queued reader is active, not for packagers alone', () => {
    const hub = new Hub({ log: silentLogger });
    const stream = hub.publish(grant, 'rtmp').stream;
    assert.equal(stream.watched, false);
    const detach = stream.attach({ onUnit: () => {} }, false);
    assert.equal(stream.watched, false, 'a packager without viewers does not make the stream watched');
    stream.viewers.touch('viewer-1', 'llhls', 0);
    assert.equal(stream.watched, true);
    stream.viewers.sweep(60_000);
    assert.equal(stream.watched, false, 'an expired HLS session no longer counts');
    const reader = stream.openReader();
    assert.equal(stream.watched, true);
    reader.close();
    assert.equal(stream.watched, false);
    const push = stream.openReader({ watches: false });
    assert.equal(stream.watched, false, 'a reader that tolerates batched reads (a push) does not count');
    const viewer = stream.openReader();
    assert.equal(stream.watched, true);
    viewer.close();
    assert.equal(stream.watched, false);
    push.close();
    push.close();
    assert.equal(stream.openReader().isClosed, false);
    assert.equal(stream.watched, true, 'closing a push reader twice does not uncount a viewer');
    detach();
    hub.close();
  });
});
