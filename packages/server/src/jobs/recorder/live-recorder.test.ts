/**
 * The recorder over local storage (ADR 0089): the segments one cut closes, video and audio, are
 * appended to the recording's pack in one write and read back from their ranges; a stream without
 * audio writes each segment as it closes; a leader segment whose follower stalls is written alone
 * after HOLD_LEADER_UNITS leader units.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type MediaUnit, silentLogger } from '@airwave/media';
import { SYNTHETIC_AUDIO, SYNTHETIC_VIDEO, syntheticUnits } from '@airwave/media/testing/synthetic-av';
import { readSegment } from '../../domain/recordings/segment-bytes.js';
import type { IndexedSegment } from '../../domain/recordings/segment-index.js';
import { LocalStorage } from '../../storage/local-storage.js';
import type { AppendOptions, ObjectAppender } from '../../storage/object-storage.js';
import { HOLD_LEADER_UNITS, LiveRecorder } from './live-recorder.js';

/** Local storage counting the appends to recorded packs. */
class CountingStorage extends LocalStorage {
  packAppends = 0;

  override async openAppender(key: string, options?: AppendOptions): Promise<ObjectAppender> {
    const appender = await super.openAppender(key, options);
    if (!key.endsWith('.m4s')) {
      return appender;
    }
    return {
      append: (bytes) => {
        this.packAppends++;
        return appender.append(bytes);
      },
      sync: () => appender.sync(),
      close: () => appender.close(),
    };
  }
}

describe('live recorder', () => {
  let dir: string;
  let storage: CountingStorage;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'airwave-live-recorder-'));
    storage = new CountingStorage(dir);
    await storage.open();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  async function record(prefix: string, units: readonly MediaUnit[], audio = true) {
    storage.packAppends = 0;
    const written: IndexedSegment[] = [];
    const recorder = new LiveRecorder(
      storage,
      prefix,
      { segmentWritten: () => undefined, failed: (reason) => assert.fail(reason) },
      silentLogger,
    );
    recorder.onDescription({ tracks: audio ? [SYNTHETIC_VIDEO, SYNTHETIC_AUDIO] : [SYNTHETIC_VIDEO] });
    for (const unit of units) {
      recorder.onUnit(unit);
    }
    recorder.onEnd('done');
    await recorder.close();
    written.push(...recorder.segments);
    return { recorder, written };
  }

  it('appends every cut’s video and audio segments in one write, read back from their ranges', async () => {
    const { written } = await record('recordings/av/', syntheticUnits({ seconds: 10, gopFrames: 60 }));
    const video = written.filter((segment) => segment.track === 'video');
    const audio = written.filter((segment) => segment.track === 'audio');
    assert.equal(video.length, 5);
    assert.equal(audio.length, 5);
    assert.equal(storage.packAppends, 5);
    let end = 0;
    for (const segment of written) {
      assert.equal(segment.shared, true);
      assert.equal(segment.pack, 0);
      assert.equal(segment.offset, end);
      end += segment.bytes;
      const bytes = Buffer.concat(await (await readSegment(storage, 'recordings/av/', segment)).body.toArray());
      assert.equal(bytes.byteLength, segment.bytes);
      assert.equal(bytes.subarray(4, 8).toString('latin1'), 'styp');
    }
  });

  it('writes each segment of a stream without audio as it closes', async () => {
    const { written } = await record(
      'recordings/v/',
      syntheticUnits({ seconds: 10, gopFrames: 60, audio: false }),
      false,
    );
    assert.equal(written.length, 5);
    assert.equal(storage.packAppends, 5);
  });

  it('writes a video segment alone once its audio stalls for more than HOLD_LEADER_UNITS video units', async () => {
    storage.packAppends = 0;
    const recorder = new LiveRecorder(
      storage,
      'recordings/stall/',
      { segmentWritten: () => undefined, failed: (reason) => assert.fail(reason) },
      silentLogger,
    );
    recorder.onDescription({ tracks: [SYNTHETIC_VIDEO, SYNTHETIC_AUDIO] });
    // Audio stops at 2.5 s; video goes on to just past its second cut (4 s) by HOLD_LEADER_UNITS + 1 frames.
    const videoEnd = (4 * 30 + HOLD_LEADER_UNITS + 1) * 3000;
    for (const unit of syntheticUnits({ seconds: 6, gopFrames: 60 })) {
      if (unit.trackId === SYNTHETIC_VIDEO.id ? unit.dts < videoEnd : unit.dts < 2.5 * SYNTHETIC_AUDIO.timescale) {
        recorder.onUnit(unit);
      }
    }
    const deadline = Date.now() + 10_000;
    while (recorder.segments.length < 3 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.deepEqual(
      recorder.segments.map((segment) => `${segment.track}-${segment.msn}`),
      ['video-0', 'audio-0', 'video-1'],
    );
    assert.equal(storage.packAppends, 2);
    recorder.onEnd('done');
    await recorder.close();
  });
});
